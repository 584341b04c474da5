import GraphImportSchema

/// The internal tables beside `graphimport_schema`: metadata and run history.
///
/// Both are created lazily by their first write (`setMeta`, `beginRun`), never by a read, so
/// reading a store that has none returns nil, defaults or no runs and leaves the file untouched
/// (also when it is opened read-only). Created inside the caller's transaction, a table rolls
/// back with it like any other write.
extension Store {
    static let createMetaTable = """
        CREATE TABLE IF NOT EXISTS \(quoteIdentifier(InternalTable.meta)) (\
        "key" TEXT PRIMARY KEY, \
        "type" TEXT NOT NULL CHECK ("type" IN ('bool', 'integer', 'double', 'string', 'date', 'json')), \
        "value" ANY, \
        "updated_at" TEXT NOT NULL) STRICT
        """

    static let createRunsTable = """
        CREATE TABLE IF NOT EXISTS \(quoteIdentifier(InternalTable.runs)) (\
        "id" INTEGER PRIMARY KEY, "started_at" TEXT NOT NULL, "finished_at" TEXT, \
        "pid" INTEGER NOT NULL, "host" TEXT NOT NULL, \
        "input" TEXT NOT NULL, "input_bytes" INTEGER, "input_sha256" TEXT, \
        "map_name" TEXT NOT NULL, "map_sha256" TEXT NOT NULL, \
        "records" INTEGER, "skipped_records" INTEGER, "counts" TEXT, \
        "outcome" TEXT NOT NULL, "error" TEXT) STRICT
        """

    /// True when the store has a table named `name`.
    func tableExists(_ name: String) throws(StoreError) -> Bool {
        try database.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(name)]) == .integer(1)
    }

    /// Creates `table` with `sql` unless it exists; checking first keeps DDL off the common path.
    func createIfMissing(_ table: String, _ sql: String) throws(StoreError) {
        if try !tableExists(table) { try database.execute(sql) }
    }
}
