internal import CSQLite
import GraphImportSchema

/// One prepared statement: bind, step, read columns, reset. Finalizes in `deinit`.
package final class Statement {
    /// The SQL text the statement was prepared from.
    package let sql: String
    let handle: OpaquePointer
    private let connection: OpaquePointer

    init(database: Database, sql: String, persistent: Bool) throws(StoreError) {
        self.sql = sql
        connection = database.handle
        var prepared: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let flags = UInt32(persistent ? SQLITE_PREPARE_PERSISTENT : 0)
        let (code, extra) = sql.withCString { start in
            let code = sqlite3_prepare_v3(database.handle, start, -1, flags, &prepared, &tail)
            return (code, tail.map { String(cString: $0).trimmingWhitespace() } ?? "")
        }
        guard code == SQLITE_OK else { throw database.error(code: code, sql: sql) }
        guard let prepared else {
            throw StoreError(extendedCode: SQLITE_MISUSE, message: "the SQL holds no statement", sql: sql)
        }
        handle = prepared
        // A second statement after the first would be silently ignored; say so instead.
        guard extra.isEmpty || extra == ";" else {
            throw StoreError(extendedCode: SQLITE_MISUSE, message: "the SQL holds more than one statement", sql: sql)
        }
    }

    deinit { sqlite3_finalize(handle) }

    /// The number of columns each row has.
    package var columnCount: Int32 { sqlite3_column_count(handle) }

    /// Resets the statement and binds `values` to its parameters, in order.
    package func bind(_ values: [SQLValue]) throws(StoreError) {
        try bind(count: values.count) { values[$0] }
    }

    /// Resets the statement and binds `count` values, `value(0)` first: for values the caller
    /// holds in no array, so that none is made to bind them.
    package func bind(count: Int, _ value: (Int) -> SQLValue) throws(StoreError) {
        try reset(binding: count)
        for offset in 0..<count {
            try bind(value(offset), at: Int32(offset + 1))
        }
    }

    /// Binds one value to the 1-based parameter `index`; SQLite copies text and blobs.
    package func bind(_ value: SQLValue, at index: Int32) throws(StoreError) {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, index, real)
        case .text(var text):
            // withUTF8 hands over the string's own storage (no copy for native strings);
            // a zero-length buffer may have no address, and a NULL pointer would bind NULL.
            code = text.withUTF8 { bytes in
                guard let base = bytes.baseAddress, bytes.count > 0 else {
                    return graphimport_bind_text(handle, index, "", 0)
                }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    graphimport_bind_text(handle, index, $0, sqlite3_uint64(bytes.count))
                }
            }
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    return sqlite3_bind_zeroblob(handle, index, 0)
                }
                return graphimport_bind_blob(handle, index, base, sqlite3_uint64(buffer.count))
            }
        }
        guard code == SQLITE_OK else {
            throw StoreError(extendedCode: code, message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
    }

    /// Steps once: true when a row is available, false when the statement is done.
    /// On error the statement is reset, so a cached statement stays usable.
    package func step() throws(StoreError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = StoreError(extendedCode: code, message: String(cString: sqlite3_errmsg(connection)), sql: sql)
            reset()
            throw error
        }
    }

    /// The value of the 0-based column `index` of the current row, in its storage class.
    package func column(_ index: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            // Pointer first, then the byte count, as sqlite3_column_bytes documents.
            guard let text = sqlite3_column_text(handle, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            guard let blob = sqlite3_column_blob(handle, index) else { return .blob([]) }
            let count = Int(sqlite3_column_bytes(handle, index))
            return .blob(Array(UnsafeRawBufferPointer(start: blob, count: count)))
        default:
            return .null
        }
    }

    /// Whether the 0-based column `index` of the current row holds `value`, compared where it
    /// lies: a text or blob is not copied. True only when `column(index)` would be the very same
    /// value (a real bit for bit, so 0.0 and -0.0 differ); a text stored as invalid UTF-8 is never
    /// equal, since reading it repairs it. A false answer costs at most the copy it was to save.
    package func column(_ index: Int32, holds value: SQLValue) -> Bool {
        let type = sqlite3_column_type(handle, index)
        switch value {
        case .null:
            return type == SQLITE_NULL
        case .integer(let integer):
            return type == SQLITE_INTEGER && sqlite3_column_int64(handle, index) == integer
        case .real(let real):
            return type == SQLITE_FLOAT && sqlite3_column_double(handle, index).bitPattern == real.bitPattern
        case .text(var text):
            guard type == SQLITE_TEXT else { return false }
            // Pointer first, then the byte count, as sqlite3_column_bytes documents.
            let stored = sqlite3_column_text(handle, index)
            let count = Int(sqlite3_column_bytes(handle, index))
            return text.withUTF8 { sameBytes(stored, count: count, as: UnsafeRawBufferPointer($0)) }
        case .blob(let blob):
            guard type == SQLITE_BLOB else { return false }
            let stored = sqlite3_column_blob(handle, index)
            let count = Int(sqlite3_column_bytes(handle, index))
            return blob.withUnsafeBytes { sameBytes(stored, count: count, as: $0) }
        }
    }

    /// Resets the statement so it can step again; bindings are kept.
    package func reset() {
        // reset repeats the last step's error, which step() has already thrown.
        sqlite3_reset(handle)
    }

    /// Binds `values`, steps until done, and resets.
    package func run(_ values: [SQLValue]) throws(StoreError) {
        try bind(values)
        while try step() {}
        reset()
    }

    /// Binds `integers` to the statement's parameters, in order, and steps until done, without
    /// building an array of values (a multi-row `INSERT … VALUES (?, ?, ?), (?, ?, ?)` of integers,
    /// such as many join rows in one statement). Throws when the count is not the statement's.
    package func run(integers: ArraySlice<Int64>) throws(StoreError) {
        try reset(binding: integers.count)
        for (offset, value) in integers.enumerated() {
            try bind(.integer(value), at: Int32(offset + 1))
        }
        while try step() {}
        reset()
    }

    /// Binds `values` and returns every row, each as its column values.
    package func rows(_ values: [SQLValue]) throws(StoreError) -> [[SQLValue]] {
        try bind(values)
        var rows: [[SQLValue]] = []
        while try step() {
            rows.append(currentRow())
        }
        reset()
        return rows
    }

    /// Binds one integer and returns the first two columns of every row as integers, without
    /// building a row of values for each (`SELECT a, b FROM t WHERE owner = ?` over integer
    /// columns, such as a join table's rows for one owner). A column that is not an integer reads
    /// as SQLite converts it (`sqlite3_column_int64`).
    package func integerPairs(binding value: Int64) throws(StoreError) -> [(Int64, Int64)] {
        var pairs: [(Int64, Int64)] = []
        try integerPairs(binding: value, into: &pairs)
        return pairs
    }

    /// `integerPairs(binding:)`, replacing the contents of `pairs` (whose capacity a caller
    /// reading many lists keeps from one to the next).
    package func integerPairs(binding value: Int64, into pairs: inout [(Int64, Int64)]) throws(StoreError) {
        try reset(binding: 1)
        try bind(.integer(value), at: 1)
        defer { reset() }
        pairs.removeAll(keepingCapacity: true)
        while try step() {
            pairs.append((sqlite3_column_int64(handle, 0), sqlite3_column_int64(handle, 1)))
        }
    }

    /// Resets the statement for `count` values, refusing any other number than it takes. Every
    /// parameter is then bound by the caller, so no clearing is needed.
    private func reset(binding count: Int) throws(StoreError) {
        reset()
        let expected = sqlite3_bind_parameter_count(handle)
        guard count == Int(expected) else {
            throw StoreError(extendedCode: SQLITE_RANGE, message: "expected \(expected) values to bind, got \(count)", sql: sql)
        }
    }

    /// Binds `values` and returns the first row, or nil when there is none. A column from
    /// `firstColumn` on that holds the value `expected` has for it (`column(_:holds:)`) is given
    /// as that value, not read again: a caller that already has most of a row's values shares
    /// their texts instead of copying each from the row. Without `expected`, the plain first row.
    package func firstRow(_ values: [SQLValue], expecting expected: [SQLValue?] = [], from firstColumn: Int = 0) throws(StoreError) -> [SQLValue]? {
        try firstRowHolding(values, expecting: expected, from: firstColumn)?.row
    }

    /// `firstRow(_:expecting:from:)`, and whether the row holds every value `expected` gives
    /// (those past the row's last column included, which it cannot hold): the caller then knows
    /// the row equals what it expected without comparing them again.
    package func firstRowHolding(_ values: [SQLValue], expecting expected: [SQLValue?], from firstColumn: Int) throws(StoreError) -> (
        row: [SQLValue], holdsExpected: Bool
    )? {
        try firstRowHolding(binding: values.count, { values[$0] }, expecting: expected, from: firstColumn)
    }

    /// `firstRowHolding(_:expecting:from:)` of the `count` values `value` gives (`bind(count:_:)`).
    package func firstRowHolding(
        binding count: Int, _ value: (Int) -> SQLValue, expecting expected: [SQLValue?], from firstColumn: Int
    ) throws(StoreError) -> (row: [SQLValue], holdsExpected: Bool)? {
        try bind(count: count, value)
        defer { reset() }
        guard try step() else { return nil }
        var row: [SQLValue] = []
        row.reserveCapacity(Int(columnCount))
        var holdsAll = true
        for index in 0..<columnCount {
            let slot = Int(index) - firstColumn
            if slot >= 0, slot < expected.count, let value = expected[slot] {
                if column(index, holds: value) {
                    row.append(value)
                    continue
                }
                holdsAll = false
            }
            row.append(column(index))
        }
        // A value given past the row's last column is one it cannot hold.
        let past = max(0, Int(columnCount) - firstColumn)
        if holdsAll && past < expected.count && expected[past...].contains(where: { $0 != nil }) { holdsAll = false }
        return (row, holdsAll)
    }

    private func currentRow() -> [SQLValue] {
        (0..<columnCount).map { column($0) }
    }
}
