import GraphImportStore

/// Deletes the objects of entities marked `delete missing` that the run's feed did not hold
/// (within the scoping parent, when one is given), following every relationship's delete rule:
/// what the run met comes from its `ObjectMemory`, the rest from the entities' stores.
struct MissingObjects<Store: EntityStore> {
    let plan: ImportPlan
    /// Per entity of the plan.
    let stores: [Store]
    let memory: ObjectMemory
    /// Per entity, per to-many that scopes a deletion: the targets its lists left out in this run (`GraphWriter`).
    let droppedFromLists: [[Int: Set<Int64>]]

    /// How many keys of deleted objects the summary shows per entity.
    static var sampleLimit: Int { 10 }

    /// Deletes them (unless `dryRun`) and says what was, or would be, deleted.
    ///
    /// Deny rules are checked for the whole set first, so a denied deletion deletes nothing.
    /// Objects linked to by id count as held by the feed.
    func delete(dryRun: Bool) throws(WriteError) -> [Deletions] {
        var doomed: [Set<Int64>] = Array(repeating: [], count: plan.entities.count)
        try storing { () throws(StoreError) in
            // Rows still queued may point at objects about to go.
            for store in stores { try store.flush() }
            for (index, entity) in plan.entities.enumerated() {
                guard let scope = entity.deletionScope else { continue }
                for pk in try missing(entity: index, scope: scope) { doomed[index].insert(pk) }
            }
            if !doomed.allSatisfy(\.isEmpty) { try addCascades(&doomed) }
        }
        if doomed.allSatisfy(\.isEmpty) { return [] }
        try checkDenials(doomed)
        return try storing { () throws(StoreError) in
            var result: [Deletions] = []
            for (index, pks) in doomed.enumerated() where !pks.isEmpty {
                let samples = try pks.sorted().prefix(Self.sampleLimit).map { pk throws(StoreError) in try keyText(entity: index, pk: pk) }
                result.append(Deletions(entity: plan.entities[index].name, count: pks.count, sampleKeys: samples))
            }
            if !dryRun {
                for (index, pks) in doomed.enumerated() where !pks.isEmpty {
                    _ = try stores[index].delete(pks.sorted())
                    memory.forget(index, pks)
                }
            }
            return result
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

    /// Adds the objects that cascade rules delete along with the doomed ones, a wave at a time,
    /// until nothing more is added.
    private func addCascades(_ doomed: inout [Set<Int64>]) throws(StoreError) {
        var wave = doomed.map { Array($0) }
        while wave.contains(where: { !$0.isEmpty }) {
            var next: [[Int64]] = Array(repeating: [], count: plan.entities.count)
            for (ownerIndex, owner) in plan.entities.enumerated() {
                for (index, relationship) in owner.toOne.enumerated() where relationship.deleteRule == .cascade && !wave[relationship.target].isEmpty {
                    for holder in try stores[ownerIndex].holders(ofToOne: index, targets: wave[relationship.target])
                    where doomed[ownerIndex].insert(holder.pk).inserted {
                        next[ownerIndex].append(holder.pk)
                    }
                }
                for (index, relationship) in owner.toMany.enumerated() where relationship.deleteRule == .cascade && !wave[relationship.target].isEmpty {
                    for holder in try stores[ownerIndex].holders(ofToMany: index, targets: wave[relationship.target])
                    where doomed[ownerIndex].insert(holder.pk).inserted {
                        next[ownerIndex].append(holder.pk)
                    }
                }
            }
            wave = next
        }
    }

    /// Throws when an object that is not itself deleted links to a doomed object through a `delete deny` relationship.
    private func checkDenials(_ doomed: [Set<Int64>]) throws(WriteError) {
        for (ownerIndex, owner) in plan.entities.enumerated() {
            let links: [(name: String, toOne: Int?, toMany: Int?, target: Int)] =
                owner.toOne.indices.filter { owner.toOne[$0].deleteRule == .deny }.map { (owner.toOne[$0].name, $0, nil, owner.toOne[$0].target) }
                + owner.toMany.indices.filter { owner.toMany[$0].deleteRule == .deny }.map {
                    (owner.toMany[$0].name, nil, $0, owner.toMany[$0].target)
                }
            for link in links where !doomed[link.target].isEmpty {
                let targets = doomed[link.target].sorted()
                let holders = try storing { () throws(StoreError) in
                    if let index = link.toOne { return try stores[ownerIndex].holders(ofToOne: index, targets: targets) }
                    return try stores[ownerIndex].holders(ofToMany: link.toMany!, targets: targets)
                }.filter { !doomed[ownerIndex].contains($0.pk) }
                // The first doomed object (in row id order) that something kept links to.
                guard let pk = holders.first?.target else { continue }
                let count = holders.filter { $0.target == pk }.count
                let target = plan.entities[link.target]
                let key = try storing { () throws(StoreError) in try keyText(entity: link.target, pk: pk) }
                throw .denied(
                    DeletionDenied(
                        message:
                            "cannot delete \(target.name) \(key): \(owner.name).\(link.name) denies it (\(count) \(owner.name) object\(count == 1 ? " links" : "s link") to it); nothing was deleted",
                        hint: "keep \(target.name) \(key) in the feed, or change the rule of \(owner.name).\(link.name) to `delete nullify` or `delete cascade`"
                    ))
            }
        }
    }

    /// The object's key as SQL literals, `42` or `('octocat', 7)`.
    private func keyText(entity index: Int, pk: Int64) throws(StoreError) -> String {
        let parts = try stores[index].key(of: pk).map(\.description)
        return parts.count == 1 ? parts[0] : "(" + parts.joined(separator: ", ") + ")"
    }
}

extension GraphWriter {
    /// Deletes what a complete feed no longer holds (`MissingObjects`).
    func deleteMissing(dryRun: Bool) throws(WriteError) -> [Deletions] {
        try MissingObjects(plan: plan, stores: stores, memory: memory, droppedFromLists: droppedFromLists).delete(dryRun: dryRun)
    }
}
