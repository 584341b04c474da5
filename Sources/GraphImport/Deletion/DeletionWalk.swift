import GraphImportSchema

/// Deletes a set of objects the way the map's delete rules say, on either store and whoever asks
/// (`delete missing` in an import, `ObjectGraph.delete`): the one place for each rule.
///
/// `cascade` adds the objects that follow their target, and an owned object follows its owner
/// whatever the relationship's rule; `deny` refuses the whole set while a kept object links to one
/// of it; `nullify` is the store's own (the to-one's foreign key sets NULL, join rows go with
/// either end). Every key is read before anything is deleted, and every object deleted is
/// recorded in `graphimport_deleted`. The store keeps the doomed objects and runs the statements
/// (`DoomedObjects`); it decides nothing.
struct DeletionWalk<Doomed: DoomedObjects> {
    let plan: ImportPlan
    /// The objects doomed so far, as the store keeps them.
    var doomed: Doomed

    /// Deletes the doomed objects and what the rules add to them (unless `dryRun`), and says what
    /// was, or would be, deleted. Deny rules are checked for the whole set first, so a denied
    /// deletion deletes nothing.
    mutating func delete(dryRun: Bool) throws(DeletionFailure<Doomed.Failure>) -> [Deletions] {
        if plan.entities.indices.allSatisfy({ doomed.count($0) == 0 }) { return [] }
        try addFollowers()
        try checkDenials()
        var result: [Deletions] = []
        var keys: [[[SQLValue]]] = Array(repeating: [], count: plan.entities.count)
        for (index, entity) in plan.entities.enumerated() where doomed.count(index) > 0 {
            // Every key is read before anything is deleted: a cascade of the store's own may take a row first.
            keys[index] = try storing { () throws(Doomed.Failure) in try doomed.keys(index) }
            result.append(Deletions(entity: entity.name, count: keys[index].count, sampleKeys: keys[index].prefix(Deletions.sampleLimit).map(\.keyText)))
        }
        guard !dryRun else { return result }
        try storing { () throws(Doomed.Failure) in
            for link in DeletionLink.all(in: plan) where link.rule == .deny && doomed.count(link.owner) > 0 && doomed.count(link.target) > 0 {
                try doomed.unlinkDoomed(link)
            }
            // In the plan's order, on both stores.
            for (index, entity) in plan.entities.enumerated() where doomed.count(index) > 0 {
                try doomed.deleteDoomed(index, keys: keys[index].map { StoredJSON.key($0, of: entity).jsonText })
            }
        }
        return result
    }

    /// Adds the objects that follow the doomed ones (`cascade` holders, owned objects) until nothing
    /// more is added; a link is followed again only from the objects its source gained since.
    private mutating func addFollowers() throws(DeletionFailure<Doomed.Failure>) {
        let followers = DeletionLink.all(in: plan).flatMap { link in
            (link.rule == .cascade ? [DeletionFollower(link: link, holders: true)] : [])
                + (link.ownsTarget ? [DeletionFollower(link: link, holders: false)] : [])
        }
        var followedUpTo = Array(repeating: 0, count: followers.count)
        var grew = true
        while grew {
            grew = false
            for (number, follower) in followers.enumerated() where doomed.count(follower.source) > followedUpTo[number] {
                let from = followedUpTo[number]
                followedUpTo[number] = doomed.count(follower.source)
                if try storing({ () throws(Doomed.Failure) in try doomed.doom(follower, from: from) }) > 0 { grew = true }
            }
        }
    }

    /// Throws when an object that is not itself doomed links to a doomed object through a `delete
    /// deny` relationship, naming the first such (in row id order).
    private func checkDenials() throws(DeletionFailure<Doomed.Failure>) {
        for link in DeletionLink.all(in: plan) where link.rule == .deny && doomed.count(link.target) > 0 {
            guard let kept = try storing({ () throws(Doomed.Failure) in try doomed.firstKeptHolding(link) }) else { continue }
            let owner = plan.entities[link.owner]
            throw .denied(
                DeletionDenied(
                    target: plan.entities[link.target].name, key: kept.key.keyText, owner: owner.name, relationship: link.name(in: plan),
                    holders: kept.holders))
        }
    }

    private func storing<T>(_ body: () throws(Doomed.Failure) -> T) throws(DeletionFailure<Doomed.Failure>) -> T {
        do { return try body() } catch { throw .store(error) }
    }
}

/// Why a deletion stopped: a `delete deny` rule, or the store.
enum DeletionFailure<StoreFailure: Error>: Error {
    case denied(DeletionDenied)
    case store(StoreFailure)
}
