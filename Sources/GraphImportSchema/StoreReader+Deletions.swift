/// Deletions read back, on either store (`graphimport_deleted` has the same columns on PostgreSQL).
extension StoreReader {
    /// The first run whose deletions the store records, or nil when it records none (the table is missing).
    package func deletionsRecordedSince() throws(ReadError) -> Int64? {
        guard try tables()[InternalTable.deleted] != nil else { return nil }
        guard case .integer(let run)? = try scalar("SELECT min(\"run\") FROM \(quoteIdentifier(InternalTable.deleted)) WHERE \"entity\" IS NULL") else {
            return nil
        }
        return run
    }

    /// (run, key JSON text) of the objects of `entity` deleted by runs after `run`, oldest first.
    package func deletions(of entity: String, after run: Int64) throws(ReadError) -> [(run: Int64, key: String)] {
        guard try tables()[InternalTable.deleted] != nil else { return [] }
        return try rows(
            "SELECT \"run\", \"key\" FROM \(quoteIdentifier(InternalTable.deleted)) WHERE \"entity\" = ? AND \"run\" > ? ORDER BY \"run\", \(dialect.insertionOrder)",
            [.text(entity), .integer(run)]
        ).map { row in
            let deletedBy: Int64 = if case .integer(let id) = row[0] { id } else { 0 }
            let key = if case .text(let text) = row[1] { text } else { "null" }
            return (deletedBy, key)
        }
    }
}
