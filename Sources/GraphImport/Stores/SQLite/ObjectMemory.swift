import GraphImportSchema

/// Everything the run remembers of the objects it met, per entity: the recent ones whole, the
/// others as their fates (`KnownObjects`), and the undo journal of the record being written.
///
/// Its invariants (`invariantViolations`): a key is in at most one generation, no two objects in
/// memory share a row id, an object this run inserted has no original digest, and there is a
/// journal only while a record is open.
///
/// `entities` skips Swift's run-time exclusivity check: it is reached only by this type's
/// methods, and none of them calls out of the type while it holds it.
final class ObjectMemory {
    @exclusivity(unchecked) private var entities: [KnownObjects]
    /// Per entity: the columns that do not tell whether an object changed (`EntityColumns.unchanging`).
    private let ignored: [Set<Int>]
    /// For each object the open record met, what it was before, in order; nil outside a record.
    @exclusivity(unchecked) private var journal: [JournalEntry]?

    private struct JournalEntry {
        let entity: Int
        let key: ObjectKey
        /// nil for an object the record brought into memory.
        let before: KnownObject.Snapshot?
    }

    /// `unchanging`: per entity, the columns digests leave out; `generationSize`: see `KnownObjects`.
    init(unchanging: [Set<Int>], generationSize: Int) {
        ignored = unchanging
        entities = Array(repeating: KnownObjects(generationSize: generationSize), count: unchanging.count)
    }

    /// The object of `entity` with `key`, if it is in memory.
    func object(_ entity: Int, _ key: ObjectKey) -> KnownObject? {
        entities[entity].object(for: key)
    }

    /// Remembers an object the run just met (read or inserted).
    func add(_ object: KnownObject, _ entity: Int, _ key: ObjectKey) {
        if journal != nil { journal!.append(JournalEntry(entity: entity, key: key, before: nil)) }
        entities[entity].add(object, for: key)
    }

    /// Call before the open record changes `object`, so that undoing the record restores it.
    func willChange(_ object: KnownObject, _ entity: Int, _ key: ObjectKey) {
        if journal != nil { journal!.append(JournalEntry(entity: entity, key: key, before: object.snapshot())) }
    }

    /// What happened earlier in the run to the object of `entity` with row id `pk`, if it left memory.
    func fate(_ entity: Int, of pk: Int64) -> (fate: ObjectFate, markers: [SQLValue]?)? {
        entities[entity].fate(of: pk)
    }

    // MARK: Records that may be undone

    /// Starts journaling: `rollbackRecord()` undoes what follows.
    func beginRecord() {
        journal = []
    }

    func commitRecord() {
        journal = nil
    }

    /// Puts back every object the open record changed, and forgets those it brought into memory.
    func rollbackRecord() {
        for entry in (journal ?? []).reversed() {
            if let before = entry.before {
                entities[entry.entity].object(for: entry.key)?.restore(before)
            } else {
                entities[entry.entity].remove(entry.key)
            }
        }
        journal = nil
    }

    /// Lets the older objects of each entity leave memory when there are many. Between records
    /// only: an open record keeps its objects in memory for its journal.
    func retireIfFull() {
        precondition(journal == nil, "objects leave memory only between records")
        for entity in entities.indices { entities[entity].retireIfFull(ignoring: ignored[entity]) }
    }

    // MARK: The run's outcome

    /// What happened to the objects of `entity`, counted once per object.
    ///
    /// An object met several times in one feed is updated only when its stored state at the end
    /// of the run differs from the start: two occurrences that disagree (a user's follower count
    /// on two tweets of one timeline) leave the last one stored but are not a change on re-import.
    func counts(_ entity: Int) -> EntityCounts {
        var counts = EntityCounts()
        entities[entity].forEachFate(ignoring: ignored[entity]) { _, fate, _, _ in
            switch fate.status {
            case .inserted:
                counts.inserted += 1
                if fate.stubState == .stub { counts.stubs += 1 }
            case .touched:
                if fate.isNetUnchanged {
                    counts.unchanged += 1
                } else {
                    counts.updated += 1
                }
            case .referenced: break
            }
            // Made a stub by this run or an earlier one (its row's mark), then given by the feed.
            if fate.stubState == .completed { counts.stubsCompleted += 1 }
        }
        return counts
    }

    /// Calls `body` with each object of `entity` the feed touched whose changes cancelled out and
    /// whose markers this run wrote: its row id, its markers as they were before, and the object
    /// when it is in memory.
    func forEachNetUnchanged<Failure: Error>(
        _ entity: Int, _ body: (_ pk: Int64, _ markers: [SQLValue], _ object: KnownObject?) throws(Failure) -> Void
    ) throws(Failure) {
        try entities[entity].forEachFate(ignoring: ignored[entity]) { pk, fate, markers, object throws(Failure) in
            guard fate.status == .touched, fate.isNetUnchanged, let markers else { return }
            try body(pk, markers, object)
        }
    }

    /// Row ids of every object of `entity` met in this run, in memory or not.
    func metPKs(_ entity: Int) -> Set<Int64> {
        entities[entity].metPKs
    }

    /// Forgets deleted objects.
    func forget(_ entity: Int, _ pks: Set<Int64>) {
        entities[entity].forget(pks)
    }

    // MARK: Invariants

    /// The invariants that do not hold, as sentences (empty when all hold). Walks every object in
    /// memory: for tests and checks, not for the hot path.
    func invariantViolations() -> [String] {
        var violations: [String] = []
        if journal != nil { violations.append("a record is open") }
        for entity in entities.indices {
            let objects = entities[entity]
            let both = objects.keysInBothGenerations
            if !both.isEmpty { violations.append("entity \(entity): \(both.count) keys are in both generations") }
            var pks = Set<Int64>()
            for object in objects.residentObjects {
                if !pks.insert(object.pk).inserted { violations.append("entity \(entity): row id \(object.pk) is in memory twice") }
                if object.status == .inserted && object.originalDigest != nil {
                    violations.append("entity \(entity): inserted object \(object.pk) has an original digest")
                }
            }
        }
        return violations
    }
}
