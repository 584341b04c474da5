import GraphImportSchema
import GraphImportStore

/// Phase two of a record: the upsert. Writes drafts into the entities' stores, inserting,
/// updating or leaving each object alone (defaults, derived values, hooks, markers), and keeps
/// every object it met in the run's `ObjectMemory`.
///
/// An object that repeats across records (the same user on 500 tweets) is looked up in the
/// store once; later occurrences are compared against the remembered values.
final class GraphWriter<Store: EntityStore> {
    let plan: ImportPlan
    let run: RunContext
    /// Per entity of the plan, in its order.
    let stores: [Store]
    let memory: ObjectMemory
    private let undo: any RecordUndo
    private let columns: [EntityColumns]
    /// Each decision about an object (modes, stubs, the engine's values, derived values, hooks),
    /// the same as the PostgreSQL store's.
    let decisions: ObjectDecisions
    /// Per entity: whether an update that changes no value can stop at comparing (no derived or
    /// `always` attribute to compute, no `beforeSave` hook to call).
    private let comparesOnly: [Bool]
    /// Whether writing may refuse an object after others of its record were written (a
    /// `beforeSave` hook, or a derived value that can fail): such a record can be skipped only
    /// by undoing it (`beginRecord`).
    let mayRefuseObjects: Bool
    /// New objects not inserted and keys that linked nothing, by the run's policies.
    let tally: PolicyTally
    /// Per entity: whether a to-many of it has `merge`.
    private let merges: [Bool]
    /// What each update changes, kept only when asked (`--verbose`): nil costs nothing.
    let changeLog: ChangeLog?
    /// Per entity: whether a relationship of it holds an owned entity.
    let owns: [Bool]
    /// Per entity: owned objects their owner's list (or to-one) no longer holds, deleted at the
    /// end of the run unless an owner holds them again by then.
    var ownedOrphans: [Set<Int64>]
    /// Per entity: its to-manys that scope a `delete missing` (`DeletionScope.parentList`), each
    /// with the targets its rewritten lists left out in this run; empty for most maps.
    private(set) var droppedFromLists: [[Int: Set<Int64>]]
    /// How many times an object was found unchanged by its content digest (`keepIfUnchanged`),
    /// with no value or list read back: for tests, which hold that the fast path was taken.
    private(set) var unchangedByDigest = 0

    /// A writer that executes `decisions` (made once for the run: its plan, modes, run and
    /// hooks), with `stores` per entity of the plan; `undo` takes back a record's writes.
    init(decisions: ObjectDecisions, stores: [Store], undo: any RecordUndo, objectsInMemory: Int, changeLog: ChangeLog? = nil) {
        let plan = decisions.plan
        let hooks = decisions.values.hooks
        precondition(stores.count == plan.entities.count && hooks.count == plan.entities.count, "one store and hooks per entity")
        tally = PolicyTally(entities: plan.entities.count)
        merges = plan.entities.map { $0.toMany.contains(where: \.mergesList) }
        owns = plan.entities.map { $0.toMany.contains(where: \.ownsTarget) || $0.toOne.contains(where: \.ownsTarget) }
        ownedOrphans = Array(repeating: [], count: plan.entities.count)
        self.changeLog = changeLog
        self.plan = plan
        run = decisions.values.run
        self.stores = stores
        self.undo = undo
        self.decisions = decisions
        columns = plan.entities.map(EntityColumns.init)
        memory = ObjectMemory(unchanging: columns.map(\.unchanging), generationSize: objectsInMemory)
        comparesOnly = plan.entities.indices.map { index in
            let entity = plan.entities[index]
            return entity.derivedAttributes.isEmpty && !entity.attributes.contains { $0.always != nil } && hooks[index].beforeSave == nil
        }
        var dropped = Array(repeating: [Int: Set<Int64>](), count: plan.entities.count)
        for entity in plan.entities {
            if case .parentList(let owner, let toMany)? = entity.deletionScope { dropped[owner][toMany] = [] }
        }
        droppedFromLists = dropped
        mayRefuseObjects =
            hooks.contains { $0.beforeSave != nil }
            || plan.entities.contains { entity in entity.derivedAttributes.contains { entity.attributes[$0].derivedValueMayFail } }
    }

    /// What happened to the objects of each entity, counted once per object (`ObjectMemory.counts`).
    func counts() -> [EntityCounts] {
        plan.entities.indices.map { memory.counts($0) }
    }

    /// Puts back `changed_run` and the `onchange` values of objects whose changes in this run
    /// cancelled out, so that "what did last night's run change?" does not name them.
    func restoreUnchangedMarkers() throws(StoreError) {
        for entity in plan.entities.indices {
            let layout = columns[entity]
            let markerColumns = layout.onChange + [layout.changedRun]
            try memory.forEachNetUnchanged(entity) { pk, markers, object throws(StoreError) in
                try stores[entity].update(pk, columns: markerColumns, values: markers)
                guard let object, !object.valuesUnread else { return }
                for (position, column) in layout.onChange.enumerated() { object.values[column] = markers[position] }
                object.markersWritten = false
            }
        }
    }

    /// Lets the older objects of each entity leave memory when there are many. Between records only.
    func retireIfFull() {
        memory.retireIfFull()
    }

    /// Writes what the stores hold back (queued join rows): at the end of the records, before
    /// anything outside the writer reads the store.
    func writeLinks() throws(StoreError) {
        for store in stores { try store.flush() }
    }

    // MARK: Records that may be undone

    /// Starts a record whose writes can be undone with `rollbackRecord()` (under `--skip-invalid`).
    func beginRecord() throws(StoreError) {
        // What was queued before the record is not the record's to undo.
        try writeLinks()
        try undo.begin()
        memory.beginRecord()
        tally.beginRecord()
        changeLog?.beginRecord()
    }

    func commitRecord() throws(StoreError) {
        try writeLinks()
        try undo.commit()
        memory.commitRecord()
        tally.commitRecord()
        changeLog?.commitRecord()
    }

    /// Undoes the record's writes in the store and in the run's memory.
    func rollbackRecord() throws(StoreError) {
        for store in stores { store.discardQueued() }
        try undo.rollback()
        memory.rollbackRecord()
        tally.rollbackRecord()
        changeLog?.rollbackRecord()
    }

    // MARK: Writing

    /// Writes a record's `draft` and its nested objects; returns the object's row id, nil when
    /// the run's mode does not insert it.
    @discardableResult
    func write(_ draft: ObjectDraft) throws(WriteError) -> Int64? {
        if draft.treeLacksRequired { try checkRequired(draft) }
        return try upsert(draft)
    }

    /// Throws for the first new object of the record without a required value that no other
    /// occurrence gives (`RequiredValuesCheck`, the rule both stores share). Writes nothing, so a
    /// refused record needs no undo.
    private func checkRequired(_ record: ObjectDraft) throws(WriteError) {
        if let error = try RequiredValuesCheck(decisions: decisions, view: self).error(for: record) { throw .lacksRequired(error) }
    }

    /// Whether the object with `key` is in this run's memory or the store. Unlike `find`, it
    /// leaves memory as it was: a record refused by `checkRequired` must not count as having met
    /// the objects it names (`delete missing` would spare them).
    func exists(_ entity: Int, _ key: ObjectKey) throws(WriteError) -> Bool {
        if memory.object(entity, key) != nil { return true }
        let store = stores[entity]
        return try storing { () throws(StoreError) in try store.find(key, expecting: []) } != nil
    }

    /// Writes `draft` and its nested objects; returns the object's row id, nil when the run's mode
    /// does not insert it.
    private func upsert(_ draft: ObjectDraft) throws(WriteError) -> Int64? {
        if decisions.decidesByMode(draft.entity) {
            let outcome = try leaveByMode(draft)
            if outcome.left { return outcome.pk }
        }
        if decisions.trustsDigest[draft.entity], let digest = decisions.digest(of: draft),
            let pk = try keepIfUnchanged(draft.entity, draft.key, digest: digest)
        {
            // Every object the draft names is met as before (`delete missing`, counts, stubs).
            try resolveLinks(of: draft)
            return pk
        }
        // Provided values in column order: attributes, then to-one foreign keys. Shared with the
        // draft: growing it copies it, so only an entity with to-one links does.
        var provided = draft.values
        if !draft.toOne.isEmpty {
            provided.reserveCapacity(draft.values.count + draft.toOne.count)
            for link in draft.toOne {
                provided.append(try link.flatMap { link throws(WriteError) in try resolve(link) })
            }
        }
        var lists: [[Int64]?] = []
        lists.reserveCapacity(draft.toMany.count)
        // Made only for an entity with link attributes: per to-many, the values kept with `lists`.
        var linkRows: [[SQLValue]?]? = nil
        let storesListsOnce = plan.entities[draft.entity].storesListsOnce
        for (index, links) in draft.toMany.enumerated() {
            // A list stored as its elements' foreign keys is written once its owner is (`writeOnce`).
            guard let links, !storesListsOnce || plan.entities[draft.entity].toMany[index].foreignKey == nil else {
                lists.append(nil)
                continue
            }
            if let values = draft.linkValues?[index] {
                let width = plan.entities[draft.entity].toMany[index].linkAttributes.count
                let list = try resolveList(links, values: values, width: width)
                lists.append(list.targets)
                if linkRows == nil { linkRows = Array(repeating: nil, count: draft.toMany.count) }
                linkRows![index] = list.values
                continue
            }
            // Each target once, the first kept (`ToManyList`, the rule both stores follow).
            var list = ToManyList<Int64>(width: 0, capacity: links.count)
            for link in links {
                if case .integer(let pk)? = try resolve(link) { list.append(pk) }
            }
            lists.append(list.targets)
        }
        if let (object, holdsProvided) = try find(draft.entity, draft.key, expecting: provided) {
            if merges[draft.entity] { try merge(into: &lists, linkRows: &linkRows, of: object, entity: draft.entity) }
            try update(object, draft: draft, provided: provided, holdsProvided: holdsProvided, lists: lists, linkRows: linkRows)
            if storesListsOnce { try writeOnce(draft, owner: object.pk, isNew: false) }
            return object.pk
        }
        var values = provided
        try decisions.insert(draft.entity, &values)
        let pk = try insert(
            draft.entity, draft.key, values: values, lists: lists, linkRows: linkRows, digest: decisions.digest(of: draft))
        if storesListsOnce { try writeOnce(draft, owner: pk, isNew: true) }
        return pk
    }

    /// Writes the lists of `draft` that are stored as their elements' foreign keys, once the
    /// owner (row id `owner`) is: each element (drafted with its to-one into the owner), then,
    /// for a stored owner's list that replaces, the objects it no longer names let go.
    private func writeOnce(_ draft: ObjectDraft, owner: Int64, isNew: Bool) throws(WriteError) {
        for (index, relationship) in plan.entities[draft.entity].toMany.enumerated() where relationship.foreignKey != nil {
            guard let links = draft.toMany[index] else { continue }
            var list: [Int64] = []
            for link in links {
                if case .integer(let pk)? = try resolve(link) { list.append(pk) }
            }
            if !isNew && !relationship.mergesList { try letGo(of: owner, relationship, keeping: Set(list)) }
        }
    }

    /// For `relationship`, a to-many stored as its targets' foreign key: every object that links
    /// to `owner` and is not in `list` is written with that to-one null, as any update (its mode,
    /// markers, hooks and counts).
    private func letGo(of owner: Int64, _ relationship: ToManyPlan, keeping list: Set<Int64>) throws(WriteError) {
        guard let toOne = relationship.foreignKey else { return }
        let target = plan.entities[relationship.target]
        let store = stores[relationship.target]
        let holders = try storing { () throws(StoreError) in try store.holders(ofToOne: toOne, targets: [owner]) }
        for holder in holders where !list.contains(holder.pk) {
            let key = ObjectKey(values: try storing { () throws(StoreError) in try store.key(of: holder.pk) })
            var values = [SQLValue?](repeating: nil, count: target.attributes.count)
            for (position, attribute) in target.keyAttributes.enumerated() { values[attribute] = key[position] }
            var toOnes = [LinkDraft?](repeating: nil, count: target.toOne.count)
            toOnes[toOne] = .null
            _ = try upsert(
                ObjectDraft(
                    entity: relationship.target, key: key, values: values, toOne: toOnes,
                    toMany: Array(repeating: nil, count: target.toMany.count)))
        }
    }

    /// Inserts a new object with `values` in column order, as `ObjectDecisions` made them (`insert`,
    /// `stub`). `lists`: per to-many, nil when not given (empty for a stub); `linkRows`: nil, or per
    /// to-many the link values of `lists` (nil for one without link attributes).
    private func insert(
        _ entity: Int, _ key: ObjectKey, values: [SQLValue?], lists: [[Int64]?], linkRows: [[SQLValue]?]? = nil, stub: Bool = false,
        digest: ContentDigest? = nil
    ) throws(WriteError) -> Int64 {
        let store = stores[entity]
        var written: [Int] = []
        var bound: [SQLValue] = []
        written.reserveCapacity(values.count + 2)
        bound.reserveCapacity(values.count + 2)
        for (index, value) in values.enumerated() {
            if let value {
                written.append(index)
                bound.append(value)
            }
        }
        let layout = columns[entity]
        written.append(layout.insertedRun)
        written.append(layout.changedRun)
        bound.append(.integer(run.runID))
        bound.append(.integer(run.runID))
        if stub {
            // Marked until the feed gives the object (`update`).
            written.append(layout.stubRun)
            bound.append(.integer(run.runID))
        }
        if let digest {
            written.append(layout.contentDigest)
            bound.append(digest.storedValue)
        }
        let pk = try storing { () throws(StoreError) in try store.insert(key, columns: written, values: bound) }
        let known = KnownObject(pk: pk, values: values.map { $0 ?? .null }, status: .inserted)
        known.contentDigest = digest
        known.digestCurrent = true
        if stub { known.stubState = decisions.stubState(ofNewObjectFromReference: true) }
        for (index, list) in lists.enumerated() {
            guard let list else { continue }
            if let values = linkRows?[index] {
                try storing { () throws(StoreError) in try store.setList(list, values: values, of: pk, relationship: index, replacing: false) }
                known.setList(index, list, values: values)
                continue
            }
            try storing { () throws(StoreError) in try store.setList(list, of: pk, relationship: index, replacing: false) }
            known.setList(index, list)
        }
        memory.add(known, entity, key)
        changeLog?.inserted(entity, key)
        return pk
    }

    /// `holdsProvided`: the object's values were just read from its row and found to be `provided`'s.
    private func update(
        _ object: KnownObject, draft: ObjectDraft, provided: [SQLValue?], holdsProvided: Bool, lists: [[Int64]?], linkRows: [[SQLValue]?]?
    ) throws(WriteError) {
        let store = stores[draft.entity]
        let layout = columns[draft.entity]
        memory.willChange(object, draft.entity, draft.key)
        // What its values were is kept only if they are written (`keepOriginal`).
        if object.status == .referenced { object.status = .touched }
        let stubState = object.stubState
        object.stubState = decisions.stubStateOnceGiven(stubState)
        // A stub the feed now gives loses its mark, with the update's other columns if any.
        let clearsStubMark = decisions.clearsStubMark(from: stubState, to: object.stubState)
        // Written when it differs from the row's, even when no value changed (then unless this
        // run already found or wrote the row's: `digestCurrent`): that is no change (no
        // `changed_run`, not counted), only the row's digest catching up.
        let digest = decisions.digest(of: draft)
        let digestDiffers = digest != object.contentDigest
        if comparesOnly[draft.entity],
            try storing({ () throws(StoreError) in
                try isUnchanged(object, provided: provided, valuesHeld: holdsProvided, lists: lists, linkRows: linkRows, store: store)
            })
        {
            var written: [Int] = []
            var bound: [SQLValue] = []
            if clearsStubMark {
                written.append(layout.stubRun)
                bound.append(.null)
            }
            if digestDiffers && !object.digestCurrent {
                written.append(layout.contentDigest)
                bound.append(digest?.storedValue ?? .null)
                object.contentDigest = digest
            }
            object.digestCurrent = true
            if !written.isEmpty { try storing { () throws(StoreError) in try store.update(object.pk, columns: written, values: bound) } }
            return
        }
        var merged = object.values.map { Optional($0) }
        for (index, value) in provided.enumerated() where value != nil && decisions.takesFeedValue(draft.entity, column: index) {
            merged[index] = value
        }
        try decisions.values.derive(draft.entity, &merged)
        var listChanged = false
        // Per to-many: whether its rows are rewritten (its targets, or their link values, differ).
        var rewrites: [Bool] = []
        rewrites.reserveCapacity(lists.count)
        for (index, list) in lists.enumerated() {
            guard let list else {
                rewrites.append(false)
                continue
            }
            let differs: Bool
            if let values = linkRows?[index] {
                differs = try storing { () throws(StoreError) in try !holdsLinks(list, values: values, object: object, index: index, store: store) }
            } else {
                differs = try storing { () throws(StoreError) in try storedList(of: object, index: index, store: store) } != list
            }
            rewrites.append(differs)
            if differs { listChanged = true }
        }
        var changedColumns: [Int] = []
        for index in merged.indices where decisions.isChange(draft.entity, column: index, merged[index]!, object.values[index]) {
            changedColumns.append(index)
        }
        let changed = !changedColumns.isEmpty || listChanged
        if changed, let changeLog {
            try logChange(to: changeLog, object: object, draft: draft, merged: merged, columns: changedColumns, rewrites: rewrites, lists: lists)
        }
        try decisions.update(draft.entity, &merged, changed: changed, insertedByRun: object.status == .inserted)
        if owns[draft.entity] && changed { try noteOrphans(of: object, entity: draft.entity, merged: merged, lists: lists, rewrites: rewrites) }
        var written: [Int] = []
        var bound: [SQLValue] = []
        // A change writes a value here or a list below; after a list was rewritten the object
        // counts as updated whatever its values, so only a value's write needs the original kept.
        for index in merged.indices where merged[index]! != object.values[index] {
            object.keepOriginal(ignoring: layout.unchanging, markerColumns: layout.onChange)
            written.append(index)
            bound.append(merged[index]!)
            object.values[index] = merged[index]!
        }
        if changed {
            written.append(layout.changedRun)
            bound.append(.integer(run.runID))
            object.markersWritten = true
        }
        if clearsStubMark {
            written.append(layout.stubRun)
            bound.append(.null)
        }
        if digestDiffers && (changed || !object.digestCurrent) {
            written.append(layout.contentDigest)
            bound.append(digest?.storedValue ?? .null)
            object.contentDigest = digest
        }
        object.digestCurrent = true
        if !written.isEmpty {
            try storing { () throws(StoreError) in try store.update(object.pk, columns: written, values: bound) }
        }
        for (index, list) in lists.enumerated() {
            guard let list else { continue }
            if let values = linkRows?[index] {
                if rewrites[index] {
                    object.listChanged = true
                    noteDropped(from: object, draft.entity, index, keeping: list)
                    try storing { () throws(StoreError) in
                        try store.setList(list, values: values, of: object.pk, relationship: index, replacing: true)
                    }
                }
                object.setList(index, list, values: values)
                continue
            }
            if rewrites[index] {
                object.listChanged = true
                noteDropped(from: object, draft.entity, index, keeping: list)
                try storing { () throws(StoreError) in try store.setList(list, of: object.pk, relationship: index, replacing: true) }
            }
            object.setList(index, list)
        }
    }

    /// Before a list of `object` is rewritten: the targets it leaves out, when the to-many scopes
    /// a `delete missing` (the comparison that decided the rewrite left the old list in `object`).
    private func noteDropped(from object: KnownObject, _ entity: Int, _ index: Int, keeping list: [Int64]) {
        guard !droppedFromLists[entity].isEmpty, droppedFromLists[entity][index] != nil, let old = object.list(index) else { return }
        for pk in old where !list.contains(pk) { droppedFromLists[entity][index]!.insert(pk) }
    }

    /// Whether the draft's values and lists are what `object` already holds: the common case
    /// (a user on each of their tweets, every object of a re-import), answered without copying.
    /// `valuesHeld`: the values were just found in the object's row, so only its lists are left
    /// to compare.
    private func isUnchanged(
        _ object: KnownObject, provided: [SQLValue?], valuesHeld: Bool, lists: [[Int64]?], linkRows: [[SQLValue]?]?, store: Store
    ) throws(StoreError) -> Bool {
        if !valuesHeld {
            for index in provided.indices {
                if let value = provided[index], value != object.values[index] { return false }
            }
        }
        for (index, list) in lists.enumerated() {
            guard let list else { continue }
            if let values = linkRows?[index] {
                if try !holdsLinks(list, values: values, object: object, index: index, store: store) { return false }
                continue
            }
            if try !holdsList(list, object: object, index: index, store: store) { return false }
        }
        return true
    }

    /// The row id a link stands for, writing nested objects and making stubs for unknown keys;
    /// nil when it links nothing (an object the run's mode does not insert, an unknown key that
    /// links only existing objects).
    func resolve(_ link: LinkDraft) throws(WriteError) -> SQLValue? {
        switch link {
        case .null:
            return .null
        case .object(let draft):
            return try upsert(draft).map { .integer($0) }
        case .existing(let entity, let key, let origin):
            // Only the row id is needed: an object in memory is not read, even one found by its digest.
            if let known = memory.object(entity, key) { return .integer(known.pk) }
            if let (object, _) = try find(entity, key) { return .integer(object.pk) }
            tally.unlinked(key, target: plan.entities[entity].name, origin: origin)
            return nil
        case .reference(let entity, let key):
            if let known = memory.object(entity, key) { return .integer(known.pk) }
            if let (object, _) = try find(entity, key) { return .integer(object.pk) }
            // A stub: only the key is known, but it is inserted like any new object (`ObjectDecisions.stub`).
            return .integer(try insert(entity, key, values: decisions.stub(entity, key), lists: [], stub: true))
        }
    }

    /// The object with `key`, from this run's memory or else from the store. Values read from the
    /// store that are those `expected` (the feed's, in column order) are shared with it: most
    /// objects of a re-import are unchanged, and each of their texts was copied out of the row
    /// only to be found equal and freed. Also says whether the object was just read and its row
    /// holds every value `expected` gives: the caller need not compare them again.
    func find(_ entity: Int, _ key: ObjectKey, expecting expected: [SQLValue?] = []) throws(WriteError) -> (KnownObject, holdsExpected: Bool)? {
        let store = stores[entity]
        if let known = memory.object(entity, key) {
            guard known.valuesUnread else { return (known, false) }
            // Found unchanged by its digest earlier: its values are read now, for the path that needs them.
            guard let stored = try storing({ () throws(StoreError) in try store.find(key, expecting: expected) }) else { return (known, false) }
            memory.willChange(known, entity, key)
            let currentDigest = known.currentDigest
            known.values = stored.values
            known.currentDigest = currentDigest
            known.valuesUnread = false
            return (known, stored.holdsExpected)
        }
        guard let stored = try storing({ () throws(StoreError) in try store.find(key, expecting: expected) }) else { return nil }
        let known = KnownObject(pk: stored.pk, values: stored.values, status: .referenced)
        known.storedChangedRun = stored.changedRun
        known.contentDigest = ContentDigest(stored: stored.contentDigest)
        known.stubState = decisions.stubState(ofStoredObjectMarked: stored.isStub)
        restoreFate(of: known, entity)
        memory.add(known, entity, key)
        return (known, stored.holdsExpected)
    }

    /// For an object just read from the store: what the run did to it before it left memory, if
    /// it was met earlier in the run.
    private func restoreFate(of known: KnownObject, _ entity: Int) {
        guard let (fate, markers) = memory.fate(entity, of: known.pk) else { return }
        // Met earlier in the run and since moved out of memory: the store holds its values.
        known.status = fate.status
        // The store holds the values the object had when it left memory: unless the run
        // changed them, those it had when the feed first touched it (its original digest is
        // then taken if it is written).
        if fate.status == .touched, let digests = fate.changedDigests {
            known.originalDigest = digests.original
            known.currentDigest = digests.final
        }
        known.listChanged = fate.listChanged
        known.markersWritten = fate.markersWritten
        known.originalMarkers = markers
        known.stubState = fate.stubState
    }

    /// The row id of the object of `entity` with `key` when it is unchanged: its content digest,
    /// in this run's memory or else stored (a light lookup, no value read), is `digest` and its
    /// row is no stub. It is then met as an update that changes nothing would meet it (touched,
    /// counted unchanged once, no marker written); the caller then resolves the links its draft
    /// or record names, so that every object the feed names is met as before (`delete missing`,
    /// the counts, stubs). nil when it may have changed: nothing was done, and the caller writes
    /// it the usual way.
    func keepIfUnchanged(_ entity: Int, _ key: ObjectKey, digest: ContentDigest) throws(WriteError) -> Int64? {
        guard let found = try unchanged(entity, key, digest: digest) else { return nil }
        return keep(found, entity, key, digest: digest)
    }

    /// Where an unchanged object was found (`unchanged`): in memory, or its row, values unread.
    enum Unchanged {
        case known(KnownObject)
        case stored(StoredDigest)
    }

    /// Whether the object of `entity` with `key` is unchanged (`keepIfUnchanged`), and where it
    /// was found; nothing is done to it or to the run's memory.
    func unchanged(_ entity: Int, _ key: ObjectKey, digest: ContentDigest) throws(WriteError) -> Unchanged? {
        if let known = memory.object(entity, key) {
            let isStub = known.stubState != .none && known.stubState != .completed
            guard decisions.isUnchanged(entity, digest: digest, storedDigest: known.contentDigest, storedStub: isStub) else { return nil }
            return .known(known)
        }
        let store = stores[entity]
        guard let stored = try storing({ () throws(StoreError) in try store.findDigest(key) }),
            decisions.isUnchanged(entity, digest: digest, storedDigest: ContentDigest(stored: stored.contentDigest), storedStub: stored.isStub)
        else { return nil }
        return .stored(stored)
    }

    /// Meets an object `unchanged` found unchanged, as an update that changes nothing would meet
    /// it; returns its row id.
    func keep(_ found: Unchanged, _ entity: Int, _ key: ObjectKey, digest: ContentDigest) -> Int64 {
        let object: KnownObject
        switch found {
        case .known(let known):
            memory.willChange(known, entity, key)
            object = known
        case .stored(let stored):
            object = KnownObject(pk: stored.pk, values: [], status: .referenced)
            object.valuesUnread = true
            object.storedChangedRun = stored.changedRun
            object.contentDigest = digest
            restoreFate(of: object, entity)
            memory.add(object, entity, key)
        }
        if object.status == .referenced { object.status = .touched }
        object.digestCurrent = true
        unchangedByDigest += 1
        return object.pk
    }

    /// Resolves every link of `draft`, for what resolving does (nested objects written, stubs
    /// made, keys that link nothing tallied), when its owner is unchanged.
    private func resolveLinks(of draft: ObjectDraft) throws(WriteError) {
        for link in draft.toOne {
            if let link { _ = try resolve(link) }
        }
        for links in draft.toMany {
            for link in links ?? [] { _ = try resolve(link) }
        }
    }

    /// The target row ids `object` holds for to-many `index`: from memory, else read (and kept).
    func storedList(of object: KnownObject, index: Int, store: Store) throws(StoreError) -> [Int64] {
        if let known = object.list(index) { return known }
        let stored = try store.list(of: object.pk, relationship: index, expecting: nil).list
        object.setList(index, stored)
        return stored
    }

    /// Whether `object` holds `list` for to-many `index` (read, and kept, when not in memory).
    /// Equal is the common case: the object then keeps `list` itself, and nothing is allocated.
    private func holdsList(_ list: [Int64], object: KnownObject, index: Int, store: Store) throws(StoreError) -> Bool {
        if let known = object.list(index) { return known == list }
        let (stored, equal) = try store.list(of: object.pk, relationship: index, expecting: list)
        object.setList(index, stored)
        return equal
    }
}

extension GraphWriter where Store == SQLiteEntityStore {
    /// A writer into the SQLite store of `database`. `emptyTables`: the tables that held no rows
    /// when the run began (`Store.emptyTables`).
    convenience init(
        decisions: ObjectDecisions, database: Database, emptyTables: Set<String>, objectsInMemory: Int = ImportOptions.defaultObjectsInMemory,
        changeLog: ChangeLog? = nil
    ) {
        self.init(
            decisions: decisions,
            stores: decisions.plan.entities.map { SQLiteEntityStore($0, database: database, startedEmpty: emptyTables.contains($0.table)) },
            undo: SQLiteRecordUndo(database: database), objectsInMemory: objectsInMemory, changeLog: changeLog)
    }
}

extension AttributePlan {
    /// Whether computing this derived attribute's value can fail: through a converter, a check, or
    /// a type the template's text may not coerce to.
    var derivedValueMayFail: Bool {
        derived != nil && (!converters.isEmpty || !checks.isEmpty || type != .string)
    }
}

/// The run's memory of objects and the store's lookup (`exists`) answer what the decisions ask.
extension GraphWriter: StoredObjectsView {}
