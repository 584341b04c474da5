import Foundation
import GraphImportSchema

/// A Swift value that can be compared with a stored one, in a condition or as a key: it becomes
/// the value as the store keeps it (a `Bool` 0 or 1, a `Date` its UTC text, a `URL` its text).
public protocol GraphValue: Sendable {
    var storedValue: SQLValue { get }
}

extension SQLValue: GraphValue {
    public var storedValue: SQLValue { self }
}

extension String: GraphValue {
    public var storedValue: SQLValue { .text(self) }
}

extension Int: GraphValue {
    public var storedValue: SQLValue { .integer(Int64(self)) }
}

extension Int64: GraphValue {
    public var storedValue: SQLValue { .integer(self) }
}

extension Double: GraphValue {
    public var storedValue: SQLValue { .real(self) }
}

extension Bool: GraphValue {
    public var storedValue: SQLValue { .integer(self ? 1 : 0) }
}

extension Date: GraphValue {
    /// `YYYY-MM-DDTHH:MM:SS.sssZ`, as dates are stored, so that text order is time order.
    public var storedValue: SQLValue {
        .text(Coercion.isoText(Timestamp(milliseconds: Int64((timeIntervalSince1970 * 1000).rounded(.down)))))
    }
}

extension URL: GraphValue {
    public var storedValue: SQLValue { .text(absoluteString) }
}
