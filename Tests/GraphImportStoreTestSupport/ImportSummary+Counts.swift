import GraphImport

/// A summary's counts and deletions as short values a test compares, the same for either store.
extension ImportSummary {
    /// `entity`'s counts as `[inserted, updated, unchanged, skipped]`; empty when the summary has no such entity.
    package func counts(of entity: String) -> [Int] {
        guard let counts = entities.first(where: { $0.name == entity })?.counts else { return [] }
        return [counts.inserted, counts.updated, counts.unchanged, counts.skipped]
    }

    /// `entity`'s counts as `[inserted, updated, unchanged, skipped, deleted]`; empty when the summary has no such entity.
    package func countsWithDeletions(of entity: String) -> [Int] {
        guard let counts = entities.first(where: { $0.name == entity })?.counts else { return [] }
        return [counts.inserted, counts.updated, counts.unchanged, counts.skipped, counts.deleted]
    }

    /// The deletions as `Entity count: sample keys` (`Post 2: 2, 4`).
    package var deletionLines: [String] {
        deletions.map { "\($0.entity) \($0.count): " + $0.sampleKeys.joined(separator: ", ") }
    }
}
