/// One metadata value with its type, so `42` the integer and `"42"` the string stay apart
/// across runs. Stored natively: INTEGER for bool and integer, REAL for double, TEXT otherwise.
public enum MetaValue: Equatable, Sendable, CustomStringConvertible {
    case bool(Bool)
    case integer(Int64)
    /// A finite double; `setMeta` refuses infinities and NaN (SQLite would store NaN as NULL).
    case double(Double)
    case string(String)
    /// An instant as ISO 8601 UTC text with milliseconds, `2024-05-01T12:00:00.000Z`, the shape
    /// SQLite's `strftime('%Y-%m-%dT%H:%M:%fZ')` writes; `parse` normalises other offsets to it.
    case date(String)
    /// JSON text, kept as written; `setMeta` checks it with SQLite's `json_valid`.
    case json(String)

    /// The value's type.
    public var type: MetaType {
        switch self {
        case .bool: .bool
        case .integer: .integer
        case .double: .double
        case .string: .string
        case .date: .date
        case .json: .json
        }
    }

    /// The bare value as a shell script wants it: `true`, `42`, `1.5`, the text, the date, the JSON.
    public var description: String {
        switch self {
        case .bool(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .double(let value): String(value)
        case .string(let text), .date(let text), .json(let text): text
        }
    }
}
