internal import CSQLite
import GraphImportSchema

extension Database {
    /// Runs one or more `;`-separated statements that return no rows (DDL, PRAGMA, BEGIN).
    package func execute(_ sql: String) throws(StoreError) {
        let failure: (code: Int32, sql: String)? = sql.withCString { start in
            var cursor: UnsafePointer<CChar>? = start
            while let current = cursor, current.pointee != 0 {
                var prepared: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                var code = sqlite3_prepare_v3(handle, current, -1, 0, &prepared, &tail)
                let text = tail.map { statementText(from: current, to: $0) } ?? String(cString: current)
                if code == SQLITE_OK, let prepared {
                    repeat { code = sqlite3_step(prepared) } while code == SQLITE_ROW
                    if code == SQLITE_DONE { code = SQLITE_OK }
                    // finalize returns the step's error again; the message is already set.
                    sqlite3_finalize(prepared)
                }
                if code != SQLITE_OK { return (code, text) }
                cursor = tail
            }
            return nil
        }
        if let failure { throw error(code: failure.code, sql: failure.sql) }
    }

    /// The statement for `sql`, prepared once with SQLITE_PREPARE_PERSISTENT and cached by its text.
    package func statement(_ sql: String) throws(StoreError) -> Statement {
        if let cached = statementCache[sql] { return cached }
        let statement = try Statement(database: self, sql: sql, persistent: true)
        statementCache[sql] = statement
        return statement
    }

    /// A new statement for `sql`, prepared with SQLITE_PREPARE_PERSISTENT and not cached here: for
    /// a caller that keeps the statements it runs often itself (by purpose, not by text).
    package func prepare(_ sql: String) throws(StoreError) -> Statement {
        try Statement(database: self, sql: sql, persistent: true)
    }

    /// Runs the cached statement for `sql` with `values` bound to its `?` parameters.
    package func run(_ sql: String, _ values: [SQLValue] = []) throws(StoreError) {
        try statement(sql).run(values)
    }

    /// Every row of the cached statement for `sql`, each as its column values.
    package func rows(_ sql: String, _ values: [SQLValue] = []) throws(StoreError) -> [[SQLValue]] {
        try statement(sql).rows(values)
    }

    /// The first column of the first row, or nil when there is no row.
    package func scalar(_ sql: String, _ values: [SQLValue] = []) throws(StoreError) -> SQLValue? {
        try statement(sql).firstRow(values)?.first
    }
}

/// The text of one statement inside a longer SQL string, for error messages.
private func statementText(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>) -> String {
    let buffer = UnsafeRawBufferPointer(start: start, count: end - start)
    return String(decoding: buffer, as: UTF8.self)
}
