internal import CSQLite
import GraphImportSchema

/// Typed metadata: a persistent dictionary in `graphimport_meta`, in the same file as the data,
/// so a backup or copy keeps a job's ETag, since_id or cursor in step with what it imported.
///
/// Writes join the caller's transaction when one is open (meta written by an import commits or
/// rolls back with its data) and autocommit otherwise; the table is created by the first write.
extension Store {
    /// The value stored under `key`, or nil when there is none (or no metadata table yet).
    package func meta(_ key: String) throws(StoreError) -> MetaValue? {
        guard try tableExists(InternalTable.meta) else { return nil }
        guard
            let row = try database.statement(
                "SELECT \"type\", \"value\" FROM \(quoteIdentifier(InternalTable.meta)) WHERE \"key\" = ?"
            ).firstRow([.text(key)])
        else { return nil }
        return try Store.metaValue(key: key, type: row[0], value: row[1])
    }

    /// Stores `value` under `key`, replacing any value of any type. `updated_at` moves only when
    /// the type or value changes, so it tells when an ETag last changed, not when it was last seen.
    package func setMeta(_ key: String, _ value: MetaValue) throws(StoreError) {
        guard !key.isEmpty else {
            throw StoreError(extendedCode: SQLITE_MISUSE, message: "a meta key must not be empty")
        }
        if let problem = try problem(with: value) {
            throw StoreError(extendedCode: SQLITE_MISMATCH, message: "meta key '\(key)' cannot hold '\(value)': \(problem)")
        }
        try createIfMissing(InternalTable.meta, Store.createMetaTable)
        let table = quoteIdentifier(InternalTable.meta)
        try database.run(
            "INSERT INTO \(table) (\"key\", \"type\", \"value\", \"updated_at\") "
                + "VALUES (?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) "
                + "ON CONFLICT (\"key\") DO UPDATE SET \"type\" = excluded.\"type\", \"value\" = excluded.\"value\", "
                + "\"updated_at\" = excluded.\"updated_at\" "
                + "WHERE \(table).\"type\" IS NOT excluded.\"type\" OR \(table).\"value\" IS NOT excluded.\"value\"",
            [.text(key), .text(value.type.rawValue), value.sqlValue])
    }

    /// Removes `key`; true when it was there.
    @discardableResult
    package func unsetMeta(_ key: String) throws(StoreError) -> Bool {
        guard try tableExists(InternalTable.meta) else { return false }
        try database.run("DELETE FROM \(quoteIdentifier(InternalTable.meta)) WHERE \"key\" = ?", [.text(key)])
        return database.changes > 0
    }

    /// Every key with its value, sorted by key (bytewise, as SQLite's BINARY collation sorts).
    package func allMeta() throws(StoreError) -> [(key: String, value: MetaValue)] {
        guard try tableExists(InternalTable.meta) else { return [] }
        let rows = try database.rows(
            "SELECT \"key\", \"type\", \"value\" FROM \(quoteIdentifier(InternalTable.meta)) ORDER BY \"key\"")
        var entries: [(key: String, value: MetaValue)] = []
        for row in rows {
            let key = row[0].textValue ?? row[0].description
            entries.append((key, try Store.metaValue(key: key, type: row[1], value: row[2])))
        }
        return entries
    }

    /// The bool under `key`, `fallback` (false) when missing; another type is an error.
    package func bool(_ key: String, default fallback: Bool = false) throws(StoreError) -> Bool {
        switch try meta(key) {
        case nil: fallback
        case .bool(let value)?: value
        case let other?: throw Store.typeMismatch(key: key, holds: other.type, wanted: .bool)
        }
    }

    /// The integer under `key`, `fallback` (0) when missing; another type, a double included, is an error.
    package func integer(_ key: String, default fallback: Int64 = 0) throws(StoreError) -> Int64 {
        switch try meta(key) {
        case nil: fallback
        case .integer(let value)?: value
        case let other?: throw Store.typeMismatch(key: key, holds: other.type, wanted: .integer)
        }
    }

    /// The double under `key`, `fallback` (0) when missing; another type, an integer included, is an error.
    package func double(_ key: String, default fallback: Double = 0) throws(StoreError) -> Double {
        switch try meta(key) {
        case nil: fallback
        case .double(let value)?: value
        case let other?: throw Store.typeMismatch(key: key, holds: other.type, wanted: .double)
        }
    }

    /// The string under `key`, `fallback` ("") when missing; a date or JSON is an error too.
    package func string(_ key: String, default fallback: String = "") throws(StoreError) -> String {
        switch try meta(key) {
        case nil: fallback
        case .string(let value)?: value
        case let other?: throw Store.typeMismatch(key: key, holds: other.type, wanted: .string)
        }
    }

    /// The date under `key` in its stored shape, nil when missing; another type is an error.
    package func date(_ key: String) throws(StoreError) -> String? {
        switch try meta(key) {
        case nil: nil
        case .date(let value)?: value
        case let other?: throw Store.typeMismatch(key: key, holds: other.type, wanted: .date)
        }
    }

    /// The JSON text under `key`, nil when missing; another type is an error.
    package func json(_ key: String) throws(StoreError) -> String? {
        switch try meta(key) {
        case nil: nil
        case .json(let value)?: value
        case let other?: throw Store.typeMismatch(key: key, holds: other.type, wanted: .json)
        }
    }

    /// Why `value` cannot be stored, or nil when it can.
    private func problem(with value: MetaValue) throws(StoreError) -> String? {
        switch value {
        case .double(let double) where !double.isFinite:
            "a double must be finite"
        case .date(let text) where try !database.isStoredDate(text):
            "a date is stored as UTC text like 2024-05-01T12:00:00.000Z"
        case .json(let text) where try !database.isValidJSON(text):
            "it is not valid JSON"
        default:
            nil
        }
    }

    private static func metaValue(key: String, type: SQLValue, value: SQLValue) throws(StoreError) -> MetaValue {
        guard let typeName = type.textValue, let metaValue = MetaValue(type: typeName, value: value) else {
            throw StoreError(
                extendedCode: SQLITE_ERROR,
                message: "meta key '\(key)' cannot be read: type \(type) does not fit value \(value); "
                    + "the store was written by another program or version")
        }
        return metaValue
    }

    private static func typeMismatch(key: String, holds: MetaType, wanted: MetaType) -> StoreError {
        StoreError(extendedCode: SQLITE_MISMATCH, message: "meta key '\(key)' holds \(holds.phrase), not \(wanted.phrase)")
    }
}

extension Database {
    /// True when SQLite's `json_valid` accepts `text` (RFC 8259 JSON, any value at the top).
    func isValidJSON(_ text: String) throws(StoreError) -> Bool {
        try scalar("SELECT json_valid(?)", [.text(text)]) == .integer(1)
    }

    /// True when `text` is a date in the one shape the store keeps, `YYYY-MM-DDTHH:MM:SS.sssZ`
    /// (UTC, milliseconds, years 0000-9999), every field in range: SQLite's own date functions
    /// turn it into a Julian day number and back into the same text. "The date and time functions
    /// use a subset of ISO-8601 date and time formats" and accept a trailing "Z"; text they cannot
    /// read gives NULL, and a day or hour past its end (2024-02-30, 24:00) comes back as the date
    /// it overflows into (through the day number: `strftime` alone writes such text back as it was).
    func isStoredDate(_ text: String) throws(StoreError) -> Bool {
        try scalar("SELECT strftime('%Y-%m-%dT%H:%M:%fZ', julianday(?1)) IS ?1", [.text(text)]) == .integer(1)
    }
}

/// A metadata value as SQLite stores it: INTEGER for bool and integer, REAL for double, TEXT otherwise.
extension MetaValue {
    /// The value as SQLite stores it in the `value` column.
    var sqlValue: SQLValue {
        switch self {
        case .bool(let value): .integer(value ? 1 : 0)
        case .integer(let value): .integer(value)
        case .double(let value): .real(value)
        case .string(let text), .date(let text), .json(let text): .text(text)
        }
    }

    /// The value a row holds, or nil when `type` is unknown or `value` is not of its storage class.
    /// An INTEGER is read as a double too: a hand-written `1` for a double key is still a number.
    init?(type: String, value: SQLValue) {
        switch (MetaType(rawValue: type), value) {
        case (.bool?, .integer(0)): self = .bool(false)
        case (.bool?, .integer(1)): self = .bool(true)
        case (.integer?, .integer(let integer)): self = .integer(integer)
        case (.double?, .real(let real)): self = .double(real)
        case (.double?, .integer(let integer)): self = .double(Double(integer))
        case (.string?, .text(let text)): self = .string(text)
        case (.date?, .text(let text)): self = .date(text)
        case (.json?, .text(let text)): self = .json(text)
        default: return nil
        }
    }
}
