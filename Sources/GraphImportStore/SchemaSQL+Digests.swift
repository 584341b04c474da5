import GraphImportSchema

/// The triggers that keep each row's content digest honest: any write of an object by another
/// program (an update of a mapped column, a row of one of its lists inserted, updated or
/// deleted, a cascade of a deletion included) sets the object's `content_digest` to NULL, so that
/// the next import compares it value by value and restores it. Each stands aside while an
/// import writes its own drafts, which store their digests themselves: while
/// `graphimport_importing` holds a row (`Store.holdDigestTriggers`).
extension SchemaSQL {
    /// Every trigger's name starts so: they are graphimport's, made and dropped by it alone.
    package static let digestTriggerPrefix = "graphimport_digest_"

    /// `CREATE TABLE IF NOT EXISTS "graphimport_importing"`: at most one row, which the triggers read.
    package static let createImportingTable =
        "CREATE TABLE IF NOT EXISTS \(quoteIdentifier(InternalTable.importing)) (\"held\" INTEGER PRIMARY KEY CHECK (\"held\" = 1)) STRICT"

    /// The guard table, then the triggers of `schema.digestWatches`: what `graphimport schema`
    /// prints after the tables.
    package static func digestStatements(for schema: SchemaDescription) -> [String] {
        guard !schema.digestWatches.isEmpty else { return [] }
        return [createImportingTable] + digestTriggers(for: schema).map(\.sql)
    }

    /// Each trigger of `schema.digestWatches`, by name: on each entity table `AFTER UPDATE` that
    /// leaves the digest as it was, on each of its join tables `AFTER INSERT`, `AFTER DELETE` and
    /// `AFTER UPDATE`. Any column, not only this map's: two maps may share a table, each reading
    /// columns the other does not, and whichever made the triggers last must not leave an edit of
    /// the other's columns unseen.
    /// A name tells the event before the table, so that no two tables' triggers share one.
    package static func digestTriggers(for schema: SchemaDescription) -> [(name: String, sql: String)] {
        var triggers: [(name: String, sql: String)] = []
        let standsAside = "NOT EXISTS (SELECT 1 FROM \(quoteIdentifier(InternalTable.importing)))"
        for watch in schema.digestWatches {
            let table = quoteIdentifier(watch.table)
            let digest = quoteIdentifier(watch.digestColumn)
            let pk = quoteIdentifier(watch.primaryKey)
            /// Clears the digest of the objects whose row id is one of `owners` (`NEW.x`, `OLD.x`).
            func clear(_ owners: String) -> String {
                "BEGIN UPDATE \(table) SET \(digest) = NULL WHERE \(pk) IN (\(owners)) AND \(digest) IS NOT NULL; END"
            }
            let name = digestTriggerPrefix + "update_" + watch.table
            triggers.append(
                (
                    name,
                    "CREATE TRIGGER \(quoteIdentifier(name)) AFTER UPDATE ON \(table) WHEN \(standsAside) AND NEW.\(digest) IS OLD.\(digest) "
                        + clear("NEW.\(pk)")
                ))
            for list in watch.lists {
                let join = quoteIdentifier(list.table)
                let owner = quoteIdentifier(list.ownerColumn)
                for (event, owners) in [("insert", "NEW.\(owner)"), ("delete", "OLD.\(owner)"), ("update", "OLD.\(owner), NEW.\(owner)")] {
                    let name = digestTriggerPrefix + event + "_" + list.table
                    triggers.append(
                        (name, "CREATE TRIGGER \(quoteIdentifier(name)) AFTER \(event.uppercased()) ON \(join) WHEN \(standsAside) \(clear(owners))"))
                }
            }
        }
        return triggers
    }
}
