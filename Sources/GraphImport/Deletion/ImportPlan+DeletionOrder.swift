extension ImportPlan {
    /// The order in which a deletion deletes the entities' doomed objects: the plan's, except that
    /// an entity holding a `delete deny` link comes before the link's target, so that a holder
    /// deleted in the same deletion is gone when its target is (the store's foreign key, `ON DELETE
    /// RESTRICT`, would refuse it otherwise). A cycle of such links keeps the plan's order.
    var deletionOrder: [Int] {
        var before = Array(repeating: Set<Int>(), count: entities.count)
        for (owner, entity) in entities.enumerated() {
            for target in entity.toOne.filter({ $0.deleteRule == .deny }).map(\.target) + entity.toMany.filter({ $0.deleteRule == .deny }).map(\.target)
            where target != owner {
                before[target].insert(owner)
            }
        }
        var order: [Int] = []
        var placed = Array(repeating: false, count: entities.count)
        while order.count < entities.count {
            // The first entity in plan order whose holders are all placed; in a cycle, the first not placed.
            let next =
                entities.indices.first { !placed[$0] && before[$0].allSatisfy { placed[$0] } } ?? entities.indices.first { !placed[$0] }!
            placed[next] = true
            order.append(next)
        }
        return order
    }
}
