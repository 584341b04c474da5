/// Elements a relationship with `unkeyed skip` left out during an import: how many, why the
/// first was, and where the first few were.
public struct SkippedElements: Sendable, Equatable {
    /// The relationship, as messages name members (`Event.actor`).
    public var member: String
    public var count: Int
    /// Why the first was left out (`an object without its key 'id'`, `a null element`).
    public var reason: String
    /// JSON paths of the first `maxPaths` elements left out (`$[9].actor`).
    public var paths: [String]

    /// How many paths a summary lists per relationship.
    public static let maxPaths = 3

    package init(member: String, count: Int, reason: String, paths: [String]) {
        self.member = member
        self.count = count
        self.reason = reason
        self.paths = paths
    }
}

/// One element a relationship with `unkeyed skip` left out while a record was drafted.
struct SkippedElement: Sendable {
    let member: String
    let reason: String
    let path: String
}

extension [SkippedElements] {
    /// Adds the elements a record left out, once the record is in the store.
    mutating func add(_ elements: [SkippedElement]) {
        for element in elements {
            if let index = firstIndex(where: { $0.member == element.member }) {
                self[index].count += 1
                if self[index].paths.count < SkippedElements.maxPaths { self[index].paths.append(element.path) }
            } else {
                append(SkippedElements(member: element.member, count: 1, reason: element.reason, paths: [element.path]))
            }
        }
    }
}
