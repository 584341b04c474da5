import GraphImportSchema

/// Deleted objects in `graphimport_deleted`: a row per object a run deleted (its entity, its key
/// as JSON text, the run), so that a reader of changes learns of deletions as well as of inserts
/// and updates (the rows themselves carry `inserted_run` and `changed_run`).
///
/// The table is created by the first run that begins without it (`beginRun`), with a row that
/// has no entity marking that run: deletions are known from that run on, and a store made before
/// the table existed says so instead of reporting none.
extension Store {
    static let createDeletedTable = """
        CREATE TABLE IF NOT EXISTS \(quoteIdentifier(InternalTable.deleted)) (\
        "run" INTEGER NOT NULL, "entity" TEXT, "key" TEXT) STRICT
        """

    /// Creates the table with its marker row for `run` when it is missing. Inside the caller's transaction.
    static func createDeletedTableIfMissing(run: Int64, in database: Database) throws(StoreError) {
        let exists = try database.scalar(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(InternalTable.deleted)])
        guard exists != .integer(1) else { return }
        try database.execute(createDeletedTable)
        try database.run("INSERT INTO \(quoteIdentifier(InternalTable.deleted)) (\"run\") VALUES (?)", [.integer(run)])
    }

    /// Records that `run` deleted the objects of `entity` with these keys (JSON text each), in
    /// the caller's transaction (creating the table, marked from `run`, if the run began without it).
    package static func recordDeletions(entity: String, keys: [String], run: Int64, in database: Database) throws(StoreError) {
        guard !keys.isEmpty else { return }
        try createDeletedTableIfMissing(run: run, in: database)
        let statement = try database.statement(
            "INSERT INTO \(quoteIdentifier(InternalTable.deleted)) (\"run\", \"entity\", \"key\") VALUES (?, ?, ?)")
        for key in keys { try statement.run([.integer(run), .text(entity), .text(key)]) }
    }
}
