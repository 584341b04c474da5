internal import CLibPQ
package import GraphImportSchema

/// COPY … FROM STDIN: rows sent as one stream in PostgreSQL's text format, the way a batch of
/// objects reaches the server in one round trip instead of one statement per object.
extension PostgresConnection {
    /// Sends `values` (row after row, `columns.count` to a row) into `columns` of `table`
    /// (a table name, quoted here; `pg_temp` tables included).
    package func copy(into table: String, columns: [String], values: [SQLValue]) throws(PostgresError) {
        precondition(!columns.isEmpty && values.count % columns.count == 0, "values must fill whole rows")
        var text = PostgresCopyText()
        for row in stride(from: 0, to: values.count, by: columns.count) {
            text.append(values[row..<(row + columns.count)])
            text.endRow()
        }
        try copy(into: table, columns: columns, text: text)
    }

    /// Sends the rows of `text` into `columns` of `table` (a table name, quoted here; `pg_temp`
    /// tables included). A value PostgreSQL cannot hold (`text.encodingError`) ends the COPY with
    /// that error, so that nothing of it is kept.
    package func copy(into table: String, columns: [String], text: PostgresCopyText) throws(PostgresError) {
        precondition(!columns.isEmpty, "a COPY needs columns")
        let sql = "COPY \(quoteIdentifier(table)) (\(columns.map(quoteIdentifier).joined(separator: ", "))) FROM STDIN"
        let start = PQexec(handle, sql)
        let status = start.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        defer { PQclear(start) }
        guard status == PGRES_COPY_IN else { return try check(start, sql: sql) }
        let encodingError = text.encodingError
        if encodingError == nil {
            var sent = 0
            while sent < text.bytes.count {
                let end = min(sent + Self.copyChunk, text.bytes.count)
                try send(text.bytes[sent..<end], sql: sql)
                sent = end
            }
        }
        guard PQputCopyEnd(handle, encodingError) == 1 else { throw lostConnection(sql: sql) }
        var failure: PostgresError?
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            do { try check(result, sql: sql) } catch { failure = failure ?? error }
        }
        // The server reports the COPY ended by the client as cancelled: the value is the cause.
        if let encodingError { throw PostgresError(.unstorable, message: encodingError, sql: sql) }
        if let failure { throw failure }
    }

    /// How much COPY text is handed to libpq at once.
    static let copyChunk = 256 * 1024

    private func send(_ bytes: ArraySlice<UInt8>, sql: String) throws(PostgresError) {
        let sent = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { PQputCopyData(handle, $0, Int32(buffer.count)) }
        }
        guard sent == 1 else { throw lostConnection(sql: sql) }
    }

    private func lostConnection(sql: String) -> PostgresError {
        PostgresError(.connectionLost, message: location.scrub(PostgresError.headline(ofLibpqMessage: String(cString: PQerrorMessage(handle)))), sql: sql)
    }
}
