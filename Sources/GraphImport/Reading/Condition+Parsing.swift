import GraphImportSchema

extension Condition {
    /// Most comparisons a condition written as text may hold: each is one level of the SQL
    /// expression, and SQLite refuses a tree deeper than 1,000 (an error that quoted the whole
    /// statement, an I/O exit).
    public static let maxComparisons = 200

    /// A condition written as text, as `graphimport export --where` takes it:
    ///
    ///     condition   = comparison { "and" comparison }
    ///     comparison  = NAME ( "=" | "!=" | "<" | "<=" | ">" | ">=" ) VALUE | NAME "is" ["not"] "null"
    ///     VALUE       = "text" (JSON escapes) | number | true | false | null
    ///
    /// Keywords ignore case. NAME is an attribute, or a to-one compared by its target's key; names
    /// are checked when the condition is compiled against an entity, not here. A value is only
    /// ever bound, never SQL text. Text that does not parse throws `GraphError.Kind.syntax`, saying
    /// at which column.
    public init(parsing text: String) throws(GraphError) {
        var scanner = ConditionScanner(text: Array(text.unicodeScalars))
        var parts: [Condition] = []
        repeat {
            guard parts.count < Condition.maxComparisons else {
                throw GraphError(
                    .syntax, "the condition has more than \(Condition.maxComparisons) comparisons",
                    hint: "select objects by --key, or export the entity and filter its output (jq)")
            }
            parts.append(try scanner.comparison())
        } while scanner.word("and")
        guard scanner.atEnd else { throw scanner.expected("'and' or the end of the condition") }
        self = parts.count == 1 ? parts[0] : .and(parts)
    }
}

/// Reads a condition's words, names and values, one comparison at a time.
private struct ConditionScanner {
    let text: [Unicode.Scalar]
    var position = 0

    var atEnd: Bool {
        mutating get {
            skipSpaces()
            return position == text.count
        }
    }

    /// `NAME op VALUE` or `NAME is [not] null`.
    mutating func comparison() throws(GraphError) -> Condition {
        guard let name = name() else { throw expected("an attribute name") }
        if word("is") {
            let negated = word("not")
            guard word("null") else { throw expected("null") }
            return negated ? .isNotNull(name) : .isNull(name)
        }
        skipSpaces()
        let operatorColumn = position + 1
        guard let comparison = comparisonOperator() else { throw expected("=, !=, <, <=, > or >=") }
        if word("null") {
            switch comparison {
            case .equal: return .isNull(name)
            case .notEqual: return .isNotNull(name)
            default: throw syntax("null can only be compared with = or != (at column \(operatorColumn))", hint: "write NAME is null")
            }
        }
        guard let value = try value() else { throw expected("a value (\"text\", a number, true or false)") }
        return .compare(name, comparison, value)
    }

    mutating func skipSpaces() {
        while position < text.count, text[position].properties.isWhitespace { position += 1 }
    }

    static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
    }

    mutating func name() -> String? {
        skipSpaces()
        let start = position
        while position < text.count, Self.isNameScalar(text[position]) { position += 1 }
        guard position > start, !("0"..."9").contains(text[start]) else {
            position = start
            return nil
        }
        return String(String.UnicodeScalarView(text[start..<position]))
    }

    /// A keyword (ignoring ASCII case), consumed only when it is there as a whole word.
    mutating func word(_ word: String) -> Bool {
        let start = position
        if let found = name(), found.lowercased() == word { return true }
        position = start
        return false
    }

    mutating func comparisonOperator() -> Condition.Comparison? {
        skipSpaces()
        let operators: [(String, Condition.Comparison)] = [
            ("!=", .notEqual), ("<=", .lessOrEqual), (">=", .greaterOrEqual), ("=", .equal), ("<", .less), (">", .greater),
        ]
        for (text, comparison) in operators {
            let scalars = Array(text.unicodeScalars)
            if position + scalars.count <= self.text.count, Array(self.text[position..<position + scalars.count]) == scalars {
                position += scalars.count
                return comparison
            }
        }
        return nil
    }

    /// Text, a number, or a truth value, as the store keeps it (true is 1); nil when none is there.
    mutating func value() throws(GraphError) -> SQLValue? {
        skipSpaces()
        guard position < text.count else { return nil }
        if text[position] == "\"" { return .text(try string()) }
        if word("true") { return true.storedValue }
        if word("false") { return false.storedValue }
        let start = position
        while position < text.count, "+-.eE0123456789".unicodeScalars.contains(text[position]) { position += 1 }
        let number = String(String.UnicodeScalarView(text[start..<position]))
        if let integer = Int64(number) { return .integer(integer) }
        if let double = Double(number), double.isFinite { return .real(double) }
        position = start
        return nil
    }

    /// A double-quoted string with JSON's escapes.
    mutating func string() throws(GraphError) -> String {
        let opening = position + 1
        position += 1
        var out = String.UnicodeScalarView()
        while position < text.count {
            let scalar = text[position]
            position += 1
            if scalar == "\"" { return String(out) }
            guard scalar == "\\", position < text.count else {
                out.append(scalar)
                continue
            }
            let escaped = text[position]
            position += 1
            switch escaped {
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "\"", "\\", "/": out.append(escaped)
            case "u":
                guard position + 4 <= text.count, let value = UInt32(String(String.UnicodeScalarView(text[position..<position + 4])), radix: 16),
                    let decoded = Unicode.Scalar(value)
                else { throw syntax("invalid \\u escape in the condition at column \(position - 1)", hint: "write \\u and four hex digits") }
                position += 4
                out.append(decoded)
            default:
                throw syntax("invalid escape \\\(escaped) in the condition at column \(position - 1)", hint: "escapes are JSON's: \\\" \\\\ \\n \\t \\uXXXX")
            }
        }
        throw syntax("the condition's text value opened at column \(opening) is not closed with \"", hint: nil)
    }

    func syntax(_ message: String, hint: String?) -> GraphError { GraphError(.syntax, message, hint: hint) }

    func expected(_ what: String) -> GraphError {
        var at = min(position, text.count)
        while at < text.count, text[at].properties.isWhitespace { at += 1 }
        let rest = String(String.UnicodeScalarView(text[at...]))
        return syntax(
            "in the condition, expected \(what) at column \(at + 1)\(rest.isEmpty ? ", found its end" : ", found '\(rest.prefix(20))'")",
            hint: "write NAME = VALUE [and NAME = VALUE …], with =, !=, <, <=, >, >= or 'is null'; text in double quotes")
    }
}
