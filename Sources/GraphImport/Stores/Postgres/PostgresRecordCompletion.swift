import GraphImportPostgres
import GraphImportSchema

/// What the SQLite writer decides for each object as it writes a record, decided for a
/// PostgreSQL store before the record goes into the writer's batch: the objects the run's modes
/// leave out (`prune`), then each object's derived values and hooks (`complete`), both from the
/// stored objects a record batch names, read at once (`fetch`, `PostgresStoredObjects`). `write`
/// takes a record through both, with the required check between, into the writer's batch.
///
/// The rules themselves are the SQLite writer's (`EntityModes.leaves`, `ObjectValueRules`); a
/// map that needs none of them (`isNeeded` false) reads nothing more than before.
final class PostgresRecordCompletion {
    let plan: ImportPlan
    let modes: EntityModes
    let rules: ObjectValueRules
    let objects: PostgresStoredObjects
    /// Per entity: whether each of its objects is read before it is written (a mode other than
    /// `upsert`, an `onInsert` or `beforeSave` hook).
    private let readsEvery: [Bool]
    /// Per entity: whether it has derived attributes, and the attributes their templates read.
    private let derives: [Bool]
    private let derivedInputs: [[Int]]
    /// Per entity: whether a new stub of it gets values besides its key and defaults (derived
    /// values, hooks), gathered before its record (`stubs`).
    private let completesStubs: [Bool]
    /// Whether some entity's mode is not `upsert`.
    private let prunes: Bool
    /// Whether the map needs any of this.
    private let isNeeded: Bool
    /// New objects the record leaves out by their entity's mode, counted when it is kept.
    private var notInserted: [(entity: Int, key: ObjectKey)] = []
    /// New stubs the record makes with values, to be gathered before it.
    private var stubs: [(entity: Int, key: ObjectKey, values: [SQLValue?])] = []

    init(plan: ImportPlan, modes: EntityModes, rules: ObjectValueRules, objects: PostgresStoredObjects) {
        self.plan = plan
        self.modes = modes
        self.rules = rules
        self.objects = objects
        let hooked = rules.hooks.map { $0.onInsert != nil || $0.beforeSave != nil }
        readsEvery = plan.entities.indices.map { !modes.upserts[$0] || hooked[$0] }
        let derives = plan.entities.map { !$0.derivedAttributes.isEmpty }
        self.derives = derives
        derivedInputs = plan.entities.map { entity in
            var inputs: [Int] = []
            for index in entity.derivedAttributes {
                for input in entity.attributes[index].derived?.inputs ?? [] where !inputs.contains(input) { inputs.append(input) }
            }
            return inputs
        }
        completesStubs = plan.entities.indices.map { derives[$0] || hooked[$0] }
        prunes = modes.upserts.contains(false)
        isNeeded = readsEvery.contains(true) || derives.contains(true)
    }

    /// Whether the object's stored values must be known to write `draft`: every object of an
    /// entity with a mode or a hook; an object with derived values whose inputs it does not all give.
    private func needsStored(_ draft: ObjectDraft) -> Bool {
        readsEvery[draft.entity] || (derives[draft.entity] && derivedInputs[draft.entity].contains { draft.values[$0] == nil })
    }

    // MARK: A record batch

    /// Reads, with one query per entity, the stored rows that `records` need: those of the objects
    /// `needsStored` names, of the stubs that may be new, and of the objects that lack a required
    /// value (`PostgresRequiredCheck`). `held`: whether the writer still holds an object unwritten.
    func fetch(_ records: [DraftedRecord], held: (Int, ObjectKey) -> Bool) throws(PostgresError) {
        var keys = Array(repeating: [ObjectKey](), count: plan.entities.count)
        var seen = Array(repeating: Set<ObjectKey>(), count: plan.entities.count)
        func add(_ entity: Int, _ key: ObjectKey) {
            if seen[entity].insert(key).inserted { keys[entity].append(key) }
        }
        func visit(_ draft: ObjectDraft) {
            if draft.lacking != nil || (isNeeded && needsStored(draft)) { add(draft.entity, draft.key) }
            func link(_ link: LinkDraft?) {
                switch link {
                case .object(let nested)?: visit(nested)
                case .reference(let entity, let key)? where readsEvery[entity] || completesStubs[entity]: add(entity, key)
                default: break
                }
            }
            for toOne in draft.toOne { link(toOne) }
            for links in draft.toMany { for element in links ?? [] { link(element) } }
        }
        for record in records {
            guard case .success(let draft?) = record.draft, isNeeded || draft.treeLacksRequired else { continue }
            visit(draft)
        }
        try objects.fetch(keys, held: held)
    }

    // MARK: A record

    /// Writes one record's `draft` into `writer`'s batch as the SQLite writer writes it: the
    /// modes first, then the required check, then derived values and hooks. A record refused on
    /// the way writes nothing, and its error is the outcome.
    func write(
        _ record: DraftedRecord, _ draft: ObjectDraft, into writer: PostgresBatchWriter, checking required: PostgresRequiredCheck
    ) throws -> RecordLoop.Outcome {
        guard var draft = try prune(draft) else {
            commitRecord(nil, tally: writer.tally)
            return .written
        }
        if draft.treeLacksRequired, let error = try required.error(for: draft) {
            discardRecord()
            return .refused(error)
        }
        if isNeeded {
            do {
                draft = try complete(draft)
            } catch let error as WriteError {
                discardRecord()
                guard let refusal = error.recordError(for: record) else { throw error }
                return .refused(refusal)
            }
        }
        if let error = PostgresTextCheck.error(in: draft, record: record, plan: plan) {
            discardRecord()
            return .refused(error)
        }
        if isNeeded {
            for stub in stubs { writer.gatherStub(stub.entity, stub.key, values: stub.values) }
        }
        try writer.add(draft)
        commitRecord(draft, tally: writer.tally)
        return .written
    }

    /// The record's draft without what the run's modes leave out (`GraphWriter.leaveByMode`): a
    /// stored object its mode does not update is named (counted unchanged, linked) with nothing
    /// of its tree; a new one its mode does not insert is left out with its tree (counted as not
    /// inserted, linked by nothing). Nil when that is the record's own object.
    private func prune(_ draft: ObjectDraft) throws(PostgresError) -> ObjectDraft? {
        guard prunes else { return draft }
        var earlier = Array(repeating: Set<ObjectKey>(), count: plan.entities.count)
        return try prune(draft, earlier: &earlier)
    }

    /// `earlier`: per entity, the keys of the objects the record writes before this point.
    private func prune(_ draft: ObjectDraft, earlier: inout [Set<ObjectKey>]) throws(PostgresError) -> ObjectDraft? {
        let entity = plan.entities[draft.entity]
        if !modes.upserts[draft.entity] {
            var stored = earlier[draft.entity].contains(draft.key)
            if !stored { stored = try objects.exists(draft.entity, draft.key) }
            if modes.leaves(draft.entity, stored: stored) {
                guard stored else {
                    notInserted.append((draft.entity, draft.key))
                    return nil
                }
                return ObjectDraft(
                    entity: draft.entity, key: draft.key, values: Array(repeating: nil, count: entity.attributes.count),
                    toOne: Array(repeating: nil, count: entity.toOne.count), toMany: Array(repeating: nil, count: entity.toMany.count))
            }
        }
        var pruned = draft
        for (index, link) in draft.toOne.enumerated() {
            switch link {
            case .object(let nested)?: pruned.toOne[index] = try prune(nested, earlier: &earlier).map(LinkDraft.object)
            case .reference(let target, let key)?: earlier[target].insert(key)
            default: break
            }
        }
        for (index, links) in draft.toMany.enumerated() {
            guard let links else { continue }
            let width = entity.toMany[index].linkAttributes.count
            var kept: [LinkDraft] = []
            var keptValues: [SQLValue] = []
            for (element, link) in links.enumerated() {
                var link = link
                switch link {
                case .object(let nested):
                    guard let nested = try prune(nested, earlier: &earlier) else { continue }
                    link = .object(nested)
                case .reference(let target, let key): earlier[target].insert(key)
                default: break
                }
                kept.append(link)
                if let values = draft.linkValues?[index] { keptValues += values[(element * width)..<((element + 1) * width)] }
            }
            pruned.toMany[index] = kept
            if draft.linkValues?[index] != nil { pruned.linkValues![index] = keptValues }
        }
        earlier[draft.entity].insert(draft.key)
        return pruned
    }

    /// The draft with each object's derived values, and what `onInsert` sets on a new one, in the
    /// order the SQLite writer writes them (links first); a new stub's values go to `stubs`.
    /// Throws the `WriteError` of a derived value or a hook that refuses the record.
    private func complete(_ draft: ObjectDraft) throws -> ObjectDraft {
        let entity = draft.entity
        // What `prune` left of a stored object its mode does not update: nothing to compute.
        if !modes.upserts[entity], try modes.leaves(entity, stored: objects.exists(entity, draft.key)) { return draft }
        var done = draft
        for (index, link) in draft.toOne.enumerated() {
            if let link { done.toOne[index] = try complete(link) }
        }
        for (index, links) in draft.toMany.enumerated() {
            guard let links else { continue }
            var list = links
            for (element, link) in links.enumerated() { list[element] = try complete(link) }
            done.toMany[index] = list
        }
        guard readsEvery[entity] || derives[entity] else { return done }
        var values: [SQLValue?]
        if needsStored(draft), let stored = try objects.stored(entity, draft.key) {
            values = stored.indices.map { draft.values[$0] ?? stored[$0] }
            try rules.derive(entity, &values)
            if rules.hooks[entity].beforeSave != nil {
                // Lists aside, as the SQLite writer judges a change.
                var saved = values
                rules.markUpdate(entity, &saved, changed: values.indices.contains { values[$0] != stored[$0] })
                try rules.checkBeforeSave(entity, saved)
            }
            for index in plan.entities[entity].derivedAttributes { done.values[index] = values[index] }
        } else if needsStored(draft) {
            values = draft.values
            try rules.fillNew(entity, &values)
            try rules.checkBeforeSave(entity, values)
            for index in values.indices where values[index] != draft.values[index] { done.values[index] = values[index] }
        } else {
            // Derived from inputs the draft gives all: the same for a new object and a stored one.
            values = draft.values
            try rules.derive(entity, &values)
            for index in plan.entities[entity].derivedAttributes { done.values[index] = values[index] }
        }
        objects.note(entity, draft.key, values)
        return done
    }

    private func complete(_ link: LinkDraft) throws -> LinkDraft {
        switch link {
        case .object(let nested): return .object(try complete(nested))
        case .reference(let entity, let key):
            if readsEvery[entity] || completesStubs[entity], try !objects.exists(entity, key) { try makeStub(entity, key) }
            return link
        case .null, .existing: return link
        }
    }

    /// A new stub, inserted like any new object (`GraphWriter.resolve`): its key, then the map's
    /// values for a new object, derived values and hooks.
    private func makeStub(_ entity: Int, _ key: ObjectKey) throws {
        let plan = self.plan.entities[entity]
        var values = [SQLValue?](repeating: nil, count: plan.attributes.count)
        for (position, attribute) in plan.keyAttributes.enumerated() { values[attribute] = key.values[position] }
        if completesStubs[entity] {
            try rules.fillNew(entity, &values)
            try rules.checkBeforeSave(entity, values)
            stubs.append((entity, key, values))
        }
        objects.note(entity, key, values)
    }

    /// Keeps what the record did: call once its draft (nil when its object was left out) is in
    /// the writer's batch. New objects left out are counted in `tally`.
    private func commitRecord(_ draft: ObjectDraft?, tally: PolicyTally) {
        for (entity, key) in notInserted { tally.skipNew(entity, key) }
        notInserted = []
        stubs = []
        objects.commitRecord(draft)
    }

    /// Forgets what the record would have done: it was refused.
    private func discardRecord() {
        notInserted = []
        stubs = []
        objects.discardRecord()
    }
}
