import GraphImportSchema

/// Objects of one entity that an import deleted (or, in a dry run, would delete).
public struct Deletions: Equatable, Sendable {
    public var entity: String
    public var count: Int
    /// The keys of the first few, as SQL literals (`42`, `'swift'`), for the summary.
    public var sampleKeys: [String]

    /// How many keys of deleted objects the summary shows per entity.
    static let sampleLimit = 10

    package init(entity: String, count: Int, sampleKeys: [String]) {
        self.entity = entity
        self.count = count
        self.sampleKeys = sampleKeys
    }
}

extension [SQLValue] {
    /// An object's key as SQL literals, `42` or `('octocat', 7)`, as messages and summaries show it.
    var keyText: String {
        let parts = map(\.description)
        return parts.count == 1 ? parts[0] : "(" + parts.joined(separator: ", ") + ")"
    }
}
