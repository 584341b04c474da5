import GraphImportJSON

/// A value on its way from the JSON to a column: as read, or as a converter left it.
///
/// Converters take and return `Value`; `Coercion` then checks the result against the
/// attribute's declared type, strictly, and turns it into the `SQLValue` that is stored.
public enum Value: Equatable, Sendable {
    /// As read from the input, not converted yet (also `null`).
    case json(JSONValue)
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case date(Timestamp)
    case data([UInt8])
}

/// An instant, to the millisecond, in UTC.
public struct Timestamp: Equatable, Hashable, Comparable, Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.milliseconds < rhs.milliseconds }
}

/// Why a value could not be converted, as a sentence without the record's position
/// (the engine adds where: `record 41: Tweet.createdAt (created_at): …`).
public struct ConversionError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    /// What to do about it, such as "add `| int` to read numbers written as text".
    public var hint: String?

    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    public var description: String { message }
}
