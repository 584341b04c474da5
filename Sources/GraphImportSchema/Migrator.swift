/// Plans additive migrations by comparing a map's schema with the store as it is: missing tables,
/// nullable columns and indexes are added; whatever exists and fits is kept; nothing is ever
/// dropped (tables, columns and indexes a map does not name are kept, so several maps can feed one
/// store and a map can go back and forth); every other difference is refused with a hint, because
/// SQLite's ALTER TABLE can only add (https://www.sqlite.org/lang_altertable.html). The one
/// exception is a store made when the map's tables had other default names: those are renamed
/// (`Migrator+Renames`).
///
/// The plan is made of table descriptions (`MigrationStep`), not SQL: each store turns its steps
/// into its own DDL, so that a map change means the same in both stores; `target` only words the
/// refusals for the store at hand.
package enum Migrator {
    /// The plan from a store whose tables are exactly `old` (nil for a new store) to `new`.
    package static func plan(from old: SchemaDescription?, to new: SchemaDescription, target: MigrationTarget) -> MigrationPlan {
        plan(from: StoredSchema(schema: old ?? SchemaDescription(tables: []), recorded: old), to: new, target: target)
    }

    /// The plan from the store's real schema to `new`. `formerly` is `new` as an older graphimport
    /// named its tables (the same tables in the same order, other names): a store that holds a
    /// table by its former name has it renamed first (`renames`), and the rest is planned against
    /// the store as renamed.
    package static func plan(
        from store: StoredSchema, to new: SchemaDescription, formerly: SchemaDescription? = nil, target: MigrationTarget
    ) -> MigrationPlan {
        guard let formerly else { return additions(from: store, to: new, target: target) }
        let renames = renames(in: store, to: new, formerly: formerly, target: target)
        var plan = additions(from: renames.store, to: new, target: target)
        plan.steps = renames.plan.steps + plan.steps
        plan.changes = renames.plan.changes + plan.changes
        plan.refusals = renames.plan.refusals + plan.refusals
        return plan
    }

    /// What is missing from `store` for `new`, added; the rest kept or refused.
    private static func additions(from store: StoredSchema, to new: SchemaDescription, target: MigrationTarget) -> MigrationPlan {
        var plan = MigrationPlan()
        let rebuildHint = target.rebuildHint
        for table in new.tables {
            if let existing = store.schema.table(folding: table.name) {
                planChanges(from: existing, to: table, store: store, target: target, into: &plan)
            } else if let other = store.names[foldedName(table.name)] {
                plan.refusals.append(
                    MigrationRefusal(
                        table: table.name,
                        message: "the store already has \(article(other)) \(other) named \(table.name), so table \(table.name) cannot be created",
                        hint: "rename the entity's table in the map, or " + rebuildHint))
            } else {
                plan.steps.append(.createTable(table))
                plan.changes.append("add table \(table.name)")
            }
        }
        for retired in new.retiredTables where store.schema.table(folding: retired.name) != nil {
            plan.refusals.append(MigrationRefusal(table: retired.name, isStoreConflict: true, message: retired.message, hint: retired.hint))
        }
        for table in store.schema.tables where new.table(folding: table.name) == nil && wasRecorded(table.name, in: store) {
            plan.changes.append("table \(table.name) is not in this map; kept")
        }
        return plan
    }

    /// Whether the latest recorded map had `table` (or there is no record): what "kept" is said of,
    /// so that a store fed by several maps does not hear of the others' tables on every run.
    private static func wasRecorded(_ table: String, column: String? = nil, in store: StoredSchema) -> Bool {
        guard let recorded = store.recorded else { return true }
        guard let described = recorded.table(folding: table) else { return false }
        guard let column else { return true }
        return described.column(folding: column) != nil
    }

    private static func planChanges(
        from old: TableDescription, to new: TableDescription, store: StoredSchema, target: MigrationTarget, into plan: inout MigrationPlan
    ) {
        let table = new.name
        let rebuildHint = target.rebuildHint
        if !sameNames(old.primaryKey.names, new.primaryKey.names) || old.primaryKey.isRowID != new.primaryKey.isRowID {
            plan.refusals.append(
                MigrationRefusal(
                    table: table,
                    message:
                        "table \(table) has the primary key \(describe(old.primaryKey)) in the store and \(describe(new.primaryKey)) in the map; \(target.cannot) change a primary key in place",
                    hint: rebuildHint))
        }
        // The upserts find objects by the map's keys and rely on each being unique. A unique index
        // the store has beyond them (made by hand) is kept: a row that breaks it is refused then.
        if !Set(new.uniqueKeys.map(folded)).isSubset(of: Set(old.uniqueKeys.map(folded))) {
            plan.refusals.append(
                MigrationRefusal(
                    table: table,
                    message:
                        "table \(table) has the unique keys \(describe(old.uniqueKeys)) in the store and \(describe(new.uniqueKeys)) in the map; rows already stored may not fit the new keys",
                    hint: rebuildHint))
        }
        for column in new.columns {
            if let existing = old.column(folding: column.name) {
                if let refusal = refusal(from: existing, to: column, table: table, target: target) {
                    plan.refusals.append(refusal)
                }
            } else if column.notNull {
                plan.refusals.append(
                    MigrationRefusal(
                        table: table, column: column.name,
                        message: "new column \(table).\(column.name) is NOT NULL; \(target.onlyAdds) a column that rows already stored may leave NULL",
                        hint: "make the attribute optional in the map, or " + rebuildHint))
            } else {
                // "If foreign key constraints are enabled, a column with a REFERENCES clause must
                // have a default value of NULL" — a column added without DEFAULT has exactly that.
                plan.steps.append(.addColumn(column, table: old.name))
                plan.changes.append("add column \(table).\(column.name)")
            }
        }
        for column in old.columns where new.column(folding: column.name) == nil && !new.primaryKey.names.contains(where: { sameName($0, column.name) }) {
            if column.notNull {
                // Kept but never written again, a NOT NULL column would make every new row fail.
                plan.refusals.append(
                    MigrationRefusal(
                        table: table, column: column.name,
                        message: "column \(table).\(column.name) is NOT NULL in the store but not in this map; new rows could not be inserted",
                        hint: "keep the attribute in the map, or " + rebuildHint))
            } else if wasRecorded(table, column: column.name, in: store) {
                plan.changes.append("column \(table).\(column.name) is not in this map; kept")
            }
        }
        let existingIndexes = Set((old.indexes + old.uniqueKeys).map(folded))
        for index in new.indexes where !existingIndexes.contains(folded(index)) {
            let name = TableDescription.indexName(table: table, columns: index, unique: false)
            if let other = store.names[foldedName(name)] {
                plan.refusals.append(
                    MigrationRefusal(
                        table: table,
                        message:
                            "the store already has \(article(other)) \(other) named \(name), so the index on \(table)(\(index.joined(separator: ", "))) cannot be created",
                        hint: "drop or rename that \(other) in the store, or " + rebuildHint))
            } else {
                plan.steps.append(.createIndex(table: old.name, columns: index))
                plan.changes.append("add index \(name)")
            }
        }
        let wanted = Set((new.indexes + new.uniqueKeys).map(folded))
        let recordedIndexes = store.recorded.map { $0.table(folding: table)?.indexes.map(folded) ?? [] }
        for index in old.indexes where !wanted.contains(folded(index)) && recordedIndexes.map({ $0.contains(folded(index)) }) ?? true {
            plan.changes.append("index \(TableDescription.indexName(table: table, columns: index, unique: false)) is no longer needed; kept")
        }
    }

    /// Why an existing column cannot become `new`, or nil when it fits.
    private static func refusal(from old: ColumnDescription, to new: ColumnDescription, table: String, target: MigrationTarget) -> MigrationRefusal? {
        let name = "\(table).\(new.name)"
        let message: String
        if old.type != new.type {
            message =
                "column \(name) is \(old.type.rawValue) in the store and \(new.type.rawValue) in the map; \(target.cannot) change a column's type in place"
        } else if !old.notNull && new.notNull {
            message = "column \(name) is nullable in the store and NOT NULL in the map; \(target.cannot) add a constraint to an existing column"
        } else if old.notNull && !new.notNull {
            message = "column \(name) is NOT NULL in the store and nullable in the map; \(target.cannot) drop a constraint from an existing column"
        } else if !sameReference(old.references, new.references) {
            message =
                "column \(name) references \(describe(old.references)) in the store and \(describe(new.references)) in the map; \(target.cannot) change a foreign key in place"
        } else {
            return nil
        }
        return MigrationRefusal(table: table, column: new.name, message: message, hint: target.rebuildHint)
    }

    static func sameName(_ a: String, _ b: String) -> Bool { foldedName(a) == foldedName(b) }

    private static func sameNames(_ a: [String], _ b: [String]) -> Bool { folded(a) == folded(b) }

    private static func folded(_ names: [String]) -> [String] { names.map(foldedName) }

    private static func sameReference(_ a: ForeignKey?, _ b: ForeignKey?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return sameName(a.table, b.table) && sameName(a.column, b.column) && a.onDelete == b.onDelete
    }

    static func article(_ type: String) -> String {
        type.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    }

    private static func describe(_ key: PrimaryKey) -> String {
        switch key {
        case .rowid(let name): "\(name) (rowid)"
        case .columns(let names): names.isEmpty ? "none" : "(\(names.joined(separator: ", ")))"
        }
    }

    private static func describe(_ keys: [[String]]) -> String {
        keys.isEmpty ? "none" : keys.map { "(\($0.joined(separator: ", ")))" }.joined(separator: ", ")
    }

    private static func describe(_ key: ForeignKey?) -> String {
        guard let key else { return "nothing" }
        return "\(key.table).\(key.column.isEmpty ? "(its primary key)" : key.column) ON DELETE \(key.onDelete.rawValue)"
    }
}

extension PrimaryKey {
    /// The key's column names.
    var names: [String] {
        switch self {
        case .rowid(let name): [name]
        case .columns(let names): names
        }
    }

    var isRowID: Bool { if case .rowid = self { true } else { false } }
}

extension SchemaDescription {
    /// The table whose name SQLite takes for `name` (ASCII letters without case).
    package func table(folding name: String) -> TableDescription? {
        let folded = foldedName(name)
        return tables.first { foldedName($0.name) == folded }
    }
}

extension TableDescription {
    /// The column whose name SQLite takes for `name` (ASCII letters without case).
    package func column(folding name: String) -> ColumnDescription? {
        let folded = foldedName(name)
        return columns.first { foldedName($0.name) == folded }
    }
}
