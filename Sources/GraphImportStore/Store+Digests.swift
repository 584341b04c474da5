import GraphImportSchema

/// The content digests' triggers (`SchemaSQL.digestTriggers`) and the guard that sets them aside
/// while an import writes its own drafts. Everything runs inside the import's transaction: a run
/// that fails or is dry rolls back to the triggers and the empty guard it began with, and no
/// other connection ever sees the guard hold a row.
extension Store {
    /// Sets the triggers aside for the writes that follow, until `releaseDigestTriggers`: creates
    /// the guard table when missing (an older store), then gives it its one row.
    package func holdDigestTriggers() throws(StoreError) {
        try createIfMissing(InternalTable.importing, SchemaSQL.createImportingTable)
        try database.execute("INSERT OR IGNORE INTO \(quoteIdentifier(InternalTable.importing)) (\"held\") VALUES (1)")
    }

    /// Lets the triggers act again: before anything but a draft's write (deletions and their
    /// cascades), and before COMMIT.
    package func releaseDigestTriggers() throws(StoreError) {
        guard try tableExists(InternalTable.importing) else { return }
        try database.execute("DELETE FROM \(quoteIdentifier(InternalTable.importing))")
    }

    /// Makes the store's digest triggers those of `schema`: creates the missing ones, and drops
    /// and creates again those whose SQL differs (a map that watches another column, a table
    /// SQLite renamed), and drops those on a table of `schema` that `schema` does not want (those
    /// on another map's tables stay: several maps may feed one store). Compares `sqlite_schema`'s
    /// text first, so that a store whose triggers are in step sees no DDL. Returns how many
    /// statements it ran.
    @discardableResult
    package func makeDigestTriggers(for schema: SchemaDescription) throws(StoreError) -> Int {
        var stored: [String: String] = [:]
        let tables = Set(schema.tables.map { foldedName($0.name) })
        let prefix = SchemaSQL.digestTriggerPrefix
        let rows = try database.rows(
            "SELECT \"name\", \"sql\", \"tbl_name\" FROM sqlite_schema WHERE \"type\" = 'trigger' AND substr(\"name\", 1, ?) = ?",
            [.integer(Int64(prefix.utf8.count)), .text(prefix)])
        for row in rows {
            guard let name = row[0].textValue, let table = row[2].textValue, tables.contains(foldedName(table)) else { continue }
            stored[name] = row[1].textValue ?? ""
        }
        let wanted = SchemaSQL.digestTriggers(for: schema)
        var statements: [String] = []
        if !wanted.isEmpty && stored.isEmpty { statements.append(SchemaSQL.createImportingTable) }
        for trigger in wanted {
            let current = stored.removeValue(forKey: trigger.name)
            if current == trigger.sql { continue }
            if current != nil { statements.append("DROP TRIGGER \(quoteIdentifier(trigger.name))") }
            statements.append(trigger.sql)
        }
        for name in stored.keys.sorted() { statements.insert("DROP TRIGGER \(quoteIdentifier(name))", at: 0) }
        for statement in statements { try database.execute(statement) }
        return statements.count
    }
}
