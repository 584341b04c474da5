import GraphImportPostgres
import GraphImportSchema

/// A to-one as the batch holds it for an object: the target's key, or a key of `link existing`
/// whose object was not in the batch when the key was met. Such a key links only if the store
/// held its object before the batch was written (as the SQLite writer finds it stored or written
/// earlier in the run); otherwise the object keeps the link it held before (`over`).
enum GatheredToOne {
    /// A target's key; nil for null. Held inline: only a pending key is boxed.
    case key(ObjectKey?)
    /// `over`: what the object's earlier occurrences in the batch gave (nil: nothing).
    indirect case pending(ObjectKey, over: GatheredToOne?)

    /// The key this link names, pending or not; nil for null.
    var linkedKey: ObjectKey? {
        switch self {
        case .key(let key): key
        case .pending(let key, _): key
        }
    }

    /// This occurrence's link after `previous`, an earlier occurrence's in the same batch.
    func replacing(_ previous: GatheredToOne?) -> GatheredToOne {
        guard case .pending(let key, _) = self else { return self }
        return .pending(key, over: previous)
    }

    /// The target to write, `unknown` holding the keys of `link existing` that the store does not
    /// hold: nil when no occurrence gave a link that links, `.some(nil)` for null.
    func resolved(_ unknown: Set<ObjectKey>) -> ObjectKey?? {
        switch self {
        case .key(let key): return .some(key)
        case .pending(let key, let over): return unknown.contains(key) ? over?.resolved(unknown) : .some(key)
        }
    }
}

/// A to-many's list as the batch holds it for an object: the feed's elements in feed order,
/// their link values, and which keys are `link existing` keys whose objects were not in the batch
/// when met (linked only if the store holds them). The pages of a `merge` list met in one batch
/// are kept one after another. What the list ends with is `ToManyList`'s to decide, once the
/// pending keys are known (`resolved`).
struct GatheredList {
    var keys: [ObjectKey] = []
    /// The link values, `width` per key (empty without link attributes).
    var values: [SQLValue] = []
    /// Per key, whether it is such a pending key; empty when none is (the common case).
    var pending: [Bool] = []
    /// Where each page after the first begins in `keys`; empty for a single list.
    var pages: [Int] = []

    /// Appends the feed's element `key` (and its link values).
    mutating func append(_ key: ObjectKey, pending isPending: Bool, values linkValues: ArraySlice<SQLValue>) {
        if isPending || !pending.isEmpty {
            if pending.isEmpty { pending = Array(repeating: false, count: keys.count) }
            pending.append(isPending)
        }
        keys.append(key)
        values += linkValues
    }

    /// This list with `page`, a later occurrence's list of a `merge` to-many, after it.
    func appending(page: GatheredList) -> GatheredList {
        var merged = self
        merged.pages.append(keys.count)
        merged.pages += page.pages.map { $0 + keys.count }
        if !pending.isEmpty || !page.pending.isEmpty {
            merged.pending =
                (pending.isEmpty ? Array(repeating: false, count: keys.count) : pending)
                + (page.pending.isEmpty ? Array(repeating: false, count: page.keys.count) : page.pending)
        }
        merged.keys += page.keys
        merged.values += page.values
        return merged
    }

    /// The list the object ends with (`ToManyList`): each page without the pending keys that
    /// `unknown` holds, merged into `stored` (a `merge` to-many's stored list) and into the pages
    /// before it; without `stored`, the first page replaces the stored list.
    func resolved(unknown: Set<ObjectKey>, width: Int, over stored: ToManyList<ObjectKey>? = nil) -> ToManyList<ObjectKey> {
        var result = stored
        // Page after page, each from where the one before it ended (no array of the bounds: a
        // list of every object of a batch is resolved, most of them a single page).
        var start = 0
        for page in 0...pages.count {
            let end = page < pages.count ? pages[page] : keys.count
            var list = ToManyList<ObjectKey>(width: width, capacity: end - start)
            for element in start..<end {
                if !pending.isEmpty && pending[element] && unknown.contains(keys[element]) { continue }
                list.append(keys[element], values: values[(element * width)..<((element + 1) * width)])
            }
            if result == nil { result = list } else { result!.merge(list) }
            start = end
        }
        return result!
    }
}

/// A key of `link existing` met while its object was not in the batch, with where the feed holds it.
struct PendingLink {
    let entity: Int
    let key: ObjectKey
    let origin: LinkOrigin
}

/// Relationship policies on PostgreSQL: `link existing` (keys that link only stored objects,
/// the unknown ones found by an anti-join per batch and reported with their paths), `merge`
/// (lists added to the stored ones) and link attributes (values on the join rows).
extension PostgresBatchWriter {
    /// The key `link` names and whether it is a pending `link existing` key (recorded, with its
    /// path, to be looked for in the store when the batch is written); nested objects and stubs
    /// are gathered.
    func gatherLink(_ link: LinkDraft) -> (key: ObjectKey?, pending: Bool) {
        guard case .existing(let entity, let key, let origin) = link else { return (target(of: link), false) }
        if holds(entity, key) { return (key, false) }
        pendingLinks.append(PendingLink(entity: entity, key: key, origin: origin))
        return (key, true)
    }

    /// A draft's to-one link, as the batch keeps it.
    func gatherToOne(_ link: LinkDraft) -> GatheredToOne {
        let (key, pending) = gatherLink(link)
        guard let key, pending else { return .key(key) }
        return .pending(key, over: nil)
    }

    /// A draft's to-many list, with its link values when the relationship has link attributes.
    func gatherList(_ links: [LinkDraft], values: [SQLValue]?, width: Int) -> GatheredList {
        var list = GatheredList()
        list.keys.reserveCapacity(links.count)
        for (element, link) in links.enumerated() {
            let (key, pending) = gatherLink(link)
            guard let key else { continue }
            let given = values.map { $0[(element * width)..<((element + 1) * width)] } ?? []
            list.append(key, pending: pending, values: given)
        }
        return list
    }

    /// The `link existing` keys met while their objects were not in the batch, as the store held
    /// them before the batch is written: per entity, those it does not hold (`unknown`: they link
    /// nothing), and the row ids of those it does (`ids`).
    struct PendingTargets {
        var unknown: [Set<ObjectKey>]
        var ids: [[ObjectKey: Int64]]
    }

    /// Finds, with one query per target entity, the pending keys whose objects the store holds
    /// (before the batch's rows are written) and their row ids, reports every link that named one
    /// it does not hold, in feed order, and forgets the pending links.
    func pendingTargets() throws(PostgresError) -> PendingTargets {
        var result = PendingTargets(
            unknown: Array(repeating: Set<ObjectKey>(), count: plan.entities.count), ids: Array(repeating: [:], count: plan.entities.count))
        guard !pendingLinks.isEmpty else { return result }
        var keys = Array(repeating: [ObjectKey](), count: plan.entities.count)
        var seen = Array(repeating: Set<ObjectKey>(), count: plan.entities.count)
        for link in pendingLinks where seen[link.entity].insert(link.key).inserted { keys[link.entity].append(link.key) }
        for (entity, probed) in keys.enumerated() where !probed.isEmpty {
            let probe = PostgresKeyProbe(table: plan.entities[entity].table, keyColumns: keyColumns(plan.entities[entity]))
            for (place, values) in try probe.rows(of: probed.flatMap { $0 }, columns: [Naming.primaryKey], on: connection) {
                if case .integer(let id)? = values.first { result.ids[entity][probed[place]] = id }
            }
            for key in probed where result.ids[entity][key] == nil { result.unknown[entity].insert(key) }
        }
        for link in pendingLinks where result.unknown[link.entity].contains(link.key) {
            tally.unlinked(link.key, target: plan.entities[link.entity].name, origin: link.origin)
        }
        pendingLinks.removeAll()
        return result
    }

    /// Writes to-many `relationship` of entity `index` for the batch, the lists that differ from
    /// the stored ones only, each as the object ends with it (`newList`; a `merge` list with the
    /// stored targets in it). A new object's list (it has no join rows yet) is COPYed straight
    /// into the join table with the owner's and the targets' row ids (`ids`, and `pending` for
    /// `link existing` keys found in the store); a stored object's goes through `PostgresToMany`
    /// (lists of targets alone) or `PostgresJoinRows` (lists with link values), which find owners
    /// and targets by their natural keys and replace the stored rows.
    func writeToMany(
        _ index: Int, _ relationship: Int, pending: PendingTargets, stored: StoredBatch, ids: [[Int64]]
    ) throws(PostgresError) {
        let unknown = pending.unknown
        let entity = plan.entities[index]
        let toMany = entity.toMany[relationship]
        let batch = batches[index]
        let target = plan.entities[toMany.target]
        let width = toMany.linkAttributes.count
        let plain = width == 0
        let noTarget = Array(repeating: SQLValue.null, count: target.keyAttributes.count + width)
        var rows: [SQLValue] = []
        let columns = [toMany.ownerColumn, toMany.targetColumn, Naming.position] + toMany.linkAttributes.map(\.column)
        try copy(into: toMany.joinTable, columns: columns) { (text) throws(PostgresError) in
            for row in batch.keys.indices {
                guard let gathered = batch.list(row, relationship), !stored.isUnchanged(row) else { continue }
                let list = newList(index, relationship, gathered, row: row, stored: stored, unknown: unknown)
                guard !stored.holds(list, relationship: relationship, row: row) else { continue }
                if stored.isNew(row) {
                    for (element, key) in list.targets.enumerated() {
                        text.append(ids[index][row])
                        text.append(try rowID(toMany.target, key, ids: ids, pending: pending))
                        text.append(Int64(element))
                        text.append(list.values[(element * width)..<((element + 1) * width)])
                        text.endRow()
                    }
                    continue
                }
                if plain {
                    if list.targets.isEmpty { rows += [.integer(Int64(row)), .integer(0)] + batch.keys[row] + noTarget }
                    for (element, key) in list.targets.enumerated() {
                        rows += [.integer(Int64(row)), .integer(Int64(element))] + batch.keys[row] + key
                    }
                    continue
                }
                if list.targets.isEmpty { rows += [.integer(0)] + batch.keys[row] + noTarget }
                for (element, key) in list.targets.enumerated() {
                    rows += [.integer(Int64(element))] + batch.keys[row] + key + list.values[(element * width)..<((element + 1) * width)]
                }
            }
        }
        guard !rows.isEmpty else { return }
        if plain {
            var writer = PostgresToMany(
                joinTable: toMany.joinTable, ownerColumn: toMany.ownerColumn, targetColumn: toMany.targetColumn, positionColumn: Naming.position,
                table: entity.table, keyColumns: keyColumns(entity), targetTable: target.table, targetKeyColumns: keyColumns(target),
                primaryKey: Naming.primaryKey, changedRunColumn: Naming.changedRun)
            writer.droppedTargetsTable = deletionTables.droppedTable(owner: index, toMany: relationship)
            _ = try writer.write(rows, run: run.runID, on: connection)
            return
        }
        let writer = PostgresJoinRows(
            joinTable: toMany.joinTable, ownerColumn: toMany.ownerColumn, targetColumn: toMany.targetColumn, positionColumn: Naming.position,
            linkColumns: toMany.linkAttributes.map(\.column), table: entity.table, keyColumns: keyColumns(entity),
            targetTable: target.table, targetKeyColumns: keyColumns(target), primaryKey: Naming.primaryKey, changedRunColumn: Naming.changedRun)
        _ = try writer.write(rows, run: run.runID, on: connection)
    }

    /// The row id of the object of entity `entity` with `key`: in the batch (`ids`), or a `link
    /// existing` key found in the store (`pending`).
    func rowID(_ entity: Int, _ key: ObjectKey, ids: [[Int64]], pending: PendingTargets) throws(PostgresError) -> Int64 {
        if let place = batches[entity].rows[key] { return ids[entity][place] }
        if let id = pending.ids[entity][key] { return id }
        throw PostgresError(.other, message: "a link names an object of \(plan.entities[entity].table) that is not in the store")
    }
}
