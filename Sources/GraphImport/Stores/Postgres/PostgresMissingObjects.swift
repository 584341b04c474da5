import GraphImportPostgres
import GraphImportSchema

/// `delete missing` on PostgreSQL, with the meaning of the SQLite store's `MissingObjects`: at the
/// run's end, the objects of each entity marked `delete missing` that the run did not meet are
/// doomed set-wise (`INSERT … SELECT … WHERE NOT EXISTS` against the keys the run met), then
/// deleted by the delete rules (`DeletionWalk` over `PostgresDoomedObjects`).
struct PostgresMissingObjects {
    let plan: ImportPlan
    /// What the run kept besides the given keys: the keys it only named, the targets lists left out.
    let tables: PostgresDeletionTables
    /// The temporary table of the keys the feed gave, per entity (`PostgresBatchWriter.givenTable`).
    let givenTable: (Int) -> String

    private var pk: String { quoteIdentifier(Naming.primaryKey) }

    /// Deletes (unless `dryRun`) the objects the run did not meet (with `missing`; a run that
    /// skipped records deletes none) and the owned objects their owners let go of (`letGo` dooms
    /// them), and what the delete rules take with them, in the one `DeletionWalk` both stores run;
    /// says what was, or would be, deleted. `store` names the store in errors.
    func delete(
        with doomed: PostgresDoomedObjects, store: String, dryRun: Bool, missing: Bool = true,
        letGo: (inout PostgresDoomedObjects) throws(PostgresError) -> Void = { _ in }
    ) throws(ImportError) -> [Deletions] {
        var doomed = doomed
        do throws(PostgresError) {
            try doomed.prepare()
            if missing { try doomMissing(&doomed) }
            try letGo(&doomed)
        } catch {
            throw ImportError(store: store, error)
        }
        var walk = DeletionWalk(plan: plan, doomed: doomed)
        do { return try walk.delete(dryRun: dryRun) } catch { throw error.importError(store: store) }
    }

    /// Dooms the objects each `delete missing` finds missing.
    private func doomMissing(_ doomed: inout PostgresDoomedObjects) throws(PostgresError) {
        for (index, entity) in plan.entities.enumerated() {
            guard let scope = entity.deletionScope else { continue }
            let table = quoteIdentifier(entity.table)
            let missing: String
            switch scope {
            case .all:
                missing = "SELECT e.\(pk) FROM \(table) e WHERE \(notMet(index, alias: "e"))"
            case .toOne(let relationship):
                // Only children of the parents the run met: a feed of one post's comments deletes none of another post's.
                let toOne = entity.toOne[relationship]
                let parent = plan.entities[toOne.target]
                missing =
                    "SELECT e.\(pk) FROM \(table) e JOIN \(quoteIdentifier(parent.table)) p ON p.\(pk) = e.\(quoteIdentifier(toOne.column)) "
                    + "JOIN \(metKeys(toOne.target)) m ON \(keyMatch(parent, "p", "m")) WHERE \(notMet(index, alias: "e"))"
            case .parentList(let owner, let toMany):
                // Only children the lists of this feed left out, unless the feed holds them elsewhere.
                let dropped = quoteIdentifier(tables.droppedTable(owner: owner, toMany: toMany)!)
                missing = "SELECT DISTINCT e.\(pk) FROM \(dropped) d JOIN \(table) e ON e.\(pk) = d.\"target\" WHERE \(notMet(index, alias: "e"))"
            }
            try doomed.doom(index, missing)
        }
    }

    /// The keys of entity `index`'s objects the run met: given, or named by a link.
    private func metKeys(_ index: Int) -> String {
        let entity = plan.entities[index]
        let keys = entity.keyAttributes.map { quoteIdentifier(entity.attributes[$0].column) }.joined(separator: ", ")
        let given = "SELECT \(keys) FROM \(quoteIdentifier(givenTable(index)))"
        guard let named = tables.namedTable(index) else { return "(\(given))" }
        return "(\(given) UNION SELECT \(keys) FROM \(quoteIdentifier(named)))"
    }

    /// That the object `alias` of entity `index` is not among those the run met: anti-joins that
    /// PostgreSQL runs as such (under an `OR` it would probe the keys once per row).
    private func notMet(_ index: Int, alias: String) -> String {
        let entity = plan.entities[index]
        var condition = "NOT EXISTS (SELECT 1 FROM \(quoteIdentifier(givenTable(index))) g WHERE \(keyMatch(entity, alias, "g")))"
        if let named = tables.namedTable(index) {
            condition += " AND NOT EXISTS (SELECT 1 FROM \(quoteIdentifier(named)) n WHERE \(keyMatch(entity, alias, "n")))"
        }
        return condition
    }

    private func keyMatch(_ entity: EntityPlan, _ left: String, _ right: String) -> String {
        entity.keyAttributes.map {
            let column = quoteIdentifier(entity.attributes[$0].column)
            return "\(left).\(column) = \(right).\(column)"
        }.joined(separator: " AND ")
    }
}
