package import GraphImportSchema

/// PostgreSQL's DDL for a migration planned by `Migrator`, the planner of both stores: the same
/// steps as SQLite's, in PostgreSQL's types, with deferred foreign keys and the same index names.
extension PostgresSchemaSQL {
    /// The statements of `steps`: the renames (in their order), the new tables (a reference between two of them added once both
    /// exist), then their indexes, then the columns added to existing tables (whose references may
    /// point at a new table), then the indexes added to existing tables (which may be on a new column).
    package static func statements(for steps: [MigrationStep]) -> [String] {
        var renames: [String] = []
        var tables: [TableDescription] = []
        var columns: [String] = []
        var indexes: [String] = []
        for step in steps {
            switch step {
            case .createTable(let table): tables.append(table)
            case .addColumn(let column, let table): columns.append(addColumn(column, to: table))
            case .createIndex(let table, let names): indexes.append(createIndex(on: table, columns: names, unique: false))
            // References and indexes follow a renamed table or column by their object ids.
            case .renameTable(let from, let to): renames.append("ALTER TABLE \(quoteIdentifier(from)) RENAME TO \(quoteIdentifier(to))")
            case .renameColumn(let table, let from, let to):
                renames.append("ALTER TABLE \(quoteIdentifier(table)) RENAME COLUMN \(quoteIdentifier(from)) TO \(quoteIdentifier(to))")
            case .renameIndex(let from, let to, _, _, _): renames.append("ALTER INDEX \(quoteIdentifier(from)) RENAME TO \(quoteIdentifier(to))")
            }
        }
        // A reference to a table not created here is to one the store has: no need to wait for it.
        let created = Set(tables.map(\.name))
        let existing = Set(tables.flatMap { $0.columns.compactMap(\.references?.table) }).subtracting(created)
        let creates = tables.isEmpty ? [] : createStatements(for: SchemaDescription(tables: tables), existing: existing)
        return renames + creates + columns + indexes
    }

    /// `ALTER TABLE "t" ADD COLUMN "c" TYPE [REFERENCES … DEFERRABLE INITIALLY DEFERRED]`. Added
    /// without a DEFAULT, the column is NULL in every stored row, so adding it rewrites no row and
    /// its reference holds at once.
    package static func addColumn(_ column: ColumnDescription, to table: String) -> String {
        var definition = "ALTER TABLE \(quoteIdentifier(table)) ADD COLUMN \(quoteIdentifier(column.name)) \(columnType(column.type))"
        if column.notNull { definition += " NOT NULL" }
        if let reference = column.references { definition += " " + references(reference) }
        return definition
    }
}

extension MigrationTarget {
    /// The PostgreSQL store's wording. PostgreSQL could alter more in place than SQLite, but a
    /// map change must mean the same in both stores, so the planner refuses the same changes and
    /// these say it is graphimport that does not make them.
    package static let postgresql = MigrationTarget(
        cannot: "graphimport does not", onlyAdds: "graphimport only adds",
        rebuildHint: "import into a new database or schema (another --store), or drop the store's tables to rebuild them")
}
