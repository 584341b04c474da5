internal import CLibPQ
package import GraphImportSchema

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The read seam on a PostgreSQL store: the read side's SQL with its `?`s numbered `$1…$n`, each
/// statement prepared once per connection, and values decoded by their column's type into the
/// `SQLValue` the SQLite store gives (BIGINT as `.integer`, DOUBLE PRECISION as `.real`, TEXT as
/// `.text`, BYTEA as `.blob`).
///
/// A read transaction is REPEATABLE READ: every query of an export or a list of changes sees one
/// committed state, the last import committed before it began (MVCC), and holds up no import.
package final class PostgresReader: StoreReader {
    package let connection: PostgresConnection
    package var dialect: SQLDialect { .postgresql }
    /// Statement names by SQL text and parameter types.
    private var prepared: [String: String] = [:]
    private var inTransaction = false
    private var cursors = 0
    /// Rows fetched from a cursor at a time, in `scan`.
    static let fetchSize = 1000

    package init(_ location: ConnectionString) throws(PostgresError) {
        connection = try PostgresConnection(location)
    }

    package func rows(_ sql: String, _ values: [SQLValue]) throws(ReadError) -> [[SQLValue]] {
        let numbered = PostgresConnection.numberingPlaceholders(sql)
        let types = values.map(PostgresConnection.parameterType)
        let signature = numbered + "\u{0}" + types.map(String.init).joined(separator: ",")
        do {
            let name: String
            if let known = prepared[signature] {
                name = known
            } else {
                name = "graphimport_read_\(prepared.count + 1)"
                try connection.prepare(name, numbered, types: types)
                prepared[signature] = name
            }
            return try connection.values(numbered, values, statement: name)
        } catch { throw .server(error) }
    }

    /// Inside a read transaction, through a cursor a batch of rows at a time (other queries run
    /// between the batches); outside one, all rows at once.
    package func scan(_ sql: String, _ values: [SQLValue], _ body: ([SQLValue]) throws(ReadError) -> Bool) throws(ReadError) {
        guard inTransaction else {
            for row in try rows(sql, values) where try !body(row) { return }
            return
        }
        cursors += 1
        let cursor = "graphimport_scan_\(cursors)"
        do {
            _ = try connection.values(PostgresConnection.numberingPlaceholders("DECLARE \(cursor) NO SCROLL CURSOR FOR \(sql)"), values, statement: nil)
        } catch { throw .server(error) }
        reading: while true {
            let batch: [[SQLValue]]
            do { batch = try connection.values("FETCH \(Self.fetchSize) FROM \(cursor)", [], statement: nil) } catch { throw .server(error) }
            for row in batch where try !body(row) { break reading }
            if batch.count < Self.fetchSize { break }
        }
        do { try connection.execute("CLOSE \(cursor)") } catch { throw .server(error) }
    }

    package func beginRead() throws(ReadError) {
        do { try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") } catch { throw .server(error) }
        inTransaction = true
    }

    package func endRead() {
        guard inTransaction else { return }
        connection.rollback()
        inTransaction = false
    }

    /// The tables of the connection's schema (the first of `search_path`), as an import made them.
    package func tables() throws(ReadError) -> [String: Set<String>] {
        let rows = try rows(
            "SELECT lower(\"table_name\"), lower(\"column_name\") FROM information_schema.columns WHERE \"table_schema\" = current_schema()", [])
        var tables: [String: Set<String>] = [:]
        for row in rows {
            guard case .text(let table) = row[0], case .text(let column) = row[1] else { continue }
            tables[table, default: []].insert(column)
        }
        return tables
    }

    package func meta(_ key: String) throws(ReadError) -> MetaValue? {
        do { return try connection.meta(key) } catch { throw .server(error) }
    }
}

extension PostgresConnection {
    /// Prepares `sql` (with `$1…$n`) as statement `name`, its parameters of `types` (0: typed by the server).
    func prepare(_ name: String, _ sql: String, types: [Oid]) throws(PostgresError) {
        let made = types.withUnsafeBufferPointer { PQprepare(handle, name, sql, Int32(types.count), $0.baseAddress) }
        defer { PQclear(made) }
        try check(made, sql: sql)
    }

    /// Runs `sql` (with `$1…$n`), or the statement prepared from it as `statement`, binding
    /// `values` by their kind (an integer as BIGINT, a double as DOUBLE PRECISION, bytes as BYTEA,
    /// text as a literal the server types from where it is used), and returns its rows decoded by
    /// column type.
    package func values(_ numbered: String, _ values: [SQLValue], statement: String?) throws(PostgresError) -> [[SQLValue]] {
        let types = values.map(Self.parameterType)
        let texts = values.map(Self.parameterText)
        let result = Self.withParameters(texts) { pointers in
            if let statement { return PQexecPrepared(handle, statement, Int32(texts.count), pointers, nil, nil, 0) }
            return types.withUnsafeBufferPointer { PQexecParams(handle, numbered, Int32(texts.count), $0.baseAddress, pointers, nil, nil, 0) }
        }
        defer { PQclear(result) }
        try check(result, sql: numbered)
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        let columnTypes = (0..<columnCount).map { PQftype(result, $0) }
        var rows: [[SQLValue]] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var decoded: [SQLValue] = []
            decoded.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                if PQgetisnull(result, row, column) == 1 {
                    decoded.append(.null)
                } else {
                    decoded.append(Self.decode(PQgetvalue(result, row, column), length: Int(PQgetlength(result, row, column)), type: columnTypes[Int(column)]))
                }
            }
            rows.append(decoded)
        }
        return rows
    }

    /// Calls `body` with the C strings of `texts` (NULL for nil), alive for the call.
    private static func withParameters<R>(_ texts: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
        let copies = texts.map { $0.map { strdup($0) } ?? nil }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { $0.map { UnsafePointer($0) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }

    // The type OIDs of pg_type that the store's columns use.
    static let int8OID: Oid = 20, int2OID: Oid = 21, int4OID: Oid = 23, oidOID: Oid = 26
    static let float4OID: Oid = 700, float8OID: Oid = 701, numericOID: Oid = 1700
    static let boolOID: Oid = 16, byteaOID: Oid = 17

    /// The parameter's type: 0 lets the server type a text (or NULL) from where it is used.
    static func parameterType(_ value: SQLValue) -> Oid {
        switch value {
        case .integer: int8OID
        case .real: float8OID
        case .blob: byteaOID
        case .text, .null: 0
        }
    }

    /// The parameter in PostgreSQL's text form; nil for NULL.
    package static func parameterText(_ value: SQLValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let number): String(number)
        case .real(let number): number.isNaN ? "NaN" : number.isInfinite ? (number < 0 ? "-Infinity" : "Infinity") : "\(number)"
        case .text(let text): text
        case .blob(let bytes): "\\x" + bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        }
    }

    /// A value in PostgreSQL's text form, as the `SQLValue` SQLite would give for its column.
    static func decode(_ value: UnsafePointer<CChar>, length: Int, type: Oid) -> SQLValue {
        let bytes = UnsafeRawBufferPointer(start: value, count: length)
        let isInteger = type == int8OID || type == int2OID || type == int4OID || type == oidOID
        if isInteger, let number = integer(bytes) { return .integer(number) }
        let text = String(decoding: bytes, as: UTF8.self)
        switch type {
        case int8OID, int2OID, int4OID, oidOID: return Int64(text).map(SQLValue.integer) ?? .text(text)
        case float4OID, float8OID, numericOID: return Double(text).map(SQLValue.real) ?? .text(text)
        case boolOID: return .integer(text == "t" ? 1 : 0)
        case byteaOID: return .blob(hexBytes(text))
        default: return .text(text)
        }
    }

    /// An integer column's text (an optional `-` and up to 18 digits) read without a `String`;
    /// nil for anything else, which `decode` reads as before.
    static func integer(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        let negative = bytes.first == UInt8(ascii: "-")
        let digits = negative ? bytes.count - 1 : bytes.count
        guard digits > 0 && digits <= 18 else { return nil }
        var number: Int64 = 0
        for byte in bytes[(negative ? 1 : 0)...] {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            number = number * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return negative ? -number : number
    }

    /// The bytes of BYTEA's hex form (`\x0aff`).
    static func hexBytes(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8.dropFirst(2))
        func nibble(_ digit: UInt8) -> UInt8 {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            default: digit &- UInt8(ascii: "A") &+ 10
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index + 1 < digits.count {
            bytes.append(nibble(digits[index]) << 4 | nibble(digits[index + 1]))
            index += 2
        }
        return bytes
    }

    /// `sql` with each `?` outside quotes numbered `$1`, `$2`, … in order.
    static func numberingPlaceholders(_ sql: String) -> String {
        var result = ""
        result.reserveCapacity(sql.utf8.count + 8)
        var quote: Character?
        var number = 0
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                result.append(character)
            } else if character == "\"" || character == "'" {
                quote = character
                result.append(character)
            } else if character == "?" {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }
}
