import GraphImportSchema
import GraphImportStore

/// The doomed objects of a deletion on SQLite: row ids in memory, per entity in the order they
/// were doomed, and the entities' stores (`EntityStore`) to follow links and delete with.
struct SQLiteDoomedObjects<Store: EntityStore>: DoomedObjects {
    let plan: ImportPlan
    /// Per entity of the plan.
    let stores: [Store]
    /// The run that deletes, for the record of deleted objects.
    let runID: Int64
    /// Told of the objects of an entity once they are deleted (the run's memory forgets them).
    var deleted: (_ entity: Int, _ pks: Set<Int64>) -> Void = { _, _ in }
    private var sets: [Set<Int64>]
    private var order: [[Int64]]

    init(plan: ImportPlan, stores: [Store], runID: Int64) {
        self.plan = plan
        self.stores = stores
        self.runID = runID
        sets = Array(repeating: [], count: plan.entities.count)
        order = Array(repeating: [], count: plan.entities.count)
    }

    /// Dooms the object with row id `pk` of entity `entity`; false when it was already.
    @discardableResult
    mutating func insert(_ pk: Int64, of entity: Int) -> Bool {
        guard sets[entity].insert(pk).inserted else { return false }
        order[entity].append(pk)
        return true
    }

    func count(_ entity: Int) -> Int { sets[entity].count }

    mutating func doom(_ follower: DeletionFollower, from: Int) throws(StoreError) -> Int {
        let link = follower.link
        let sources = Array(order[follower.source][from...])
        let store = stores[link.owner]
        var added = 0
        switch (link.kind, follower.holders) {
        case (.toOne, true):
            for holder in try store.holders(ofToOne: link.index, targets: sources) where insert(holder.pk, of: link.owner) { added += 1 }
        case (.toMany, true):
            for holder in try store.holders(ofToMany: link.index, targets: sources) where insert(holder.pk, of: link.owner) { added += 1 }
        case (.toOne, false):
            let owners = Set(sources)
            for owned in try store.links(ofToOne: link.index) where owners.contains(owned.pk) && insert(owned.target, of: link.target) { added += 1 }
        case (.toMany, false):
            for pk in sources {
                for child in try store.list(of: pk, relationship: link.index, expecting: nil).list where insert(child, of: link.target) { added += 1 }
            }
        }
        return added
    }

    func firstKeptHolding(_ link: DeletionLink) throws(StoreError) -> (key: [SQLValue], holders: Int)? {
        let targets = sets[link.target].sorted()
        let store = stores[link.owner]
        let holders =
            try (link.kind == .toOne ? store.holders(ofToOne: link.index, targets: targets) : store.holders(ofToMany: link.index, targets: targets))
            .filter { !sets[link.owner].contains($0.pk) }
        guard let pk = holders.lazy.map(\.target).min() else { return nil }
        return (try stores[link.target].key(of: pk), holders.filter { $0.target == pk }.count)
    }

    func keys(_ entity: Int) throws(StoreError) -> [[SQLValue]] {
        try sets[entity].sorted().map { pk throws(StoreError) in try stores[entity].key(of: pk) }
    }

    func unlinkDoomed(_ link: DeletionLink) throws(StoreError) {
        let store = stores[link.owner]
        let targets = sets[link.target].sorted()
        switch link.kind {
        case .toOne:
            for holder in try store.holders(ofToOne: link.index, targets: targets) where sets[link.owner].contains(holder.pk) {
                try store.update(holder.pk, columns: [plan.entities[link.owner].attributes.count + link.index], values: [.null])
            }
        case .toMany:
            let holders = try store.holders(ofToMany: link.index, targets: targets)
            for pk in Set(holders.map(\.pk)).intersection(sets[link.owner]).sorted() {
                try store.setList([], of: pk, relationship: link.index, replacing: true)
            }
        }
    }

    mutating func deleteDoomed(_ entity: Int, keys: [String]) throws(StoreError) {
        _ = try stores[entity].delete(sets[entity].sorted())
        try stores[entity].recordDeleted(keys: keys, run: runID)
        deleted(entity, sets[entity])
    }
}

extension DeletionFailure<StoreError> {
    /// The failure as a write's.
    var writeError: WriteError {
        switch self {
        case .denied(let denied): .denied(denied)
        case .store(let error): .store(error)
        }
    }
}
