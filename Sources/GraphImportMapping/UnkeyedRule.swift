/// `unkeyed skip | reject` on a relationship: what an element without its key does — a nested
/// object whose key is absent or null (an anonymous actor, a deleted user), a `null` element of
/// an array, an `each` path that leads to nothing.
package enum UnkeyedRule: String, Sendable, Equatable, CaseIterable {
    /// The record is refused, as a record that does not fit the map (the default).
    case reject
    /// The element is left out (a to-one's link is null) and counted; the record imports.
    case skip
}
