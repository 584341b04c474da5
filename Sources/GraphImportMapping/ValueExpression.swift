/// The value of a `default`, `always` or `onchange` clause.
package enum ValueExpression: Sendable, Equatable, CustomStringConvertible {
    /// A literal that fits the attribute's type (a `Date` literal is ISO 8601 text).
    case literal(Literal)
    /// The time of the import (`Date` only).
    case now
    /// The import's run id (`Int` only).
    case run

    /// The value as a map writes it.
    package var description: String {
        switch self {
        case .literal(let literal): literal.description
        case .now: "now"
        case .run: "run"
        }
    }
}

/// `null store | keep | reject | LITERAL`: what an explicit JSON null does to an attribute.
package enum NullRule: Sendable, Equatable {
    /// Store NULL (the default for `T?`).
    case store
    /// Leave the stored value as it is.
    case keep
    /// Reject the record (the default for a required `T`).
    case reject
    /// Store this literal instead (`null 0`).
    case value(Literal)
}

/// `missing keep | null | LITERAL`: what a key absent from the JSON does to an attribute.
package enum MissingRule: Sendable, Equatable {
    /// Leave the stored value as it is (the default), so partial records update only what they carry.
    case keep
    /// Store NULL.
    case null
    /// Store this literal.
    case value(Literal)
    /// Refuse the record: the key must be present.
    case reject
}
