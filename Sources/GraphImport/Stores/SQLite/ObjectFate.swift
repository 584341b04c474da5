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
    /// Whether the run made the object as a stub, and whether the feed then gave it.
    var stubState: StubState = .none

    /// Whether the object ends the run as it began it: the one rule for "unchanged", whether the
    /// object is still in memory or not.
    var isNetUnchanged: Bool { !listChanged && changedDigests == nil }

    /// The fate in one byte (never 0, which stands for "not met"): the status in bits 0-1, then
    /// `listChanged`, `markersWritten`, whether there are `changedDigests` (kept apart), and the
    /// stub state in bits 5-6.
    var packed: UInt8 {
        status.rawValue | (listChanged ? 4 : 0) | (markersWritten ? 8 : 0) | (changedDigests != nil ? 16 : 0) | stubState.rawValue << 5
    }

    /// The fate packed in `byte` (nil for 0), its digests from `digests` when it has any.
    init?(packed byte: UInt8, digests: () -> Digests?) {
        guard let status = KnownObject.Status(rawValue: byte & 3) else { return nil }
        self.init(
            status: status, listChanged: byte & 4 != 0, markersWritten: byte & 8 != 0, changedDigests: byte & 16 != 0 ? digests() : nil,
            stubState: StubState(rawValue: byte >> 5 & 3) ?? .none)
    }

    init(status: KnownObject.Status, listChanged: Bool, markersWritten: Bool, changedDigests: Digests?, stubState: StubState = .none) {
        self.status = status
        self.listChanged = listChanged
        self.markersWritten = markersWritten
        self.changedDigests = changedDigests
        self.stubState = stubState
    }
}
