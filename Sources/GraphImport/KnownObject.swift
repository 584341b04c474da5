import GraphImportStore

/// An object met during this run: its row id, its stored values as now written, and its fate.
///
/// Its stored properties skip Swift's run-time exclusivity check, as `GraphWriter`'s do (see there).
final class KnownObject {
    enum Status: UInt8 {
        /// Looked up (or linked to by key) but not given by the feed.
        case referenced = 1
        /// Created by this run.
        case inserted
        /// Given by the feed; updated or unchanged depending on `originalDigest`.
        case touched
    }

    let pk: Int64
    /// Attribute columns, then to-one foreign-key columns.
    @exclusivity(unchecked) var values: [SQLValue] { didSet { currentDigest = nil } }
    /// The digest of `values` as they are, when known without taking it again (an object read
    /// back with the digests it left memory with); nil once a value is written.
    @exclusivity(unchecked) var currentDigest: UInt32?
    /// Per to-many: the target row ids in order, once known (an array, not a dictionary: one is
    /// made for most objects a run meets, and a dictionary cost an allocation and a hash each).
    @exclusivity(unchecked) private(set) var lists: [[Int64]?] = []
    @exclusivity(unchecked) var status: Status
    /// The digest of the stored values when the feed first touched the object, taken before its
    /// first write (`keepOriginal`): nil while the values are still those. Most objects a
    /// re-import touches are never written, and taking the digest and markers of each when the
    /// feed first touched it was 7% of the writing thread (callgrind, 10k re-import).
    @exclusivity(unchecked) var originalDigest: UInt32?
    /// Whether a to-many of the object was rewritten by this run.
    @exclusivity(unchecked) var listChanged = false
    /// `changed_run` as stored before this run.
    @exclusivity(unchecked) var storedChangedRun = SQLValue.null
    /// The `onchange` values and `changed_run` when the feed first touched the object (taken with
    /// `originalDigest`, or kept from before it left memory).
    @exclusivity(unchecked) var originalMarkers: [SQLValue]?
    /// Whether this run wrote `changed_run` (and the `onchange` values) of the object.
    @exclusivity(unchecked) var markersWritten = false

    init(pk: Int64, values: [SQLValue], status: Status) {
        self.pk = pk
        self.values = values
        self.status = status
    }

    /// Keeps what a touched object's values were, before they are first written: their digest
    /// (less `ignored` columns) and, unless already kept, the values of `markerColumns` and
    /// `changed_run`. Does nothing for other objects, or once done.
    func keepOriginal(ignoring ignored: Set<Int>, markerColumns: [Int]) {
        guard status == .touched, originalDigest == nil else { return }
        originalDigest = digest(ignoring: ignored)
        if originalMarkers == nil { originalMarkers = markerColumns.map { values[$0] } + [storedChangedRun] }
    }

    /// The target row ids of to-many `index`, if known.
    func list(_ index: Int) -> [Int64]? {
        index < lists.count ? lists[index] : nil
    }

    func setList(_ index: Int, _ list: [Int64]) {
        while lists.count <= index { lists.append(nil) }
        lists[index] = list
    }

    /// A digest of the column values (less those set on every import), to tell whether the run
    /// changed the object in the end.
    ///
    /// 32 bits, so that an object moved out of memory costs little to remember (`KnownObjects`):
    /// two different states collide once in four billion, and a collision only miscounts an
    /// update as unchanged; what is written is decided by comparing values, never digests.
    func digest(ignoring ignored: Set<Int>) -> UInt32 {
        var digest = ValueDigest()
        for (index, value) in values.enumerated() where ignored.isEmpty || !ignored.contains(index) { digest.add(value) }
        return digest.value
    }

    /// What the run did to the object so far, as counting, markers and deletion see it (the
    /// final digest taken now, leaving out `ignored` columns).
    /// `ignored` must be the columns the original digest (and `currentDigest`) left out.
    func fate(ignoring ignored: Set<Int>) -> ObjectFate {
        var changedDigests: ObjectFate.Digests?
        // A touched object whose values were never written is unchanged.
        if status == .touched, let originalDigest {
            let final = currentDigest ?? digest(ignoring: ignored)
            if final != originalDigest { changedDigests = ObjectFate.Digests(original: originalDigest, final: final) }
        }
        return ObjectFate(status: status, listChanged: listChanged, markersWritten: markersWritten, changedDigests: changedDigests)
    }

    /// Everything a record may change, so that a skipped record can be undone.
    struct Snapshot {
        let values: [SQLValue]
        let lists: [[Int64]?]
        let status: Status
        let originalDigest: UInt32?
        let listChanged: Bool
        let originalMarkers: [SQLValue]?
        let markersWritten: Bool
    }

    func snapshot() -> Snapshot {
        Snapshot(
            values: values, lists: lists, status: status, originalDigest: originalDigest, listChanged: listChanged,
            originalMarkers: originalMarkers, markersWritten: markersWritten)
    }

    func restore(_ snapshot: Snapshot) {
        values = snapshot.values
        lists = snapshot.lists
        status = snapshot.status
        originalDigest = snapshot.originalDigest
        listChanged = snapshot.listChanged
        originalMarkers = snapshot.originalMarkers
        markersWritten = snapshot.markersWritten
    }
}

/// What the run must remember of an object once its values have left memory: enough to count
/// it once, to put back its markers, and to know the feed held it.
struct ObjectFate: Equatable {
    struct Digests: Equatable {
        /// The digest of the stored values when the feed first touched the object.
        var original: UInt32
        /// The digest of the values the object has now (when it left memory: what the store holds).
        var final: UInt32
    }

    var status: KnownObject.Status
    var listChanged: Bool
    var markersWritten: Bool
    /// For a touched object whose values are no longer those it had when the feed first touched
    /// it, both digests; nil when they are the same, or when the feed did not touch the object.
    /// Most objects of a long run are inserted or unchanged: they are remembered in one byte.
    var changedDigests: Digests?

    /// Whether the object ends the run as it began it: the one rule for "unchanged", whether the
    /// object is still in memory or not.
    var isNetUnchanged: Bool { !listChanged && changedDigests == nil }

    /// The fate in one byte (never 0, which stands for "not met"): the status in bits 0-1, then
    /// `listChanged`, `markersWritten`, and whether there are `changedDigests` (kept apart).
    var packed: UInt8 {
        status.rawValue | (listChanged ? 4 : 0) | (markersWritten ? 8 : 0) | (changedDigests != nil ? 16 : 0)
    }

    /// The fate packed in `byte` (nil for 0), its digests from `digests` when it has any.
    init?(packed byte: UInt8, digests: () -> Digests?) {
        guard let status = KnownObject.Status(rawValue: byte & 3) else { return nil }
        self.init(
            status: status, listChanged: byte & 4 != 0, markersWritten: byte & 8 != 0, changedDigests: byte & 16 != 0 ? digests() : nil)
    }

    init(status: KnownObject.Status, listChanged: Bool, markersWritten: Bool, changedDigests: Digests?) {
        self.status = status
        self.listChanged = listChanged
        self.markersWritten = markersWritten
        self.changedDigests = changedDigests
    }
}

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
    /// `ObjectFate.packed` byte or 0. For the 1.3M objects of 1M tweets, fates of 16 bytes were
    /// 21 MB of a run's peak memory; a byte each is 1.3 MB.
    private var pages: [Int64: [UInt8]] = [:]
    /// What an object that left memory needs beyond its byte, only for objects this run changed:
    /// its `changedDigests`, and the `onchange` values and `changed_run` it had before this run
    /// wrote them, as an index into `markerLists`.
    private var retiredChanges: [Int64: RetiredChange] = [:]
    /// The distinct marker lists of `retiredChanges`: the objects of a store share a few (one per
    /// run that last changed them). An array per object, and a table entry for it beside the
    /// digests' entry, took the 1M revised feed's peak RSS from 80 MiB to 87 MiB.
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

/// Inserted, updated, unchanged, skipped and deleted objects of one entity in one run.
public struct EntityCounts: Equatable, Sendable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    /// Records of this entity dropped under `--skip-invalid`.
    public var skipped = 0
    /// Objects deleted because a complete feed no longer holds them (or by a cascade).
    public var deleted = 0

    public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0, skipped: Int = 0, deleted: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.skipped = skipped
        self.deleted = deleted
    }
}

extension SQLValue {
    var integerValue: Int64 {
        if case .integer(let value) = self { return value }
        return 0
    }
}
