import GraphImportSchema

/// Inserted, updated, unchanged, skipped and deleted objects of one entity in one run.
public struct EntityCounts: Equatable, Sendable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    /// Records of this entity dropped under `--skip-invalid`.
    public var skipped = 0
    /// Objects deleted because a complete feed no longer holds them (or by a cascade).
    public var deleted = 0
    /// New objects the run's mode did not insert (`mode update`, `--mode update`), each once.
    public var notInserted = 0
    /// Later occurrences of its objects that `occurrence first` left out (each occurrence once):
    /// the store holds the run's first occurrence, which is counted as written.
    public var passedOver = 0
    /// Of `inserted`: objects made from a reference alone (a key where a relationship expects an
    /// object) that the feed did not give later in the run: stubs, their values but the key unknown.
    public var stubs = 0
    /// Stubs the feed gave in this run, and so were filled in: made earlier in the run (of
    /// `inserted`), or by an earlier run (the row's mark, `stub_run`: of `updated` or `unchanged`).
    public var stubsCompleted = 0

    package init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0, skipped: Int = 0, deleted: Int = 0) {
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
