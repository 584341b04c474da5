/// Plans additive migrations: new tables, nullable columns and indexes are added; nothing is
/// ever dropped (unmapped nullable columns and tables are kept); every other change is refused
/// with a hint, because SQLite's ALTER TABLE can only add (https://www.sqlite.org/lang_altertable.html).
public enum Migrator {
    /// The hint for changes that need the data rebuilt.
    static let rebuildHint = "import into a new store with --store NEW.sqlite, or delete the store to rebuild it"

    /// The plan from `old` (nil for a new store) to `new`.
    public static func plan(from old: SchemaDescription?, to new: SchemaDescription) -> MigrationPlan {
        var plan = MigrationPlan()
        for table in new.tables {
            if let existing = old?.table(named: table.name) {
                planChanges(from: existing, to: table, into: &plan)
            } else {
                plan.statements += SchemaSQL.createStatements(for: table)
                plan.changes.append("add table \(table.name)")
            }
        }
        for table in old?.tables ?? [] where new.table(named: table.name) == nil {
            plan.changes.append("table \(table.name) is no longer mapped; kept")
        }
        return plan
    }

    private static func planChanges(from old: TableDescription, to new: TableDescription, into plan: inout MigrationPlan) {
        let table = new.name
        if old.primaryKey != new.primaryKey {
            plan.refusals.append(
                MigrationRefusal(
                    table: table,
                    message:
                        "table \(table) changes its primary key from \(describe(old.primaryKey)) to \(describe(new.primaryKey)); SQLite cannot change a primary key in place",
                    hint: rebuildHint))
        }
        if Set(old.uniqueKeys) != Set(new.uniqueKeys) {
            plan.refusals.append(
                MigrationRefusal(
                    table: table,
                    message:
                        "table \(table) changes its unique keys from \(describe(old.uniqueKeys)) to \(describe(new.uniqueKeys)); rows already stored may not fit the new keys",
                    hint: rebuildHint))
        }
        for column in new.columns {
            if let existing = old.column(named: column.name) {
                if let refusal = refusal(from: existing, to: column, table: table) {
                    plan.refusals.append(refusal)
                }
            } else if column.notNull {
                plan.refusals.append(
                    MigrationRefusal(
                        table: table, column: column.name,
                        message: "new column \(table).\(column.name) is NOT NULL; SQLite can only add a column that rows already stored may leave NULL",
                        hint: "make the attribute optional in the map, or " + rebuildHint))
            } else {
                // "If foreign key constraints are enabled, a column with a REFERENCES clause must
                // have a default value of NULL" — a column added without DEFAULT has exactly that.
                plan.statements.append(SchemaSQL.addColumn(column, to: table))
                plan.changes.append("add column \(table).\(column.name)")
            }
        }
        for column in old.columns where new.column(named: column.name) == nil {
            if column.notNull {
                // Kept but never written again, a NOT NULL column would make every new row fail.
                plan.refusals.append(
                    MigrationRefusal(
                        table: table, column: column.name,
                        message: "column \(table).\(column.name) is NOT NULL but no longer mapped; new rows could not be inserted",
                        hint: "keep the attribute in the map, or " + rebuildHint))
            } else {
                plan.changes.append("column \(table).\(column.name) is no longer mapped; kept")
            }
        }
        for index in new.indexes where !old.indexes.contains(index) {
            plan.statements.append(SchemaSQL.createIndex(on: table, columns: index, unique: false))
            plan.changes.append("add index \(SchemaSQL.indexName(table: table, columns: index, unique: false))")
        }
        for index in old.indexes where !new.indexes.contains(index) {
            plan.changes.append("index \(SchemaSQL.indexName(table: table, columns: index, unique: false)) is no longer needed; kept")
        }
    }

    /// Why an existing column cannot become `new`, or nil when it is unchanged.
    private static func refusal(from old: ColumnDescription, to new: ColumnDescription, table: String) -> MigrationRefusal? {
        let name = "\(table).\(new.name)"
        let message: String
        if old.type != new.type {
            message = "column \(name) changes type from \(old.type.rawValue) to \(new.type.rawValue); SQLite cannot change a column's type in place"
        } else if !old.notNull && new.notNull {
            message = "column \(name) changes from nullable to NOT NULL; SQLite cannot add a constraint to an existing column"
        } else if old.notNull && !new.notNull {
            message = "column \(name) changes from NOT NULL to nullable; SQLite cannot drop a constraint from an existing column"
        } else if old.references != new.references {
            message =
                "column \(name) changes its reference from \(describe(old.references)) to \(describe(new.references)); SQLite cannot change a foreign key in place"
        } else {
            return nil
        }
        return MigrationRefusal(table: table, column: new.name, message: message, hint: rebuildHint)
    }

    private static func describe(_ key: PrimaryKey) -> String {
        switch key {
        case .rowid(let name): "\(name) (rowid)"
        case .columns(let names): "(\(names.joined(separator: ", ")))"
        }
    }

    private static func describe(_ keys: [[String]]) -> String {
        keys.isEmpty ? "none" : keys.map { "(\($0.joined(separator: ", ")))" }.joined(separator: ", ")
    }

    private static func describe(_ key: ForeignKey?) -> String {
        guard let key else { return "nothing" }
        return "\(key.table).\(key.column) ON DELETE \(key.onDelete.rawValue)"
    }
}
