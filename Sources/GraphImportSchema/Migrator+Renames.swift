/// Renaming a store's tables from the names an older graphimport gave them to the map's: a
/// store made when an entity without a `table` line got its singular name (`user`) holds its
/// rows there, and the map now names the table `users`. The engine says what the names were
/// (`formerly`: the map's tables under the former naming, in the same order); the planner pairs
/// them with the map's and renames, in place, what the store holds only under the former name:
/// the table, the columns named after tables (a join table's `user_pk`) and the indexes named
/// after both. Rows, links and references stay as they are.
extension Migrator {
    /// The renames, and the store as it will be once they are made.
    struct Renames {
        var plan = MigrationPlan()
        var store: StoredSchema
    }

    static func renames(in store: StoredSchema, to new: SchemaDescription, formerly: SchemaDescription, target: MigrationTarget) -> Renames {
        var result = Renames(store: store)
        guard formerly.tables.count == new.tables.count else { return result }
        var tables: [String: String] = [:]
        var columns: [String: [String: String]] = [:]
        var names = store.names
        for (old, current) in zip(formerly.tables, new.tables) {
            let stored: TableDescription
            var line: String
            if sameName(old.name, current.name) {
                guard let table = store.schema.table(folding: current.name) else { continue }
                stored = table
                line = "rename in table \(current.name):"
            } else {
                guard let table = store.schema.table(folding: old.name) else { continue }
                if let refusal = conflict(former: table.name, current: current.name, store: store, new: new, target: target) {
                    result.plan.refusals += refusal
                    continue
                }
                stored = table
                result.plan.steps.append(.renameTable(from: table.name, to: current.name))
                tables[foldedName(table.name)] = current.name
                names[foldedName(table.name)] = nil
                names[foldedName(current.name)] = "table"
                line = "rename table \(table.name) to \(current.name) (an older graphimport's name)"
            }
            var renamedColumns: [String: String] = [:]
            var said: [String] = []
            for (oldColumn, newColumn) in zip(old.columns, current.columns) where !sameName(oldColumn.name, newColumn.name) {
                guard let column = stored.column(folding: oldColumn.name), stored.column(folding: newColumn.name) == nil else { continue }
                result.plan.steps.append(.renameColumn(table: current.name, from: column.name, to: newColumn.name))
                renamedColumns[foldedName(column.name)] = newColumn.name
                said.append("column \(column.name) to \(newColumn.name)")
            }
            for (unique, oldKeys, newKeys) in [(true, old.uniqueKeys, current.uniqueKeys), (false, old.indexes, current.indexes)] {
                for (oldKey, newKey) in zip(oldKeys, newKeys) {
                    let from = TableDescription.indexName(table: old.name, columns: oldKey, unique: unique)
                    let to = TableDescription.indexName(table: current.name, columns: newKey, unique: unique)
                    guard !sameName(from, to), names[foldedName(from)] == "index", names[foldedName(to)] == nil else { continue }
                    result.plan.steps.append(.renameIndex(from: from, to: to, table: current.name, columns: newKey, unique: unique))
                    names[foldedName(from)] = nil
                    names[foldedName(to)] = "index"
                }
            }
            guard tables[foldedName(stored.name)] != nil || !said.isEmpty else { continue }
            if !renamedColumns.isEmpty { columns[foldedName(current.name)] = renamedColumns }
            if !said.isEmpty { line += (tables[foldedName(stored.name)] == nil ? " " : ", ") + said.joined(separator: ", ") }
            result.plan.changes.append(line)
        }
        guard !tables.isEmpty || !columns.isEmpty else { return result }
        result.store = StoredSchema(
            schema: renamed(store.schema, tables: tables, columns: columns), names: names,
            recorded: store.recorded.map { renamed($0, tables: tables, columns: columns) })
        return result
    }

    /// Why the store's table `former` cannot become `current`: the store has `current` too, or
    /// the map gives `former` to another table, or another object of the store has the name.
    private static func conflict(
        former: String, current: String, store: StoredSchema, new: SchemaDescription, target: MigrationTarget
    ) -> [MigrationRefusal]? {
        let asNamed = "the store has table \(former), as an older graphimport named table \(current)"
        if new.table(folding: former) != nil {
            // The map's other table of that name is the store's, or this one's rows are: unknown.
            guard store.schema.table(folding: current) == nil else { return nil }
            return [
                MigrationRefusal(
                    table: current, isStoreConflict: true,
                    message: "\(asNamed), but this map gives the name \(former) to another table; whose rows it holds is unknown",
                    hint:
                        "if \(former) holds this entity's objects, name its table in the map (`table \(former)`) and give the other entity another; "
                        + "if not, name this entity's table `table \(current)` in the map")
            ]
        }
        if store.schema.table(folding: current) != nil {
            return [
                MigrationRefusal(
                    table: current, isStoreConflict: true, message: "\(asNamed), and table \(current) as well; which one holds the objects is unknown",
                    hint:
                        "keep the one that does: drop the other from the store (after copying what it holds), "
                        + "or name the entity's table in the map (`table \(former)` reads the older one)")
            ]
        }
        if let other = store.names[foldedName(current)] {
            return [
                MigrationRefusal(
                    table: current, isStoreConflict: true,
                    message: "\(asNamed), but the store already has \(article(other)) \(other) named \(current), so the table cannot be renamed",
                    hint: "drop or rename that \(other) in the store, or " + target.rebuildHint)
            ]
        }
        return nil
    }

    /// `schema` with its tables and columns renamed (both keyed by folded name; columns by the
    /// table's new name) and the references to renamed tables following them, as the stores do.
    private static func renamed(_ schema: SchemaDescription, tables: [String: String], columns: [String: [String: String]]) -> SchemaDescription {
        SchemaDescription(
            tables: schema.tables.map { table in
                var table = table
                table.name = tables[foldedName(table.name)] ?? table.name
                let renames = columns[foldedName(table.name)] ?? [:]
                let column = { (name: String) in renames[foldedName(name)] ?? name }
                table.columns = table.columns.map { described in
                    var described = described
                    described.name = column(described.name)
                    if let reference = described.references, let target = tables[foldedName(reference.table)] {
                        described.references?.table = target
                    }
                    return described
                }
                if case .columns(let names) = table.primaryKey { table.primaryKey = .columns(names.map(column)) }
                table.uniqueKeys = table.uniqueKeys.map { $0.map(column) }
                table.indexes = table.indexes.map { $0.map(column) }
                return table
            })
    }
}
