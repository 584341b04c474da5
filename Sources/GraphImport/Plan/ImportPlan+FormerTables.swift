extension ImportPlan {
    /// An entity whose table a store holds only under the name an older graphimport gave it.
    package struct FormerTable: Sendable, Equatable {
        package var entity: String
        /// The store's name: `Naming.formerDefaultTable` (`user`).
        package var former: String
        /// The map's: `Naming.defaultTable` (`users`).
        package var table: String

        /// What a reader says of a store that has not been imported into since: the table is
        /// renamed by an import (`Migrator.plan(…formerly:…)`), and a read never writes.
        package var message: String {
            "the store keeps entity \(entity)'s objects in table \(former), the name an older graphimport gave it, and this map reads table \(table)"
        }

        /// What to do about it.
        package static let hint = "import into the store with this map once (the import renames the table, keeping its rows), then read again"
    }

    /// The entities without a `table` line whose table the store (`stored`: its tables' names,
    /// lower-cased) lacks while it holds the table's former name, which no other entity's table has.
    package func formerTables(in stored: Set<String>) -> [FormerTable] {
        let tables = Set(entities.map { $0.table.lowercased() })
        return zip(entities, mapping.entities).compactMap { entity, declared in
            guard declared.tableName == nil else { return nil }
            let former = Naming.formerDefaultTable(entity: declared.name)
            guard !stored.contains(entity.table.lowercased()), stored.contains(former.lowercased()), !tables.contains(former.lowercased()) else {
                return nil
            }
            return FormerTable(entity: entity.name, former: former, table: entity.table)
        }
    }
}
