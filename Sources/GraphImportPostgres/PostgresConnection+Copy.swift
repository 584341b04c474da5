internal import CLibPQ
package import GraphImportSchema

/// COPY … FROM STDIN: rows sent as one stream in PostgreSQL's text format, the way a batch of
/// objects reaches the server in one round trip instead of one statement per object.
extension PostgresConnection {
    /// Sends `values` (row after row, `columns.count` to a row) into `columns` of `table`
    /// (a table name, quoted here; `pg_temp` tables included).
    package func copy(into table: String, columns: [String], values: [SQLValue]) throws(PostgresError) {
        precondition(!columns.isEmpty && values.count % columns.count == 0, "values must fill whole rows")
        let sql = "COPY \(quoteIdentifier(table)) (\(columns.map(quoteIdentifier).joined(separator: ", "))) FROM STDIN"
        let start = PQexec(handle, sql)
        let status = start.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        defer { PQclear(start) }
        guard status == PGRES_COPY_IN else { return try check(start, sql: sql) }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(Self.copyChunk + 4096)
        var encodingError: String?
        for (index, value) in values.enumerated() {
            encodingError = Self.appendCopyText(value, to: &buffer)
            if encodingError != nil { break }
            buffer.append(index % columns.count == columns.count - 1 ? UInt8(ascii: "\n") : UInt8(ascii: "\t"))
            if buffer.count >= Self.copyChunk {
                try send(buffer, sql: sql)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if !buffer.isEmpty { try send(buffer, sql: sql) }
        // A value PostgreSQL cannot hold ends the COPY with that error, so that nothing of it is kept.
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

    /// How much COPY text is gathered before it is handed to libpq.
    static let copyChunk = 256 * 1024

    private func send(_ bytes: [UInt8], sql: String) throws(PostgresError) {
        let sent = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { PQputCopyData(handle, $0, Int32(buffer.count)) }
        }
        guard sent == 1 else { throw lostConnection(sql: sql) }
    }

    private func lostConnection(sql: String) -> PostgresError {
        PostgresError(.connectionLost, message: location.scrub(PostgresError.headline(ofLibpqMessage: String(cString: PQerrorMessage(handle)))), sql: sql)
    }

    /// Appends `value` in COPY's text format: `\N` for NULL, backslash escapes for `\`, tab,
    /// newline and carriage return, a blob as bytea's hex form. Returns why a value cannot be
    /// sent (a text with a NUL character, which PostgreSQL's text cannot hold), else nil.
    static func appendCopyText(_ value: SQLValue, to buffer: inout [UInt8]) -> String? {
        switch value {
        case .null:
            buffer += [UInt8(ascii: "\\"), UInt8(ascii: "N")]
        case .integer(let number):
            buffer += String(number).utf8
        case .real(let number):
            if number.isNaN {
                buffer += "NaN".utf8
            } else if number.isInfinite {
                buffer += (number < 0 ? "-Infinity" : "Infinity").utf8
            } else {
                buffer += String(number).utf8
            }
        case .text(let text):
            for byte in text.utf8 {
                switch byte {
                case 0: return "a text value holds a NUL character, which PostgreSQL cannot store"
                case UInt8(ascii: "\\"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                case UInt8(ascii: "\t"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case UInt8(ascii: "\n"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case UInt8(ascii: "\r"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                default: buffer.append(byte)
                }
            }
        case .blob(let bytes):
            // bytea's `\x` hex form, its backslash escaped for COPY.
            buffer += [UInt8(ascii: "\\"), UInt8(ascii: "\\"), UInt8(ascii: "x")]
            let digits = Array("0123456789abcdef".utf8)
            for byte in bytes {
                buffer.append(digits[Int(byte >> 4)])
                buffer.append(digits[Int(byte & 15)])
            }
        }
        return nil
    }
}
