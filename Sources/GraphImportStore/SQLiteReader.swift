import GraphImportSchema

/// The read seam on a SQLite store: its connection's cached statements, its read transactions.
package final class SQLiteReader: StoreReader {
    package let store: Store
    package var dialect: SQLDialect { .sqlite }

    package init(store: Store) {
        self.store = store
    }

    package func rows(_ sql: String, _ values: [SQLValue]) throws(ReadError) -> [[SQLValue]] {
        do { return try store.database.rows(sql, values) } catch { throw .sqlite(error) }
    }

    /// Steps a statement of its own, so that `body` may run the cached ones.
    package func scan(_ sql: String, _ values: [SQLValue], _ body: ([SQLValue]) throws(ReadError) -> Bool) throws(ReadError) {
        let statement: Statement
        do {
            statement = try store.database.prepare(sql)
            try statement.bind(values)
        } catch { throw .sqlite(error) }
        let count = statement.columnCount
        while true {
            let more: Bool
            do { more = try statement.step() } catch { throw .sqlite(error) }
            guard more, try body((0..<count).map { statement.column($0) }) else { return }
        }
    }

    package func beginRead() throws(ReadError) {
        do { try store.database.beginRead() } catch { throw .sqlite(error) }
    }

    package func endRead() { store.database.rollback() }

    package func tables() throws(ReadError) -> [String: Set<String>] {
        let rows = try rows(
            "SELECT lower(m.\"name\"), lower(p.\"name\") FROM sqlite_schema AS m JOIN pragma_table_info(m.\"name\") AS p WHERE m.\"type\" = 'table'", [])
        var tables: [String: Set<String>] = [:]
        for row in rows {
            guard case .text(let table) = row[0], case .text(let column) = row[1] else { continue }
            tables[table, default: []].insert(column)
        }
        return tables
    }

    package func meta(_ key: String) throws(ReadError) -> MetaValue? {
        do { return try store.meta(key) } catch { throw .sqlite(error) }
    }
}
