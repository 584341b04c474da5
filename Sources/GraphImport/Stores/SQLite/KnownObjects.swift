import GraphImportSchema

/// The objects of one entity met in this run.
///
/// The recent ones are kept whole (values and lists), so an object that repeats across records (a
/// user on many tweets) is compared in memory without a query. Memory must not grow with the
/// feed, so they are kept in two generations: when the newer fills up, the older one leaves
/// memory and the newer becomes the older; an object met again in the older generation moves back
/// to the newer, so the objects a feed keeps repeating stay. An object that leaves memory is
/// remembered as its `ObjectFate` by row id, in pages of a few kilobytes; met again, it is read
/// back from the store and takes up its fate.
struct KnownObjects {
    /// How many objects the newer generation holds before the older one leaves memory.
    let generationSize: Int
    private static let pageBits = 10

    private var newer: [ObjectKey: KnownObject] = [:]
    private var older: [ObjectKey: KnownObject] = [:]
    /// Fates of objects that left memory, by row id: page (pk >> pageBits) -> slots, each an
    /// `ObjectFate.packed` byte or 0: a long run meets more objects than it can keep, and a fate
    /// as a struct of its own was most of such a run's peak memory.
    private var pages: [Int64: [UInt8]] = [:]
    /// What an object that left memory needs beyond its byte, only for objects this run changed:
    /// its `changedDigests`, and the `onchange` values and `changed_run` it had before this run
    /// wrote them, as an index into `markerLists`.
    private var retiredChanges: [Int64: RetiredChange] = [:]
    /// The distinct marker lists of `retiredChanges`: the objects of a store share a few (one per
    /// run that last changed them), so each is kept once, not once per object.
    private var markerLists: [[SQLValue]] = []
    private var markerListIndex: [[SQLValue]: Int32] = [:]

    private struct RetiredChange {
        var digests: ObjectFate.Digests?
        var markers: Int32?
    }

    init(generationSize: Int) {
        precondition(generationSize > 0, "a generation holds at least one object")
        self.generationSize = generationSize
    }

    /// The object with `key`, if it is in memory.
    mutating func object(for key: ObjectKey) -> KnownObject? {
        if let object = newer[key] { return object }
        guard let object = older.removeValue(forKey: key) else { return nil }
        newer[key] = object
        return object
    }

    mutating func add(_ object: KnownObject, for key: ObjectKey) {
        newer[key] = object
    }

    mutating func remove(_ key: ObjectKey) {
        newer[key] = nil
        older[key] = nil
    }

    /// What happened earlier in the run to the object with row id `pk`, if it left memory.
    /// An object read back keeps its old fate here too until it leaves memory again: a record
    /// rolled back under `--skip-invalid` may drop it from memory, and the fate must survive that.
    func fate(of pk: Int64) -> (fate: ObjectFate, markers: [SQLValue]?)? {
        let (page, slot) = Self.place(of: pk)
        guard let byte = pages[page]?[slot], let fate = ObjectFate(packed: byte, digests: { retiredChanges[pk]?.digests }) else { return nil }
        return (fate, markers(of: pk))
    }

    /// Calls `body` for every object met in this run, once: those in memory (`object` given,
    /// their fate taken now, leaving out `ignored` columns), then those that left it. A walk, not
    /// an array: at the end of a run of a million objects the array was the run's biggest allocation.
    func forEachFate<Failure: Error>(
        ignoring ignored: Set<Int>,
        _ body: (_ pk: Int64, _ fate: ObjectFate, _ markers: [SQLValue]?, _ object: KnownObject?) throws(Failure) -> Void
    ) throws(Failure) {
        var resident = Set<Int64>()
        for generation in [newer, older] {
            for object in generation.values {
                resident.insert(object.pk)
                try body(object.pk, object.fate(ignoring: ignored), object.markersWritten ? object.originalMarkers : nil, object)
            }
        }
        for (page, slots) in pages {
            for slot in slots.indices where slots[slot] != 0 {
                let pk = page << Self.pageBits | Int64(slot)
                guard !resident.contains(pk), let fate = ObjectFate(packed: slots[slot], digests: { retiredChanges[pk]?.digests }) else { continue }
                try body(pk, fate, fate.markersWritten ? markers(of: pk) : nil, nil)
            }
        }
    }

    /// The objects in memory, of both generations.
    var residentObjects: [KnownObject] { Array(newer.values) + Array(older.values) }

    /// The keys both generations hold: none while the generations are kept right.
    var keysInBothGenerations: [ObjectKey] { newer.keys.filter { older[$0] != nil } }

    /// Row ids of every object met in this run, in memory or not.
    var metPKs: Set<Int64> {
        var pks = Set<Int64>()
        forEachFate(ignoring: []) { pk, _, _, _ in pks.insert(pk) }
        return pks
    }

    /// Moves the older generation out of memory when the newer one is full. Call only between
    /// records: a record being written keeps its objects in memory for its undo journal.
    mutating func retireIfFull(ignoring ignored: Set<Int>) {
        guard newer.count >= generationSize else { return }
        for object in older.values { retire(object, ignoring: ignored) }
        // The retired generation's table is reused for the next one: growing a new one from
        // empty, and freeing the old, cost a rehash and a trip through malloc every time.
        swap(&older, &newer)
        newer.removeAll(keepingCapacity: true)
    }

    private mutating func retire(_ object: KnownObject, ignoring ignored: Set<Int>) {
        let (page, slot) = Self.place(of: object.pk)
        if pages[page] == nil { pages[page] = Array(repeating: 0, count: 1 << Self.pageBits) }
        let fate = object.fate(ignoring: ignored)
        pages[page]![slot] = fate.packed
        var change = RetiredChange(digests: fate.changedDigests)
        if object.markersWritten, let markers = object.originalMarkers { change.markers = index(of: markers) }
        if change.digests != nil || change.markers != nil {
            retiredChanges[object.pk] = change
        } else if !retiredChanges.isEmpty {
            retiredChanges[object.pk] = nil
        }
    }

    private func markers(of pk: Int64) -> [SQLValue]? {
        retiredChanges[pk]?.markers.map { markerLists[Int($0)] }
    }

    private mutating func index(of markers: [SQLValue]) -> Int32 {
        if let index = markerListIndex[markers] { return index }
        let index = Int32(markerLists.count)
        markerLists.append(markers)
        markerListIndex[markers] = index
        return index
    }

    /// Forgets deleted objects.
    mutating func forget(_ pks: Set<Int64>) {
        newer = newer.filter { !pks.contains($0.value.pk) }
        older = older.filter { !pks.contains($0.value.pk) }
        for pk in pks {
            let (page, slot) = Self.place(of: pk)
            pages[page]?[slot] = 0
            retiredChanges[pk] = nil
        }
    }

    /// The page and the slot in it of row id `pk`.
    private static func place(of pk: Int64) -> (page: Int64, slot: Int) {
        (pk >> pageBits, Int(pk & (1 << pageBits - 1)))
    }
}
