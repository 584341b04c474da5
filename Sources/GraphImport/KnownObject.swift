import GraphImportStore

/// An object met during this run: its row id, its stored values as now written, and its fate.
final class KnownObject {
    enum Status {
        /// Looked up (or linked to by key) but not given by the feed.
        case referenced
        /// Created by this run.
        case inserted
        /// Given by the feed; updated or unchanged depending on `originalDigest`.
        case touched
    }

    let pk: Int64
    /// Attribute columns, then to-one foreign-key columns.
    var values: [SQLValue]
    /// Per to-many: the target row ids in order, once known.
    var lists: [Int: [Int64]] = [:]
    var status: Status
    /// The digest of the stored values when the feed first touched the object.
    var originalDigest = 0
    /// Whether a to-many of the object was rewritten by this run.
    var listChanged = false
    /// `changed_run` as stored before this run.
    var storedChangedRun = SQLValue.null
    /// The `onchange` values and `changed_run` when the feed first touched the object.
    var originalMarkers: [SQLValue]?
    /// Whether this run wrote `changed_run` (and the `onchange` values) of the object.
    var markersWritten = false

    init(pk: Int64, values: [SQLValue], status: Status) {
        self.pk = pk
        self.values = values
        self.status = status
    }

    /// A digest of the column values (less those set on every import), to tell whether the run
    /// changed the object in the end.
    func digest(ignoring ignored: Set<Int>) -> Int {
        var hasher = Hasher()
        for (index, value) in values.enumerated() where !ignored.contains(index) { hasher.combine(value) }
        return hasher.finalize()
    }

    /// Whether the object ends the run as it began it (leaving out `ignored` columns).
    func isNetUnchanged(ignoring ignored: Set<Int>) -> Bool {
        !listChanged && digest(ignoring: ignored) == originalDigest
    }

    /// Everything a record may change, so that a skipped record can be undone.
    struct Snapshot {
        let values: [SQLValue]
        let lists: [Int: [Int64]]
        let status: Status
        let originalDigest: Int
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
