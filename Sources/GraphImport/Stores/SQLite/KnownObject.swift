import GraphImportSchema

/// An object met during this run: its row id, its stored values as now written, and its fate.
///
/// Its stored properties skip Swift's run-time exclusivity check (an entry in a per-thread access
/// set for every access, a measurable part of the writing thread): the writing thread alone uses
/// an object, and each access is one read or one write of one property that reaches no other
/// code, so no two accesses can overlap.
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
    /// Per to-many with link attributes: the link values of `lists`' targets, once known (nil,
    /// with nothing to retain or release, for an entity without link attributes).
    @exclusivity(unchecked) private(set) var linkValues: [[SQLValue]?]?
    @exclusivity(unchecked) var status: Status
    /// The digest of the stored values when the feed first touched the object, taken before its
    /// first write (`keepOriginal`): nil while the values are still those. Most objects a
    /// re-import touches are never written, so the digest and markers are not taken when the
    /// feed first touches an object.
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
    /// Whether the run made the object as a stub, and whether the feed then gave it (`ObjectDecisions`).
    @exclusivity(unchecked) var stubState = StubState.none
    /// `content_digest` as the row holds it now (nil for NULL, or a value that is no digest).
    @exclusivity(unchecked) var contentDigest: ContentDigest?
    /// Whether this run found `contentDigest` to be a draft's or wrote it: a draft that then
    /// changes nothing leaves it in place (the row is as that draft left it, whatever the later
    /// draft's digest), so an object given twice in a feed, differently written, is not
    /// written twice for its digest alone.
    @exclusivity(unchecked) var digestCurrent = false
    /// Whether `values` (and `storedChangedRun`) were left unread: the object was found unchanged
    /// by its digest (`GraphWriter.keepIfUnchanged`). `GraphWriter.find` reads them before it
    /// gives such an object to any other path.
    @exclusivity(unchecked) var valuesUnread = false

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

    /// The link values of to-many `index`'s targets, if known.
    func linkValues(_ index: Int) -> [SQLValue]? {
        guard let linkValues, index < linkValues.count else { return nil }
        return linkValues[index]
    }

    /// Sets the targets of to-many `index` and their link values together.
    func setList(_ index: Int, _ list: [Int64], values: [SQLValue]) {
        setList(index, list)
        var all = linkValues ?? []
        linkValues = nil
        while all.count <= index { all.append(nil) }
        all[index] = values
        linkValues = all
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
        return ObjectFate(
            status: status, listChanged: listChanged, markersWritten: markersWritten, changedDigests: changedDigests, stubState: stubState)
    }

    /// Everything a record may change, so that a skipped record can be undone.
    struct Snapshot {
        let values: [SQLValue]
        let lists: [[Int64]?]
        let linkValues: [[SQLValue]?]?
        let status: Status
        let originalDigest: UInt32?
        let listChanged: Bool
        let originalMarkers: [SQLValue]?
        let markersWritten: Bool
        let stubState: StubState
        let contentDigest: ContentDigest?
        let digestCurrent: Bool
        let valuesUnread: Bool
    }

    func snapshot() -> Snapshot {
        Snapshot(
            values: values, lists: lists, linkValues: linkValues, status: status, originalDigest: originalDigest, listChanged: listChanged,
            originalMarkers: originalMarkers, markersWritten: markersWritten, stubState: stubState, contentDigest: contentDigest,
            digestCurrent: digestCurrent, valuesUnread: valuesUnread)
    }

    func restore(_ snapshot: Snapshot) {
        values = snapshot.values
        lists = snapshot.lists
        linkValues = snapshot.linkValues
        status = snapshot.status
        originalDigest = snapshot.originalDigest
        listChanged = snapshot.listChanged
        originalMarkers = snapshot.originalMarkers
        markersWritten = snapshot.markersWritten
        stubState = snapshot.stubState
        contentDigest = snapshot.contentDigest
        digestCurrent = snapshot.digestCurrent
        valuesUnread = snapshot.valuesUnread
    }
}
