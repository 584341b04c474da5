import GraphImportStore

/// A condition over an entity's attributes, by the map's names, for `ObjectGraph.objects`.
///
/// Compiled to SQL once per query: names become quoted columns, values become bound parameters,
/// so a value is never SQL text (`.equals("text", "'; DROP TABLE tweet; --")` finds what it says).
public indirect enum Condition: Sendable {
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

    public enum Comparison: String, Sendable {
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

/// A condition compiled against one entity: its SQL text and the values bound to its `?`s.
struct CompiledCondition: Equatable {
    var sql: String
    var values: [SQLValue]

    /// Compiles `condition` with `column` resolving each attribute name (and throwing for an unknown one).
    init(_ condition: Condition, column: (String) throws(GraphError) -> String) throws(GraphError) {
        var values: [SQLValue] = []
        func compile(_ condition: Condition) throws(GraphError) -> String {
            switch condition {
            case .compare(let name, let comparison, let value):
                let column = try column(name)
                if value.isNull {
                    // `= NULL` holds for nothing in SQL; the caller meant "has no value".
                    switch comparison {
                    case .equal: return "\(column) IS NULL"
                    case .notEqual: return "\(column) IS NOT NULL"
                    default: break
                    }
                }
                values.append(value)
                return "\(column) \(comparison.rawValue) ?"
            case .oneOf(let name, let list):
                let column = try column(name)
                // `IN ()` is not SQL; no value is held by an empty list.
                if list.isEmpty { return "1 = 0" }
                values += list
                return "\(column) IN (" + Array(repeating: "?", count: list.count).joined(separator: ", ") + ")"
            case .isNull(let name):
                return "\(try column(name)) IS NULL"
            case .hasPrefix(let name, let prefix):
                let column = try column(name)
                values += [.integer(Int64(prefix.unicodeScalars.count)), .text(prefix)]
                return "substr(\(column), 1, ?) = ?"
            case .contains(let name, let part):
                let column = try column(name)
                values.append(.text(part))
                return "instr(\(column), ?) > 0"
            case .and(let parts):
                if parts.isEmpty { return "1 = 1" }
                var compiled: [String] = []
                for part in parts { compiled.append(try compile(part)) }
                return "(" + compiled.joined(separator: " AND ") + ")"
            case .or(let parts):
                if parts.isEmpty { return "1 = 0" }
                var compiled: [String] = []
                for part in parts { compiled.append(try compile(part)) }
                return "(" + compiled.joined(separator: " OR ") + ")"
            case .not(let part):
                return "NOT (\(try compile(part)))"
            }
        }
        sql = try compile(condition)
        self.values = values
    }
}
