import GraphImportSchema
import GraphImportStore

/// Deletes the objects of entities marked `delete missing` that the run's feed did not hold
/// (within the scoping parent, when one is given), following every relationship's delete rule
/// (`DeletionWalk`): what the run met comes from its `ObjectMemory`, the rest from the entities' stores.
struct MissingObjects<Store: EntityStore> {
    let plan: ImportPlan
    /// Per entity of the plan.
    let stores: [Store]
    let memory: ObjectMemory
    /// Per entity, per to-many that scopes a deletion: the targets its lists left out in this run (`GraphWriter`).
    let droppedFromLists: [[Int: Set<Int64>]]

    /// The run that deletes them.
    let runID: Int64
    /// Per entity: owned objects an owner let go of in the run (`GraphWriter.ownedOrphans`),
    /// deleted unless an owner holds them again.
    var ownedOrphans: [Set<Int64>] = []

    /// Deletes them (unless `dryRun`) and says what was, or would be, deleted (`DeletionWalk`).
    /// Objects linked to by id count as held by the feed. `missing`: false to delete only the
    /// owned objects let go of (a run that skipped records deletes no missing objects).
    func delete(dryRun: Bool, missing includesMissing: Bool = true) throws(WriteError) -> [Deletions] {
        var doomed = SQLiteDoomedObjects(plan: plan, stores: stores, runID: runID)
        doomed.deleted = { [memory] entity, pks in memory.forget(entity, pks) }
        try storing { () throws(StoreError) in
            // Rows still queued may point at objects about to go.
            for store in stores { try store.flush() }
            for (index, entity) in plan.entities.enumerated() where includesMissing {
                guard let scope = entity.deletionScope else { continue }
                for pk in try missing(entity: index, scope: scope) { doomed.insert(pk, of: index) }
            }
            try addOrphans(to: &doomed)
        }
        var walk = DeletionWalk(plan: plan, doomed: doomed)
        do { return try walk.delete(dryRun: dryRun) } catch { throw error.writeError }
    }

    /// The owned objects let go of in the run that no owner holds now.
    private func addOrphans(to doomed: inout SQLiteDoomedObjects<Store>) throws(StoreError) {
        for (target, orphans) in ownedOrphans.enumerated() where !orphans.isEmpty {
            var free = orphans
            let candidates = orphans.sorted()
            for (ownerIndex, owner) in plan.entities.enumerated() {
                for (index, relationship) in owner.toMany.enumerated() where relationship.ownsTarget && relationship.target == target {
                    for holder in try stores[ownerIndex].holders(ofToMany: index, targets: candidates) { free.remove(holder.target) }
                }
                for (index, relationship) in owner.toOne.enumerated() where relationship.ownsTarget && relationship.target == target {
                    for holder in try stores[ownerIndex].holders(ofToOne: index, targets: candidates) { free.remove(holder.target) }
                }
            }
            for pk in free.sorted() { doomed.insert(pk, of: target) }
        }
    }

    /// Row ids of the entity's objects that this run did not meet.
    private func missing(entity index: Int, scope: DeletionScope) throws(StoreError) -> [Int64] {
        let seen = memory.metPKs(index)
        switch scope {
        case .all:
            return try stores[index].allObjects().filter { !seen.contains($0) }
        case .toOne(let relationship):
            // Only children of the parents this feed holds: a feed of one post's comments deletes none of another post's.
            let parents = memory.metPKs(plan.entities[index].toOne[relationship].target)
            return try stores[index].links(ofToOne: relationship).filter { parents.contains($0.target) && !seen.contains($0.pk) }.map(\.pk)
        case .parentList(let owner, let toMany):
            // Only children of the parents whose list this feed gives: those a list left out (an
            // order's lines its new list no longer names), unless the feed holds them elsewhere.
            return (droppedFromLists[owner][toMany] ?? []).filter { !seen.contains($0) }.sorted()
        }
    }
}

extension GraphWriter {
    /// Deletes what a complete feed no longer holds (`MissingObjects`), and the owned objects
    /// their owners let go of; with `missing` false, only those.
    func deleteMissing(dryRun: Bool, missing: Bool = true) throws(WriteError) -> [Deletions] {
        var missingObjects = MissingObjects(plan: plan, stores: stores, memory: memory, droppedFromLists: droppedFromLists, runID: run.runID)
        missingObjects.ownedOrphans = ownedOrphans
        return try missingObjects.delete(dryRun: dryRun, missing: missing)
    }
}
