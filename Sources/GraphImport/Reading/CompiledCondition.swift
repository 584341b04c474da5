import GraphImportMapping
import GraphImportSchema

/// What one name in a condition compares, resolved against an entity (`GraphNames.conditionTerm`).
struct ConditionTerm {
    /// The SQL that reads the stored value: a column, or `NULL` for one the store does not have yet.
    var column: String
    /// How the values compared with it are stored; nil compares values as they are given.
    var type: ValueType?
    /// `Tweet.lang`, for messages.
    var described: String
    /// For a to-one: `column` holds the target's row id, and values are compared with the target's
    /// key, `key` of the row of `table` (both SQL).
    var target: (table: String, key: String)?

    /// `predicate` of the column's value, or for a to-one of its target's key.
    func test(_ predicate: (String) -> String) -> String {
        guard let target else { return predicate(column) }
        return "\(column) IN (SELECT \(quoteIdentifier(Naming.primaryKey)) FROM \(target.table) WHERE \(predicate(target.key)))"
    }

    /// `value` as the column stores it: text compared with a number, date, bool or URL is read as an
    /// import reads it (`"2024-01-01"` becomes the stored date text, `"old"` is refused for an Int),
    /// a number compared with text becomes its text. Other values are compared as given.
    func stored(_ value: SQLValue) throws(GraphError) -> SQLValue {
        guard let type else { return value }
        let literal: Literal
        switch (value, type) {
        case (.text(let text), .int), (.text(let text), .double), (.text(let text), .bool), (.text(let text), .date), (.text(let text), .url):
            literal = .string(text)
        case (.integer(let number), .string): literal = .int(number)
        case (.real(let number), .string): literal = .double(number)
        default: return value
        }
        do { return try literalValue(literal, as: type, converters: .standard) } catch {
            throw GraphError(.misuse, "\(literal) cannot be compared with \(described) (\(type.rawValue)): \(error.message)")
        }
    }
}

/// A condition compiled against one entity: its SQL text and the values bound to its `?`s.
struct CompiledCondition: Equatable {
    var sql: String
    var values: [SQLValue]

    /// Compiles `condition` in `dialect` with `term` resolving each name (and throwing for an unknown one).
    init(_ condition: Condition, dialect: SQLDialect, term: (String) throws(GraphError) -> ConditionTerm) throws(GraphError) {
        var values: [SQLValue] = []
        func compile(_ condition: Condition) throws(GraphError) -> String {
            switch condition {
            case .compare(let name, let comparison, let given):
                let term = try term(name)
                let value = try term.stored(given)
                if value.isNull {
                    // `= NULL` holds for nothing in SQL; the caller meant "has no value".
                    switch comparison {
                    case .equal: return "\(term.column) IS NULL"
                    case .notEqual: return "\(term.column) IS NOT NULL"
                    default: break
                    }
                }
                values.append(value)
                if comparison == .notEqual, term.target != nil {
                    // An object without the link does not hold the key either.
                    return "(\(term.column) IS NULL OR NOT \(term.test { "\($0) = ?" }))"
                }
                // `<>` holds for no row without a value; "not equal" means "does not hold this value".
                return term.test { comparison == .notEqual ? dialect.isDistinct($0, "?") : "\($0) \(comparison.rawValue) ?" }
            case .oneOf(let name, let list):
                let term = try term(name)
                // `IN ()` is not SQL; no value is held by an empty list.
                if list.isEmpty { return "1 = 0" }
                for value in list { values.append(try term.stored(value)) }
                return term.test { "\($0) IN (" + Array(repeating: "?", count: list.count).joined(separator: ", ") + ")" }
            case .isNull(let name):
                return "\(try term(name).column) IS NULL"
            case .hasPrefix(let name, let prefix):
                let term = try term(name)
                values += [.integer(Int64(prefix.unicodeScalars.count)), .text(prefix)]
                return term.test { "substr(\($0), 1, CAST(? AS INTEGER)) = ?" }
            case .contains(let name, let part):
                let term = try term(name)
                values.append(.text(part))
                return term.test { dialect.contains($0, "?") }
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
