import GraphImportSchema

/// A condition over an entity's attributes and to-one relationships, by the map's names, for
/// `ObjectGraph.objects` and `graphimport export --where` (which writes it as text, see
/// `Condition(parsing:)`).
///
/// Compiled to SQL once per query (`CompiledCondition`): names become quoted columns, values
/// become bound parameters, so a value is never SQL text (`.equals("text", "'; DROP TABLE tweet; --")`
/// finds what it says). A to-one is compared by its target's key (`.equals("author", 7)`); a value
/// is compared as the attribute stores it (`.atLeast("createdAt", "2024-01-01")` reads the text as
/// a date), and `.notEquals` holds for an object without a value, as in Core Data.
public indirect enum Condition: Sendable, Equatable {
    case compare(String, Comparison, SQLValue)
    /// The attribute holds one of the values.
    case oneOf(String, [SQLValue])
    /// The attribute holds no value (NULL).
    case isNull(String)
    /// Text that starts with the given text (case-sensitive).
    case hasPrefix(String, String)
    /// Text that contains the given text (case-sensitive).
    case contains(String, String)
    case and([Condition])
    case or([Condition])
    case not(Condition)

    public enum Comparison: String, Sendable, Equatable {
        case equal = "="
        case notEqual = "<>"
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    public static func equals(_ name: String, _ value: some GraphValue) -> Condition { .compare(name, .equal, value.storedValue) }
    public static func notEquals(_ name: String, _ value: some GraphValue) -> Condition { .compare(name, .notEqual, value.storedValue) }
    public static func lessThan(_ name: String, _ value: some GraphValue) -> Condition { .compare(name, .less, value.storedValue) }
    public static func atMost(_ name: String, _ value: some GraphValue) -> Condition { .compare(name, .lessOrEqual, value.storedValue) }
    public static func greaterThan(_ name: String, _ value: some GraphValue) -> Condition { .compare(name, .greater, value.storedValue) }
    public static func atLeast(_ name: String, _ value: some GraphValue) -> Condition { .compare(name, .greaterOrEqual, value.storedValue) }
    public static func `in`(_ name: String, _ values: [some GraphValue]) -> Condition { .oneOf(name, values.map(\.storedValue)) }
    public static func isNotNull(_ name: String) -> Condition { .not(.isNull(name)) }
}

/// An attribute to sort by, by the map's name.
public struct SortKey: Sendable {
    public var name: String
    public var ascending: Bool

    public static func ascending(_ name: String) -> SortKey { SortKey(name: name, ascending: true) }
    public static func descending(_ name: String) -> SortKey { SortKey(name: name, ascending: false) }
}
