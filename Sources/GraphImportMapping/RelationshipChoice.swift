/// `parent <- parent_id : (Post | Comment)? by $` and its case lines: each element of a
/// relationship becomes an object of the entity its case names, chosen by the value at
/// `discriminator` (a path relative to the element, `$` for the element itself).
package struct RelationshipChoice: Sendable, Equatable {
    /// The entities written in the type (`(Post | Comment)`, `[Photo | Video]`), in that order.
    package var targets: [String]
    package var discriminator: KeyPath
    /// In the order written: the first case whose test holds chooses.
    package var cases: [RelationshipCase]
    /// Where `by` is written.
    package var location: SourceLocation

    package init(targets: [String], discriminator: KeyPath, cases: [RelationshipCase], location: SourceLocation) {
        self.targets = targets
        self.discriminator = discriminator
        self.cases = cases
        self.location = location
    }

    /// The `else` case, when there is one.
    package var fallback: RelationshipCase? { cases.first { $0.test == nil } }
}

/// `"photo" -> Photo`, `has prefix "t3_" -> Post`, `else -> ignore`
package struct RelationshipCase: Sendable, Equatable {
    /// What the discriminator's value must be; nil for `else`, the case of every value (null
    /// included) no other case takes.
    package var test: Test?
    /// The entity such an element becomes; nil for `ignore` (the element is passed over).
    package var entity: String?
    package var location: SourceLocation

    /// A case's test, compared as a `where` condition compares.
    package enum Test: Sendable, Equatable, CustomStringConvertible {
        /// `"photo"`, `7`, `true`: the same kind and the same value.
        case equals(Literal)
        /// `has prefix "t3_"`: a string that starts with the text (Reddit's fullnames).
        case hasPrefix(String)
        /// `has suffix ".png"`: a string that ends with the text.
        case hasSuffix(String)

        package var description: String {
            switch self {
            case .equals(let value): "\(value)"
            case .hasPrefix(let text): "has prefix \(Literal.string(text))"
            case .hasSuffix(let text): "has suffix \(Literal.string(text))"
            }
        }
    }

    package init(test: Test?, entity: String?, location: SourceLocation) {
        self.test = test
        self.entity = entity
        self.location = location
    }
}
