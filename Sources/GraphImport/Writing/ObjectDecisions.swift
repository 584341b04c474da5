import GraphImportSchema

/// Each decision about one object, made here once for both stores: what the run's mode does with
/// it (`fate`), what a new object and a stub hold (`insert`, `stub`), what an update of a stored
/// one sets (`update`, `engineValues`), and which of the feed's values can be a change
/// (`feedValueCounts`). A store says only what it holds (`StoredObjectsView`, or whether it found
/// the object) and executes the outcome: SQLite object by object as it writes, PostgreSQL per
/// record before a batch is gathered and set-wise after the last one.
struct ObjectDecisions {
    /// What the run's mode does with an object the feed gives (`mode`, `--mode`).
    enum Fate: Equatable {
        /// Written as usual: inserted when new, updated when stored.
        case write
        /// A stored object its mode does not update: kept as it is, with everything the feed nests
        /// in it, and no engine value set; still linked, and counted unchanged.
        case keepStored
        /// A new object its mode does not insert: left out with its tree, linked by nothing,
        /// counted once as not inserted.
        case leaveOut
    }

    /// The values the engine sets on a stored object the feed gives: `always` on every one its
    /// mode updates, `onchange` on one the feed changes. Never on a key attribute, whose value is
    /// the key, nor on an object the run inserted (`update`); `always` wins over `onchange` on
    /// one attribute, as on insert.
    struct EngineValues {
        var always: [(attribute: Int, value: SQLValue)] = []
        var onChange: [(attribute: Int, value: SQLValue)] = []
        var isEmpty: Bool { always.isEmpty && onChange.isEmpty }
    }

    let plan: ImportPlan
    let modes: EntityModes
    /// Derived values and hooks.
    let values: ObjectValueRules
    /// Per entity: the engine's values of `update`.
    let engineValues: [EngineValues]
    /// Per entity and attribute: what a new object holds when the feed gives nothing (`default`,
    /// `always`, `onchange`: `AttributePlan.insertedValue`), nil for none or a key attribute.
    private let insertedValues: [[SQLValue?]]
    /// Per entity and attribute: whether a value the feed gives is written and may be a change;
    /// false for an `always` attribute, whose value replaces the feed's.
    let feedValueCounts: [[Bool]]
    /// Per entity: whether a write of one of its objects stores the draft's content digest
    /// (`ContentDigest`); where false, every write stores NULL, so that a digest a run wrote
    /// under other conditions (no hook then) is never trusted by a later run. True only where
    /// the map allows it (`ImportPlan.takesDigests`), no `beforeSave` hook sees the object, and
    /// every target of its relationships takes new objects (a key into one that does not links
    /// only stored objects, which depends on the store, not the draft).
    let storesDigest: [Bool]
    /// Per entity: whether a stored digest equal to the draft's is taken as "unchanged" with no
    /// value or list read back; `storesDigest`, unless the run compares everything
    /// (`ImportOptions.comparesAll`), which still stores the drafts' digests.
    let trustsDigest: [Bool]

    /// `takesDigests`: whether the store takes content digests at all (`StoreSession.takesDigests`).
    init(plan: ImportPlan, modes: EntityModes, values: ObjectValueRules, comparesAll: Bool = false, takesDigests: Bool = true) {
        self.plan = plan
        self.modes = modes
        self.values = values
        let hooks = values.hooks
        let storesDigest = plan.entities.indices.map { index in
            let entity = plan.entities[index]
            return takesDigests && plan.takesDigests[index] && hooks[index].beforeSave == nil
                && entity.toOne.allSatisfy { modes.inserts[$0.target] } && entity.toMany.allSatisfy { modes.inserts[$0.target] }
        }
        self.storesDigest = storesDigest
        trustsDigest = comparesAll ? storesDigest.map { _ in false } : storesDigest
        let run = values.run
        insertedValues = plan.entities.map { entity in
            let keys = Set(entity.keyAttributes)
            return entity.attributes.indices.map { keys.contains($0) ? nil : entity.attributes[$0].insertedValue.map(run.value) }
        }
        feedValueCounts = plan.entities.map { entity in entity.attributes.map { $0.always == nil } }
        engineValues = plan.entities.indices.map { index in
            let entity = plan.entities[index]
            let keys = Set(entity.keyAttributes)
            var engine = EngineValues()
            for (attribute, plan) in entity.attributes.enumerated() where !keys.contains(attribute) {
                if let value = plan.always {
                    // A stored object whose mode does not update it is kept as it is: `always` too.
                    if modes.updates[index] { engine.always.append((attribute, run.value(value))) }
                } else if let value = plan.onChange {
                    engine.onChange.append((attribute, run.value(value)))
                }
            }
            return engine
        }
    }

    /// What a write of `draft` stores as its `content_digest`: its digest where its entity
    /// stores one, else NULL (`storesDigest`).
    func storedDigest(of draft: ObjectDraft) -> SQLValue {
        digest(of: draft)?.storedValue ?? .null
    }

    /// `storedDigest(of:)` before it is made a column's value (`stamped` with the map's mark):
    /// compared without allocating.
    func digest(of draft: ObjectDraft) -> ContentDigest? {
        guard storesDigest[draft.entity], let digest = draft.contentDigest else { return nil }
        return stamped(digest)
    }

    // MARK: Modes

    /// Whether the fate of an object of `entity` depends on whether it is stored: false for an
    /// upsert, the default, which writes every object.
    func decidesByMode(_ entity: Int) -> Bool { !modes.upserts[entity] }

    /// What the run's mode does with an object of `entity` the feed gives. `stored`: it is in the
    /// store, or written earlier in the run (its record included, a stub too).
    func fate(_ entity: Int, stored: Bool) -> Fate {
        if stored { return modes.updates[entity] ? .write : .keepStored }
        return modes.inserts[entity] ? .write : .leaveOut
    }

    /// The fate of the object with `key`, asking `view` whether it is stored only when the mode
    /// decides; `earlier`: per entity, the keys the record wrote before this point (they count as stored).
    func fate<View: StoredObjectsView>(
        _ entity: Int, _ key: ObjectKey, earlier: [Set<ObjectKey>], in view: View
    ) throws(View.Failure) -> (fate: Fate, stored: Bool) {
        guard decidesByMode(entity) else { return (.write, false) }
        var stored = earlier[entity].contains(key)
        if !stored { stored = try view.exists(entity, key) }
        return (fate(entity, stored: stored), stored)
    }

    // MARK: Stubs

    /// Whether a new object is a stub: made from a reference alone (a key where a relationship
    /// expects an object), not from anything the feed gives of it.
    func stubState(ofNewObjectFromReference fromReference: Bool) -> StubState {
        fromReference ? .stub : .none
    }

    /// The stub state of an object the run found stored: `marked`, its row is marked a stub
    /// (`stub_run`), made by an earlier run from a reference and not given since.
    func stubState(ofStoredObjectMarked marked: Bool) -> StubState {
        marked ? .storedStub : .none
    }

    /// An object's stub state once the feed gives it and the run writes it (its fate `.write`): a
    /// stub, made by this run or an earlier one, is completed, and its row's mark cleared.
    func stubStateOnceGiven(_ state: StubState) -> StubState {
        state == .stub || state == .storedStub ? .completed : state
    }

    /// Whether going from stub state `old` to `new` clears the row's mark (`stub_run`): the
    /// feed gave a stub.
    func clearsStubMark(from old: StubState, to new: StubState) -> Bool {
        new == .completed && old != .completed
    }

    // MARK: Values

    /// A new object's values, from those the feed gives (nil: not given), in column order: the
    /// map's values for a new object (an `always` one over the feed's), its derived values, what
    /// `onInsert` sets, then the `beforeSave` hook's verdict.
    func insert(_ entity: Int, _ values: inout [SQLValue?]) throws(WriteError) {
        // Only the attributes that have a value for a new object are looked at, and a value is
        // written only where it applies: this runs for every object a first import inserts.
        let inserted = insertedValues[entity]
        for index in inserted.indices where inserted[index] != nil {
            if let value = newValue(entity, index, feedGives: values[index] != nil) { values[index] = value }
        }
        try self.values.derive(entity, &values)
        self.values.onInsert(entity, &values)
        try self.values.checkBeforeSave(entity, values)
    }

    /// The value the engine gives a new object's `attribute` (`feedGives`: whether the feed gives
    /// one), nil when it keeps the feed's (or has none): the map's value for a new object when
    /// the feed gives none, an `always` one over the feed's.
    @inline(__always)
    func newValue(_ entity: Int, _ attribute: Int, feedGives: Bool) -> SQLValue? {
        guard let value = insertedValues[entity][attribute], !feedGives || !feedValueCounts[entity][attribute] else { return nil }
        return value
    }

    /// A stub's values, in column order (a to-one's nil): an object the feed names only by `key`
    /// (a scalar where a relationship expects an object) is inserted like any new object
    /// (`insert`), its key its only given values.
    func stub(_ entity: Int, _ key: ObjectKey) throws(WriteError) -> [SQLValue?] {
        let plan = self.plan.entities[entity]
        var values = [SQLValue?](repeating: nil, count: plan.attributes.count + plan.toOne.count)
        for (position, attribute) in plan.keyAttributes.enumerated() { values[attribute] = key[position] }
        try insert(entity, &values)
        return values
    }

    /// An updated object's `merged` values (its stored ones with the feed's over them, derived
    /// values computed) as saved: the engine's values (`onchange` only when `changed`), then the
    /// `beforeSave` hook's verdict. The engine's values are an update's of an object stored
    /// before the run: one the run inserted (`insertedByRun`, a stub too) keeps those its insert
    /// gave it, the map's or what `onInsert` set, when the feed gives it again. `changedEarlier`:
    /// an earlier occurrence in the run changed the object, which holds the `onchange` values
    /// since, changed now or not (SQLite's stored values have them already; PostgreSQL, which
    /// writes them at the run's end, says so).
    func update(
        _ entity: Int, _ merged: inout [SQLValue?], changed: Bool, changedEarlier: Bool = false, insertedByRun: Bool
    ) throws(WriteError) {
        if !insertedByRun {
            let engine = engineValues[entity]
            if changed || changedEarlier { for (attribute, value) in engine.onChange { merged[attribute] = value } }
            for (attribute, value) in engine.always { merged[attribute] = value }
        }
        try values.checkBeforeSave(entity, merged)
    }

    /// Whether an update takes the feed's value of column `column` over the stored one: not for
    /// an `always` attribute, whose value is the engine's (`update`) or, for an object the run
    /// inserted, its insert's. Column indexes past the attributes are to-one foreign keys.
    @inline(__always)
    func takesFeedValue(_ entity: Int, column: Int) -> Bool {
        let counts = feedValueCounts[entity]
        return column >= counts.count || counts[column]
    }

    /// Whether `merged`'s column `column` differs from `stored`'s in a way that is a change: an
    /// `always` attribute never is (its value moves on every import). Column indexes past the
    /// attributes are to-one foreign keys.
    @inline(__always)
    func isChange(_ entity: Int, column: Int, _ merged: SQLValue, _ stored: SQLValue) -> Bool {
        guard merged != stored else { return false }
        return takesFeedValue(entity, column: column)
    }
}

/// Whether an object is a stub, as the summary counts it (`EntityCounts.stubs`,
/// `stubsCompleted`) and its row's mark (`stub_run`) says: decided by `ObjectDecisions`.
enum StubState: UInt8 {
    /// Inserted from what the feed gives of it, or stored and not marked a stub.
    case none = 0
    /// Inserted by this run from a reference alone, and not given by the feed since.
    case stub = 1
    /// A stub (made by this run or an earlier one), then given by the feed in this run and written.
    case completed = 2
    /// Stored, marked a stub by an earlier run, and not given by the feed in this run.
    case storedStub = 3
}

/// What a store holds of the objects a record names, as the run has left them: the one question
/// `ObjectDecisions` and `RequiredValuesCheck` ask a store. SQLite answers from the run's memory
/// of objects and a lookup; PostgreSQL from the batch not yet written and the rows read for the
/// record batch (`PostgresStoredObjects`).
protocol StoredObjectsView {
    associatedtype Failure: Error
    /// Whether the object is stored, or written earlier in the run (a stub included).
    func exists(_ entity: Int, _ key: ObjectKey) throws(Failure) -> Bool
}
