import GraphImportSchema

/// SQL generation for table descriptions. Every name goes through `quoteIdentifier`; indexes are
/// named by `TableDescription.indexName`, as in every store.
package enum SchemaSQL {
    /// CREATE TABLE, then its unique indexes, then its plain indexes.
    package static func createStatements(for table: TableDescription) -> [String] {
        [createTable(table)]
            + table.uniqueKeys.map { createIndex(on: table.name, columns: $0, unique: true) }
            + table.indexes.map { createIndex(on: table.name, columns: $0, unique: false) }
    }

    /// The statements of every table, table by table. References to a table created later are
    /// fine: SQLite resolves a foreign key's target when rows are written, not when tables are created.
    package static func createStatements(for schema: SchemaDescription) -> [String] {
        schema.tables.flatMap { createStatements(for: $0) }
    }

    /// The DDL of a migration's steps, in order: a renamed table, column or index, a new table with
    /// its indexes, an added column, an added index.
    package static func statements(for steps: [MigrationStep]) -> [String] {
        steps.flatMap { step in
            switch step {
            case .createTable(let table): createStatements(for: table)
            case .addColumn(let column, let table): [addColumn(column, to: table)]
            case .createIndex(let table, let columns): [createIndex(on: table, columns: columns, unique: false)]
            // SQLite rewrites the references to a renamed table and the indexes on a renamed
            // column itself (https://www.sqlite.org/lang_altertable.html); it cannot rename an
            // index, which is made again under its new name.
            case .renameTable(let from, let to): ["ALTER TABLE \(quoteIdentifier(from)) RENAME TO \(quoteIdentifier(to))"]
            case .renameColumn(let table, let from, let to):
                ["ALTER TABLE \(quoteIdentifier(table)) RENAME COLUMN \(quoteIdentifier(from)) TO \(quoteIdentifier(to))"]
            case .renameIndex(let from, _, let table, let columns, let unique):
                ["DROP INDEX \(quoteIdentifier(from))", createIndex(on: table, columns: columns, unique: unique)]
            }
        }
    }

    /// `CREATE TABLE "t" ("pk" INTEGER PRIMARY KEY, …) STRICT`; a table keyed by its columns (a
    /// join table) is `STRICT, WITHOUT ROWID`: its rows live in the key's B-tree, so a row is
    /// written once instead of into a table and a key index, and a list is read from one B-tree.
    package static func createTable(_ table: TableDescription) -> String {
        var definitions: [String] = []
        if case .rowid(let name) = table.primaryKey {
            definitions.append("\(quoteIdentifier(name)) INTEGER PRIMARY KEY")
        }
        definitions += table.columns.map(columnDefinition)
        if case .columns(let names) = table.primaryKey {
            definitions.append("PRIMARY KEY (\(columnList(names)))")
        }
        let options = if case .columns = table.primaryKey { "STRICT, WITHOUT ROWID" } else { "STRICT" }
        return "CREATE TABLE \(quoteIdentifier(table.name)) (\(definitions.joined(separator: ", "))) \(options)"
    }

    /// `ALTER TABLE "t" ADD COLUMN …`, for a nullable column added to an existing table.
    package static func addColumn(_ column: ColumnDescription, to table: String) -> String {
        "ALTER TABLE \(quoteIdentifier(table)) ADD COLUMN \(columnDefinition(column))"
    }

    /// `CREATE [UNIQUE] INDEX "name" ON "t"("a", "b")`.
    package static func createIndex(on table: String, columns: [String], unique: Bool) -> String {
        let name = TableDescription.indexName(table: table, columns: columns, unique: unique)
        return "CREATE \(unique ? "UNIQUE " : "")INDEX \(quoteIdentifier(name)) ON \(quoteIdentifier(table))(\(columnList(columns)))"
    }

    /// `"name" TYPE [NOT NULL] [REFERENCES "t"("c") ON DELETE … DEFERRABLE INITIALLY DEFERRED]`.
    ///
    /// Deferred references let an import write rows in any order; they are checked at COMMIT.
    package static func columnDefinition(_ column: ColumnDescription) -> String {
        var definition = "\(quoteIdentifier(column.name)) \(column.type.rawValue)"
        if column.notNull { definition += " NOT NULL" }
        if let reference = column.references {
            definition += " REFERENCES \(quoteIdentifier(reference.table))(\(quoteIdentifier(reference.column)))"
            definition += " ON DELETE \(reference.onDelete.rawValue) DEFERRABLE INITIALLY DEFERRED"
        }
        return definition
    }

    private static func columnList(_ names: [String]) -> String {
        names.map(quoteIdentifier).joined(separator: ", ")
    }
}

extension MigrationPlan {
    /// SQLite's DDL for the steps, in order.
    package var statements: [String] { SchemaSQL.statements(for: steps) }
}

extension MigrationTarget {
    /// The SQLite store's: its ALTER TABLE can only add (https://www.sqlite.org/lang_altertable.html).
    package static let sqlite = MigrationTarget(
        cannot: "SQLite cannot", onlyAdds: "SQLite can only add",
        rebuildHint: "import into a new store with --store NEW.sqlite, or delete the store to rebuild it")
}
