/// Deletions read back, on either store (`graphimport_deleted` has the same columns on PostgreSQL).
extension StoreReader {
    /// The first run whose deletions the store records, or nil when it records none (the table is missing).
    public func deletionsRecordedSince() throws(ReadError) -> Int64? {
        guard try tables()[Store.deletedTable] != nil else { return nil }
        return try scalar("SELECT min(\"run\") FROM \(quoteIdentifier(Store.deletedTable)) WHERE \"entity\" IS NULL")?.integerValue
    }

    /// (run, key JSON text) of the objects of `entity` deleted by runs after `run`, oldest first.
    public func deletions(of entity: String, after run: Int64) throws(ReadError) -> [(run: Int64, key: String)] {
        guard try tables()[Store.deletedTable] != nil else { return [] }
        return try rows(
            "SELECT \"run\", \"key\" FROM \(quoteIdentifier(Store.deletedTable)) WHERE \"entity\" = ? AND \"run\" > ? ORDER BY \"run\", \(dialect.insertionOrder)",
            [.text(entity), .integer(run)]
        ).map { ($0[0].integerValue ?? 0, $0[1].textValue ?? "null") }
    }
}
