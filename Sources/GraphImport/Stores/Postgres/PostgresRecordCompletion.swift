import GraphImportPostgres
import GraphImportSchema

/// Each object's decisions (`ObjectDecisions`, the SQLite writer's too) executed for a
/// PostgreSQL store before the record goes into the writer's batch: the objects whose mode keeps
/// them as stored or leaves them out are pruned from the tree (`prune`), then each object gets
/// its derived values and hooks (`complete`), both over what the store holds (`view`: the batch
/// not yet written, and the stored objects a record batch names, read at once by `fetch`).
/// `write` takes a record through both, with the required check between, into the writer's batch.
///
/// A map that needs none of them (`isNeeded` false) reads nothing more than before.
final class PostgresRecordCompletion {
    let plan: ImportPlan
    let decisions: ObjectDecisions
    let objects: PostgresStoredObjects
    /// What the decisions ask: the batch not yet written, then `objects`.
    let view: PostgresStoredView
    /// Per entity: whether each of its objects is read before it is written (a mode other than
    /// `upsert`, an `onInsert` or `beforeSave` hook).
    private let readsEvery: [Bool]
    /// Per entity: whether it has derived attributes, and the attributes their templates read.
    private let derives: [Bool]
    private let derivedInputs: [[Int]]
    /// Per entity: whether a new stub of it gets values besides its key and defaults (derived
    /// values, hooks), gathered before its record (`stubs`).
    private let completesStubs: [Bool]
    /// Per entity: whether a list of it stored once, as its targets' to-one, lets objects go
    /// whose entity has a `beforeSave` hook (`letGo`).
    private let letsGoHooked: [Bool]
    /// Whether some entity's mode is not `upsert`.
    private let prunes: Bool
    /// Whether the map needs any of this.
    private let isNeeded: Bool
    /// New stubs the record makes with values, to be gathered before it.
    private var stubs: [(entity: Int, key: ObjectKey, values: [SQLValue?])] = []
    /// The record's objects its mode keeps as stored: named, not written (nor a stub completed).
    private var kept: [(entity: Int, key: ObjectKey)] = []

    init(decisions: ObjectDecisions, objects: PostgresStoredObjects, batch: PostgresBatchWriter) {
        let plan = decisions.plan
        self.plan = plan
        self.decisions = decisions
        self.objects = objects
        view = PostgresStoredView(objects: objects, batch: batch)
        let hooked = decisions.values.hooks.map { $0.onInsert != nil || $0.beforeSave != nil }
        readsEvery = Self.completesEveryObject(decisions)
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
        letsGoHooked = plan.entities.map { entity in
            entity.toMany.contains { $0.foreignKey != nil && !$0.mergesList && decisions.values.hooks[$0.target].beforeSave != nil }
        }
        prunes = plan.entities.indices.contains(where: decisions.decidesByMode)
        isNeeded = readsEvery.contains(true) || derives.contains(true)
    }

    /// Per entity: whether each of its objects is read before it is written (`readsEvery`), and
    /// so a new one holds what `ObjectDecisions.insert` made of it when it is gathered.
    static func completesEveryObject(_ decisions: ObjectDecisions) -> [Bool] {
        decisions.plan.entities.indices.map { entity in
            let hooks = decisions.values.hooks[entity]
            return decisions.decidesByMode(entity) || hooks.onInsert != nil || hooks.beforeSave != nil
        }
    }

    /// Per entity: whether an update of its objects compares their links too before it is
    /// written: an entity with a `beforeSave` hook, which sees the object as saved (`onchange`
    /// moved by a change of a to-one or a list alone, as on SQLite). The others' links are
    /// compared only when their batch is written, and read no sooner.
    static func comparesLinks(_ decisions: ObjectDecisions) -> [Bool] {
        decisions.values.hooks.map { $0.beforeSave != nil }
    }

    /// Whether the object's stored values must be known to write `draft`: every object of an
    /// entity with a mode or a hook; an object with derived values whose inputs it does not all give.
    private func needsStored(_ draft: ObjectDraft) -> Bool {
        readsEvery[draft.entity] || (derives[draft.entity] && derivedInputs[draft.entity].contains { draft.values[$0] == nil })
    }

    // MARK: A record batch

    /// Reads, with one query per entity, the stored rows that `records` need: those of the objects
    /// `needsStored` names, of the stubs that may be new, and of the objects that lack a required
    /// value (`RequiredValuesCheck`). `held`: whether the writer still holds an object unwritten.
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
                // Whether it links anything, when the owner's links are compared (`links`).
                case .existing(let entity, let key, _)? where objects.readsLinks[draft.entity]: add(entity, key)
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
    func write(_ record: DraftedRecord, _ draft: ObjectDraft, into writer: PostgresBatchWriter) throws -> RecordLoop.Outcome {
        writer.tally.beginRecord()
        guard var draft = try prune(draft, tally: writer.tally) else {
            commitRecord(nil, tally: writer.tally)
            return .written
        }
        if draft.treeLacksRequired, let error = try RequiredValuesCheck(decisions: decisions, view: view).error(for: draft) {
            discardRecord(tally: writer.tally)
            return .refused(error)
        }
        if isNeeded {
            do {
                draft = try complete(draft)
            } catch let error as WriteError {
                discardRecord(tally: writer.tally)
                guard let refusal = error.recordError(for: record) else { throw error }
                return .refused(refusal)
            }
        }
        if let error = PostgresTextCheck.error(in: draft, record: record, plan: plan) {
            discardRecord(tally: writer.tally)
            return .refused(error)
        }
        if isNeeded {
            for stub in stubs { writer.gatherStub(stub.entity, stub.key, values: stub.values) }
        }
        try writer.add(draft, kept: kept)
        commitRecord(draft, tally: writer.tally)
        return .written
    }

    /// The record's draft without what the objects' fates leave (`ObjectDecisions.fate`): a
    /// stored object kept as it is is named (counted unchanged, linked) with nothing of its tree;
    /// a new one left out goes with its tree (counted as not inserted in `tally`, linked by
    /// nothing). Nil when that is the record's own object.
    private func prune(_ draft: ObjectDraft, tally: PolicyTally) throws(PostgresError) -> ObjectDraft? {
        guard prunes else { return draft }
        var earlier = Array(repeating: Set<ObjectKey>(), count: plan.entities.count)
        return try prune(draft, earlier: &earlier, tally: tally)
    }

    /// `earlier`: per entity, the keys of the objects the record writes before this point.
    private func prune(_ draft: ObjectDraft, earlier: inout [Set<ObjectKey>], tally: PolicyTally) throws(PostgresError) -> ObjectDraft? {
        let entity = plan.entities[draft.entity]
        switch try decisions.fate(draft.entity, draft.key, earlier: earlier, in: view).fate {
        case .write: break
        case .keepStored:
            kept.append((draft.entity, draft.key))
            return ObjectDraft(
                entity: draft.entity, key: draft.key, values: Array(repeating: nil, count: entity.attributes.count),
                toOne: Array(repeating: nil, count: entity.toOne.count), toMany: Array(repeating: nil, count: entity.toMany.count))
        case .leaveOut:
            tally.skipNew(draft.entity, draft.key)
            return nil
        }
        var pruned = draft
        for (index, link) in draft.toOne.enumerated() {
            switch link {
            case .object(let nested)?: pruned.toOne[index] = try prune(nested, earlier: &earlier, tally: tally).map(LinkDraft.object)
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
                    guard let nested = try prune(nested, earlier: &earlier, tally: tally) else { continue }
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
        // What `prune` left of a stored object its mode keeps as it is: nothing to compute.
        if decisions.decidesByMode(entity), try decisions.fate(entity, stored: view.exists(entity, draft.key)) == .keepStored { return draft }
        var done = draft
        for (index, link) in draft.toOne.enumerated() {
            if let link { done.toOne[index] = try complete(link) }
        }
        let relationships = plan.entities[entity].toMany
        for (index, links) in draft.toMany.enumerated() where relationships[index].foreignKey == nil {
            guard let links else { continue }
            done.toMany[index] = try links.map { link in try complete(link) }
        }
        if readsEvery[entity] || derives[entity] { try completeValues(draft, &done) }
        // A list stored once, as its targets' to-one, is written after its owner, as on SQLite:
        // its elements' link into the owner finds the owner (it makes no stub of it), then the
        // objects it no longer names are let go.
        if plan.entities[entity].storesListsOnce {
            for (index, links) in draft.toMany.enumerated() where relationships[index].foreignKey != nil {
                guard let links else { continue }
                done.toMany[index] = try links.map { link in try complete(link) }
            }
            if letsGoHooked[entity] { try letGo(from: done) }
        }
        return done
    }

    /// The object's own values in `done` (its links completed): derived values, and what
    /// `onInsert` sets on a new one or `beforeSave` sees of a stored one.
    private func completeValues(_ draft: ObjectDraft, _ done: inout ObjectDraft) throws {
        let entity = draft.entity
        var values: [SQLValue?]
        if needsStored(draft), let stored = try objects.stored(entity, draft.key) {
            values = stored.indices.map { (decisions.takesFeedValue(entity, column: $0) ? draft.values[$0] : nil) ?? stored[$0] }
            try decisions.values.derive(entity, &values)
            if decisions.values.hooks[entity].beforeSave != nil {
                // The hook sees the values as saved: a change of a value, a to-one or a list
                // moves `onchange`, as on SQLite (`links`).
                let linksChanged = try links(of: done, over: objects.links(entity, draft.key))
                let changed =
                    linksChanged || values.indices.contains { decisions.isChange(entity, column: $0, values[$0] ?? .null, stored[$0] ?? .null) }
                try save(entity, draft.key, values, changed: changed)
            }
            for index in plan.entities[entity].derivedAttributes { done.values[index] = values[index] }
            // An engine-set (`always`) value the feed gives is never written: the batch keeps what
            // an insert earlier in the run made, and a stored row gets its value at the run's end.
            for index in draft.values.indices where !decisions.takesFeedValue(entity, column: index) { done.values[index] = nil }
        } else if needsStored(draft) {
            // A new object: a later occurrence in the run compares its links with these.
            if objects.readsLinks[entity] { _ = try links(of: done, over: objects.links(entity, draft.key)) }
            values = draft.values
            try decisions.insert(entity, &values)
            for index in values.indices where values[index] != draft.values[index] { done.values[index] = values[index] }
        } else {
            // Derived from inputs the draft gives all: the same for a new object and a stored one.
            values = draft.values
            try decisions.values.derive(entity, &values)
            for index in plan.entities[entity].derivedAttributes { done.values[index] = values[index] }
        }
        objects.note(entity, draft.key, values)
    }

    /// Shows `beforeSave` a stored object's `values` (its stored ones with the record's over
    /// them) as saved (`ObjectDecisions.update`). The objects the run changed are remembered for
    /// the run, not the batch: their rows get `onchange` at its end, and a later occurrence sees
    /// it moved whatever the batch size, as on SQLite.
    private func save(_ entity: Int, _ key: ObjectKey, _ values: [SQLValue?], changed: Bool) throws {
        var saved = values
        let insertedByRun = try objects.insertedByRun(entity, key)
        try decisions.update(entity, &saved, changed: changed, changedEarlier: objects.changedByRun(entity, key), insertedByRun: insertedByRun)
        if changed && !insertedByRun && !decisions.engineValues[entity].onChange.isEmpty { objects.noteChanged(entity, key) }
    }

    /// Shows `beforeSave` each object that `draft`'s lists stored once let go (the writer gathers
    /// them with their to-one null: `PostgresBatchWriter.lettingGo`), as the SQLite writer's
    /// update of it does after the owner's: its stored values, its to-one into the owner gone, a
    /// change. A refusal refuses the owner's record.
    private func letGo(from draft: ObjectDraft) throws {
        for (index, relationship) in plan.entities[draft.entity].toMany.enumerated() {
            guard let toOne = relationship.foreignKey, let links = draft.toMany[index], objects.readsLinks[relationship.target] else { continue }
            var listed = Set<ObjectKey>()
            for link in links {
                switch link {
                case .null: break
                case .object(let nested): listed.insert(nested.key)
                case .reference(_, let key), .existing(_, let key, _): listed.insert(key)
                }
            }
            let batch = view.batch
            let released = batch.lettingGo(of: draft.key, relationship, listing: listed)
            if let error = batch.gatheringError { throw error }
            try objects.fetchMissing(relationship.target, released)
            for key in released {
                guard let values = try objects.stored(relationship.target, key) else { continue }
                var links = try objects.links(relationship.target, key)
                links.toOne[toOne] = nil
                objects.noteLinks(relationship.target, key, links)
                try save(relationship.target, key, values, changed: true)
            }
        }
    }

    /// Notes what `draft`'s object links to once it is written, its to-ones and lists laid over
    /// `stored` (its links as the run left them), and says whether they differ: a to-one that
    /// names another target, or a list that ends (`ToManyList`, with `merge`) with other targets
    /// or link values. As on SQLite, a `link existing` key links only an object stored or
    /// written earlier in the run (`view`), known here as it is when SQLite resolves it; an
    /// unknown one is no link (a to-one not given, an element left out). A nested object its
    /// mode left out was pruned already.
    private func links(of draft: ObjectDraft, over stored: StoredLinks) throws -> Bool {
        let entity = plan.entities[draft.entity]
        var links = stored
        var changed = false
        func target(_ link: LinkDraft) throws -> ObjectKey?? {
            switch link {
            case .null: return .some(nil)
            case .object(let nested): return nested.key
            case .reference(_, let key): return key
            case .existing(let target, let key, _): return try view.exists(target, key) ? key : nil
            }
        }
        for (index, link) in draft.toOne.enumerated() {
            guard let link, let given = try target(link) else { continue }
            if given != links.toOne[index] { changed = true }
            links.toOne[index] = given
        }
        for (index, elements) in draft.toMany.enumerated() {
            guard let elements, let old = stored.lists[index] else { continue }
            let width = entity.toMany[index].linkAttributes.count
            let linkValues = draft.linkValues?[index] ?? nil
            var list = ToManyList<ObjectKey>(width: width, capacity: elements.count)
            for (element, link) in elements.enumerated() {
                guard case let key?? = try target(link) else { continue }
                list.append(key, values: linkValues.map { $0[(element * width)..<((element + 1) * width)] } ?? [])
            }
            if entity.toMany[index].mergesList {
                var merged = old
                merged.merge(list)
                list = merged
            }
            if list.targets != old.targets || list.values != old.values { changed = true }
            links.lists[index] = list
        }
        objects.noteLinks(draft.entity, draft.key, links)
        return changed
    }

    private func complete(_ link: LinkDraft) throws -> LinkDraft {
        switch link {
        case .object(let nested): return .object(try complete(nested))
        case .reference(let entity, let key):
            if readsEvery[entity] || completesStubs[entity], try !view.exists(entity, key) { try makeStub(entity, key) }
            return link
        case .null, .existing: return link
        }
    }

    /// A new stub (`ObjectDecisions.stub`), gathered before its record when it gets values
    /// besides its key and the map's (`completesStubs`); else the batch makes it from its key.
    private func makeStub(_ entity: Int, _ key: ObjectKey) throws {
        if completesStubs[entity] {
            let values = try decisions.stub(entity, key)
            stubs.append((entity, key, values))
            objects.note(entity, key, values)
            return
        }
        let plan = self.plan.entities[entity]
        var values = [SQLValue?](repeating: nil, count: plan.attributes.count)
        for (position, attribute) in plan.keyAttributes.enumerated() { values[attribute] = key[position] }
        objects.note(entity, key, values)
    }

    /// Keeps what the record did: call once its draft (nil when its object was left out) is in
    /// the writer's batch. New objects left out stay counted in `tally`.
    private func commitRecord(_ draft: ObjectDraft?, tally: PolicyTally) {
        tally.commitRecord()
        stubs = []
        kept = []
        objects.commitRecord(draft)
    }

    /// Forgets what the record would have done: it was refused.
    private func discardRecord(tally: PolicyTally) {
        tally.rollbackRecord()
        stubs = []
        kept = []
        objects.discardRecord()
    }
}
