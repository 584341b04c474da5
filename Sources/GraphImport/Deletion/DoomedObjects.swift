import GraphImportSchema
import GraphImportMapping

/// What a store keeps of a deletion under way and does for it: the doomed objects of each entity
/// (in memory on SQLite, in temporary tables on PostgreSQL) and the few statements the delete
/// rules need. `DeletionWalk` decides what is doomed, refused, unlinked and deleted; a store
/// decides nothing.
protocol DoomedObjects {
    associatedtype Failure: Error

    /// How many objects of entity `entity` are doomed so far.
    func count(_ entity: Int) -> Int

    /// Dooms the objects `follower` reaches from its source's doomed objects, those doomed at
    /// position `from` or later at least (a store may follow the earlier ones again); how many
    /// it added.
    mutating func doom(_ follower: DeletionFollower, from: Int) throws(Failure) -> Int

    /// The first doomed target of `link` (in row id order) that an object not doomed holds
    /// through it, with its key and how many such objects hold it; nil when there is none.
    func firstKeptHolding(_ link: DeletionLink) throws(Failure) -> (key: [SQLValue], holders: Int)?

    /// The keys of entity `entity`'s doomed objects, in row id order.
    func keys(_ entity: Int) throws(Failure) -> [[SQLValue]]

    /// Removes the links through `link` that doomed objects hold to doomed objects: the store's
    /// foreign key of a `delete deny` would otherwise refuse a target deleted before its holder.
    func unlinkDoomed(_ link: DeletionLink) throws(Failure)

    /// Deletes entity `entity`'s doomed objects and records them as deleted by the run, `keys`
    /// (JSON text) being theirs in row id order.
    mutating func deleteDoomed(_ entity: Int, keys: [String]) throws(Failure)
}

/// One relationship of the map as a deletion follows it: entity `owner`'s to-one or to-many
/// `index`, to entity `target`.
struct DeletionLink: Sendable, Equatable {
    enum Kind: Sendable { case toOne, toMany }
    let owner: Int
    let kind: Kind
    let index: Int
    let target: Int
    let rule: DeleteRule
    let ownsTarget: Bool

    /// Every relationship of the plan, entity by entity, to-ones before to-manys. A to-many
    /// stored as its inverse to-one's foreign key is that to-one here (its rule is the to-one's).
    static func all(in plan: ImportPlan) -> [DeletionLink] {
        plan.entities.enumerated().flatMap { owner, entity in
            entity.toOne.enumerated().map {
                DeletionLink(owner: owner, kind: .toOne, index: $0, target: $1.target, rule: $1.deleteRule, ownsTarget: $1.ownsTarget)
            }
                + entity.toMany.enumerated().filter { $1.foreignKey == nil }.map {
                    DeletionLink(owner: owner, kind: .toMany, index: $0, target: $1.target, rule: $1.deleteRule, ownsTarget: $1.ownsTarget)
                }
        }
    }

    /// The relationship's name in the map.
    func name(in plan: ImportPlan) -> String {
        switch kind {
        case .toOne: plan.entities[owner].toOne[index].name
        case .toMany: plan.entities[owner].toMany[index].name
        }
    }
}

/// A link followed by a deletion: to the objects that hold a doomed target (`holders`, a
/// `cascade`), or to the objects a doomed owner owns.
struct DeletionFollower: Sendable {
    let link: DeletionLink
    let holders: Bool

    /// The entity whose doomed objects are followed.
    var source: Int { holders ? link.target : link.owner }
    /// The entity whose objects it dooms.
    var destination: Int { holders ? link.owner : link.target }
}
