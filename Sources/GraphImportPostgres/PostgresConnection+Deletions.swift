internal import GraphImportSchema

/// Deleted objects in `graphimport_deleted`, as the SQLite store keeps them (`InternalTable.deleted`):
/// a row per object a run deleted (the run, the entity, its key as JSON text), and a row without
/// an entity marking the first run that recorded them.
///
/// PostgreSQL has no `rowid`: the table has a `rowid` column of its own, numbering the rows in the
/// order they were written, so that a reader orders them as it does in SQLite (`ORDER BY "run", rowid`).
extension PostgresConnection {
    /// The table, made by the first run that begins without it (`beginRun`).
    package static let createDeletedTable =
        "CREATE TABLE IF NOT EXISTS \(quoteIdentifier(InternalTable.deleted)) ("
        + "\"run\" BIGINT NOT NULL, \"entity\" TEXT, \"key\" TEXT, \"rowid\" BIGINT GENERATED ALWAYS AS IDENTITY)"

    /// Creates the table with its marker row for `run` when it is missing. Inside the caller's transaction, under the store's lock.
    func createDeletedTableIfMissing(run: Int64) throws(PostgresError) {
        guard try scalar("SELECT to_regclass($1) IS NULL", [quoteIdentifier(InternalTable.deleted)]) == "t" else { return }
        try execute(Self.createDeletedTable)
        _ = try rows("INSERT INTO \(quoteIdentifier(InternalTable.deleted)) (\"run\") VALUES ($1)", [String(run)])
    }

    /// Records that `run` deleted the objects of `entity` with these keys (JSON text each), in
    /// order, in the caller's transaction: one COPY, whatever their number.
    package func recordDeletions(entity: String, keys: [String], run: Int64) throws(PostgresError) {
        guard !keys.isEmpty else { return }
        var values: [SQLValue] = []
        values.reserveCapacity(keys.count * 3)
        for key in keys { values += [.integer(run), .text(entity), .text(key)] }
        try copy(into: InternalTable.deleted, columns: ["run", "entity", "key"], values: values)
    }

    /// The first run whose deletions the store records, or nil when it records none (the table is missing).
    package func deletionsRecordedSince() throws(PostgresError) -> Int64? {
        guard try scalar("SELECT to_regclass($1) IS NOT NULL", [quoteIdentifier(InternalTable.deleted)]) == "t" else { return nil }
        return try scalar("SELECT min(\"run\") FROM \(quoteIdentifier(InternalTable.deleted)) WHERE \"entity\" IS NULL").flatMap { Int64($0) }
    }

    /// (run, key JSON text) of the objects of `entity` deleted by runs after `run`, oldest first.
    package func deletions(of entity: String, after run: Int64) throws(PostgresError) -> [(run: Int64, key: String)] {
        guard try scalar("SELECT to_regclass($1) IS NOT NULL", [quoteIdentifier(InternalTable.deleted)]) == "t" else { return [] }
        return try rows(
            "SELECT \"run\", \"key\" FROM \(quoteIdentifier(InternalTable.deleted)) WHERE \"entity\" = $1 AND \"run\" > $2 ORDER BY \"run\", \"rowid\"",
            [entity, String(run)]
        ).map { (Int64($0[0] ?? "") ?? 0, $0[1] ?? "null") }
    }
}
