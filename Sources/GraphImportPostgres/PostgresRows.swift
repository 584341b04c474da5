internal import CLibPQ
package import GraphImportSchema

/// A query's rows kept as the server sent them (libpq's result, freed with this object), read
/// in place: a value is decoded only when asked for (`value`), and compared with a `SQLValue`
/// without one (`holds`): a text by its bytes, an integer by its digits. What a batch reads back
/// of its stored rows is mostly compared and equal, so no array per row and no `String` per text
/// is made for it.
package final class PostgresRows {
    private let result: OpaquePointer
    /// The number of rows and of columns.
    package let count: Int
    package let width: Int
    private let types: [Oid]

    init(_ result: OpaquePointer) {
        self.result = result
        count = Int(PQntuples(result))
        width = Int(PQnfields(result))
        types = (0..<Int32(width)).map { PQftype(result, $0) }
    }

    deinit { PQclear(result) }

    package func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(column)) == 1 }

    /// The value at `row` and `column`, decoded as `PostgresConnection.values` decodes it.
    package func value(_ row: Int, _ column: Int) -> SQLValue {
        if isNull(row, column) { return .null }
        return PostgresConnection.decode(
            PQgetvalue(result, Int32(row), Int32(column)), length: Int(PQgetlength(result, Int32(row), Int32(column))), type: types[column])
    }

    /// An integer column's value without a `SQLValue`; nil for NULL or anything else.
    package func integer(_ row: Int, _ column: Int) -> Int64? {
        guard !isNull(row, column), PostgresConnection.isInteger(types[column]) else { return nil }
        if let number = PostgresConnection.integer(bytes(row, column)) { return number }
        if case .integer(let number) = value(row, column) { return number }
        return nil
    }

    /// Whether the value at `row` and `column` equals `value` (`SQLValue`'s equality of the
    /// decoded value): NULL, a text and an integer are compared in place, any other decoded.
    package func holds(_ value: SQLValue, _ row: Int, _ column: Int) -> Bool {
        let null = isNull(row, column)
        switch value {
        case .null: return null
        case .text(var text) where !null && PostgresConnection.isText(types[column]):
            let stored = bytes(row, column)
            return text.withUTF8 { sameBytes($0.baseAddress, count: $0.count, as: stored) }
        case .integer(let number) where !null && PostgresConnection.isInteger(types[column]):
            if let stored = PostgresConnection.integer(bytes(row, column)) { return stored == number }
            return self.value(row, column) == value
        default: return !null && self.value(row, column) == value
        }
    }

    /// The value's bytes at `row` and `column` as the server sent them (text format), valid while
    /// the rows live: empty for NULL.
    package func bytes(_ row: Int, _ column: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: PQgetvalue(result, Int32(row), Int32(column)), count: Int(PQgetlength(result, Int32(row), Int32(column))))
    }
}

extension PostgresConnection {
    /// Runs `sql` (no parameters) and returns its rows as the server sent them.
    package func rowsInPlace(_ sql: String) throws(PostgresError) -> PostgresRows {
        let result = PQexecParams(handle, sql, 0, nil, nil, nil, nil, 0)
        do { try check(result, sql: sql) } catch {
            PQclear(result)
            throw error
        }
        guard let result else { throw PostgresError(.other, message: "no result for \(sql)") }
        return PostgresRows(result)
    }

    static func isInteger(_ type: Oid) -> Bool { type == int8OID || type == int2OID || type == int4OID || type == oidOID }

    /// Whether a column of `type` is decoded as `.text` (whatever is not a number, a boolean or bytes).
    static func isText(_ type: Oid) -> Bool {
        !isInteger(type) && type != float4OID && type != float8OID && type != numericOID && type != boolOID && type != byteaOID
    }
}
