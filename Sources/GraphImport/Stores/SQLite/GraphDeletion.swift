import GraphImportSchema
import GraphImportStore

/// Deletes a set of objects the way the map's delete rules say, whoever asks (`delete missing`
/// in an import, `ObjectGraph.delete`): the one place for each rule.
///
/// `cascade` adds the objects that follow their target; `deny` refuses the whole set while a kept
/// object links to one of it; `nullify` is the store's own (the to-one's foreign key sets NULL,
/// join rows go with either end). Every object deleted is recorded in `graphimport_deleted`.
struct GraphDeletion<Store: EntityStore> {
    let plan: ImportPlan
    /// Per entity of the plan.
    let stores: [Store]
    /// The run that deletes, for the record of deleted objects.
    let runID: Int64

    /// Deletes `doomed` (row ids per entity) and what cascades from it (unless `dryRun`), and says
    /// what was, or would be, deleted; `deleted` gets the full sets. Deny rules are checked for
    /// the whole set first, so a denied deletion deletes nothing.
    func delete(_ doomed: [Set<Int64>], dryRun: Bool, deleted: (_ entity: Int, _ pks: Set<Int64>) -> Void = { _, _ in }) throws(WriteError)
        -> [Deletions]
    {
        var doomed = doomed
        if doomed.allSatisfy(\.isEmpty) { return [] }
        try storing { () throws(StoreError) in try addCascades(&doomed) }
        try checkDenials(doomed)
        return try storing { () throws(StoreError) in
            var result: [Deletions] = []
            var keys: [[[SQLValue]]] = Array(repeating: [], count: plan.entities.count)
            for (index, pks) in doomed.enumerated() where !pks.isEmpty {
                let sorted = pks.sorted()
                // Every key is read before anything is deleted: a cascade of the store's own may take a row first.
                keys[index] = try sorted.map { pk throws(StoreError) in try stores[index].key(of: pk) }
                let samples = keys[index].prefix(Deletions.sampleLimit).map(\.keyText)
                result.append(Deletions(entity: plan.entities[index].name, count: pks.count, sampleKeys: samples))
            }
            if !dryRun {
                try unlinkDeniedHolders(doomed)
                for (index, pks) in doomed.enumerated() where !pks.isEmpty {
                    _ = try stores[index].delete(pks.sorted())
                    let entity = plan.entities[index]
                    try stores[index].recordDeleted(keys: keys[index].map { StoredJSON.key($0, of: entity).jsonText }, run: runID)
                    deleted(index, pks)
                }
            }
            return result
        }
    }

    /// Removes the `delete deny` links that doomed objects hold to doomed objects: `deny` protects a
    /// target from the objects that are kept, and the store's foreign key (`ON DELETE RESTRICT`,
    /// checked at once) would otherwise refuse a target deleted before its holder.
    private func unlinkDeniedHolders(_ doomed: [Set<Int64>]) throws(StoreError) {
        for (ownerIndex, owner) in plan.entities.enumerated() where !doomed[ownerIndex].isEmpty {
            for (index, relationship) in owner.toOne.enumerated() where relationship.deleteRule == .deny && !doomed[relationship.target].isEmpty {
                for holder in try stores[ownerIndex].holders(ofToOne: index, targets: doomed[relationship.target].sorted())
                where doomed[ownerIndex].contains(holder.pk) {
                    try stores[ownerIndex].update(holder.pk, columns: [owner.attributes.count + index], values: [.null])
                }
            }
            for (index, relationship) in owner.toMany.enumerated() where relationship.deleteRule == .deny && !doomed[relationship.target].isEmpty {
                let holders = try stores[ownerIndex].holders(ofToMany: index, targets: doomed[relationship.target].sorted())
                for pk in Set(holders.map(\.pk)).intersection(doomed[ownerIndex]).sorted() {
                    try stores[ownerIndex].setList([], of: pk, relationship: index, replacing: true)
                }
            }
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
                if !wave[ownerIndex].isEmpty { try addOwned(of: ownerIndex, wave: wave[ownerIndex], to: &doomed, next: &next) }
            }
            wave = next
        }
    }

    /// Adds the owned objects of the doomed `owners` (row ids of entity `ownerIndex`): an owned
    /// object goes with its owner, whatever the relationship's rule.
    private func addOwned(of ownerIndex: Int, wave owners: [Int64], to doomed: inout [Set<Int64>], next: inout [[Int64]]) throws(StoreError) {
        let owner = plan.entities[ownerIndex]
        for (index, relationship) in owner.toMany.enumerated() where relationship.ownsTarget {
            for pk in owners {
                for child in try stores[ownerIndex].list(of: pk, relationship: index, expecting: nil).list
                where doomed[relationship.target].insert(child).inserted {
                    next[relationship.target].append(child)
                }
            }
        }
        for (index, relationship) in owner.toOne.enumerated() where relationship.ownsTarget {
            let doomedOwners = Set(owners)
            for link in try stores[ownerIndex].links(ofToOne: index) where doomedOwners.contains(link.pk) {
                if doomed[relationship.target].insert(link.target).inserted { next[relationship.target].append(link.target) }
            }
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
                let key = try storing { () throws(StoreError) in try stores[link.target].key(of: pk).keyText }
                throw .denied(DeletionDenied(target: target.name, key: key, owner: owner.name, relationship: link.name, holders: count))
            }
        }
    }
}
