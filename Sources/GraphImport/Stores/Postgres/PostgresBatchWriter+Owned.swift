import GraphImportPostgres
import GraphImportSchema

/// Owned entities on PostgreSQL. An owned object is keyed by its owner's key and its position,
/// so the batch upserts it as any object, and the relationship that holds it is written as any
/// to-one or to-many: the new list replaces the old one position by position. What that leaves
/// behind (the positions a shorter list no longer has, a to-one's object when the feed says
/// `null`) is deleted at the run's end, set-wise: the owners whose list or to-one the feed gave
/// are kept in a temporary table per owned entity, and their owned rows that neither the join
/// table nor the foreign key holds any more go, as the SQLite writer deletes them.
extension PostgresBatchWriter {
    /// The relationship that holds owned entity `index` (exactly one, the map's validation says).
    struct OwnedHolder {
        let owner: Int
        /// The to-many's index in the owner's plan, or the to-one's.
        let toMany: Int?
        let toOne: Int?
    }

    /// Per entity of the plan: what holds it, nil for an entity that is not owned.
    var ownedHolders: [OwnedHolder?] {
        plan.entities.indices.map { target in
            guard plan.entities[target].isOwned else { return nil }
            for (owner, entity) in plan.entities.enumerated() {
                if let index = entity.toMany.firstIndex(where: { $0.ownsTarget && $0.target == target }) {
                    return OwnedHolder(owner: owner, toMany: index, toOne: nil)
                }
                if let index = entity.toOne.firstIndex(where: { $0.ownsTarget && $0.target == target }) {
                    return OwnedHolder(owner: owner, toMany: nil, toOne: index)
                }
            }
            return nil
        }
    }

    /// The temporary table of the owners whose relationship to owned entity `index` the feed gave.
    private func heldTable(_ index: Int) -> String { "graphimport_owners_\(index)" }

    /// The owned entity's columns that hold its owner's key (all of its key but `position`).
    private func ownerKeyColumns(_ index: Int) -> [String] {
        let entity = plan.entities[index]
        return entity.keyAttributes.dropLast().map { entity.attributes[$0].column }
    }

    /// Creates the run's tables of owners, one per owned entity (dropped at the transaction's end).
    func prepareOwned() throws(PostgresError) {
        for (index, holder) in ownedHolders.enumerated() where holder != nil {
            let columns = ownerKeyColumns(index).map { "o.\(quoteIdentifier($0))" }.joined(separator: ", ")
            try connection.execute(
                "CREATE TEMPORARY TABLE IF NOT EXISTS \(quoteIdentifier(heldTable(index))) ON COMMIT DROP AS "
                    + "SELECT \(columns) FROM \(quoteIdentifier(plan.entities[index].table)) o WITH NO DATA")
            try connection.execute("TRUNCATE \(quoteIdentifier(heldTable(index)))")
        }
    }

    /// Notes the batch's owners that gave an owned list or to-one (a `null` or `[]` too); an
    /// absent one keeps its owned objects. Call after the batch's links are written.
    func noteOwners() throws(PostgresError) {
        for (index, holder) in ownedHolders.enumerated() {
            guard let holder else { continue }
            let batch = batches[holder.owner]
            var rows: [SQLValue] = []
            for row in batch.keys.indices {
                let given =
                    if let toMany = holder.toMany { batch.list(row, toMany) != nil } else { batch.toOne(row, holder.toOne!) != nil }
                if given { rows += batch.keys[row] }
            }
            guard !rows.isEmpty else { continue }
            try connection.copy(into: heldTable(index), columns: ownerKeyColumns(index), values: rows)
        }
    }

    /// Whether the plan has owned entities, whose let-go objects a run may delete.
    var hasOwned: Bool { plan.entities.contains(where: \.isOwned) }

    /// Dooms the owned objects the run's owners let go of: those of an owner the feed gave the
    /// relationship of that its list or to-one no longer holds. `DeletionWalk`, the one walk both
    /// stores run, then deletes them by the delete rules, with `delete missing`'s objects.
    func doomLetGoOwned(_ doomed: inout PostgresDoomedObjects) throws(PostgresError) {
        for (index, holder) in ownedHolders.enumerated() {
            guard let holder else { continue }
            let entity = plan.entities[index]
            let owner = plan.entities[holder.owner]
            let pk = quoteIdentifier(Naming.primaryKey)
            let ownerColumns = ownerKeyColumns(index).map(quoteIdentifier)
            let held: String
            if let toMany = holder.toMany {
                let relationship = owner.toMany[toMany]
                held = "SELECT 1 FROM \(quoteIdentifier(relationship.joinTable)) j WHERE j.\(quoteIdentifier(relationship.targetColumn)) = o.\(pk)"
            } else {
                let relationship = owner.toOne[holder.toOne!]
                held = "SELECT 1 FROM \(quoteIdentifier(owner.table)) p WHERE p.\(quoteIdentifier(relationship.column)) = o.\(pk)"
            }
            let owners = "SELECT DISTINCT \(ownerColumns.joined(separator: ", ")) FROM \(quoteIdentifier(heldTable(index)))"
            let sameOwner = ownerColumns.map { "o.\($0) = w.\($0)" }.joined(separator: " AND ")
            try doomed.doom(
                index, "SELECT o.\(pk) FROM \(quoteIdentifier(entity.table)) o JOIN (\(owners)) w ON \(sameOwner) WHERE NOT EXISTS (\(held))")
        }
    }
}
