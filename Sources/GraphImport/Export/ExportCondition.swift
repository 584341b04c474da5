import GraphImportMapping
import GraphImportStore

/// A condition on an entity's attributes, as `--where` writes it, compiled to SQL whose values are
/// all bound parameters: the text of a value never becomes SQL.
///
///     condition   = comparison { "and" comparison }
///     comparison  = NAME ( "=" | "!=" | "<" | "<=" | ">" | ">=" ) VALUE | NAME "is" ["not"] "null"
///     VALUE       = "text" (JSON escapes) | number | true | false | null
///
/// NAME is an attribute, or a to-one relationship compared by its target's key
/// (`author = 12`). A date is compared as the store keeps it (`createdAt >= "2024-01-01"`).
struct ExportCondition {
    /// The SQL after `WHERE`, with `?` for each value.
    let sql: String
    let values: [SQLValue]

    init(_ text: String, entity: EntityPlan, entities: [EntityPlan]) throws(ExportError) {
        var scanner = ConditionScanner(text: Array(text.unicodeScalars))
        var parts: [String] = []
        var values: [SQLValue] = []
        repeat {
            guard let name = scanner.name() else { throw scanner.expected("an attribute name") }
            let (column, type, subquery) = try Self.resolve(name, in: entity, entities: entities)
            let operation: String
            var literal: Literal?
            if scanner.word("is") {
                let negated = scanner.word("not")
                guard scanner.word("null") else { throw scanner.expected("null") }
                operation = negated ? "IS NOT NULL" : "IS NULL"
            } else {
                guard let op = scanner.comparison() else { throw scanner.expected("=, !=, <, <=, > or >=") }
                if scanner.word("null") {
                    guard op == "=" || op == "!=" else { throw ExportError.badRequest("null can only be compared with = or !=", hint: nil) }
                    operation = op == "=" ? "IS NULL" : "IS NOT NULL"
                } else {
                    guard let value = try scanner.literal() else { throw scanner.expected("a value (\"text\", a number, true or false)") }
                    literal = value
                    operation = op == "!=" ? "IS NOT ?" : op + " ?"
                }
            }
            if let literal {
                do {
                    values.append(try literalValue(literal, as: type, converters: .standard))
                } catch {
                    throw ExportError.badRequest("\(literal) cannot be compared with \(entity.name).\(name) (\(type.rawValue)): \(error.message)", hint: nil)
                }
            }
            if let subquery {
                parts.append(
                    operation.hasSuffix("NULL") ? "\(quoteIdentifier(column)) \(operation)" : "\(quoteIdentifier(column)) IN (\(subquery) \(operation))")
            } else {
                parts.append("\(quoteIdentifier(column)) \(operation)")
            }
        } while scanner.word("and")
        guard scanner.atEnd else { throw scanner.expected("'and' or the end of the condition") }
        sql = parts.joined(separator: " AND ")
        self.values = values
    }

    /// The column for `name`, its type, and for a to-one the subquery that finds the target's pk by key.
    static func resolve(_ name: String, in entity: EntityPlan, entities: [EntityPlan]) throws(ExportError) -> (String, ValueType, String?) {
        if let attribute = entity.attributes.first(where: { $0.name == name }) { return (attribute.column, attribute.type, nil) }
        if let relationship = entity.toOne.first(where: { $0.name == name }) {
            let target = entities[relationship.target]
            guard target.keyAttributes.count == 1 else {
                throw ExportError.badRequest(
                    "\(entity.name).\(name) leads to \(target.name), whose key has several attributes", hint: "compare one of its own attributes instead")
            }
            let key = target.attributes[target.keyAttributes[0]]
            return (
                relationship.column, key.type,
                "SELECT \(quoteIdentifier(Naming.primaryKey)) FROM \(quoteIdentifier(target.table)) WHERE \(quoteIdentifier(key.column))"
            )
        }
        let names = entity.attributes.map(\.name) + entity.toOne.map(\.name)
        let toMany = entity.toMany.contains { $0.name == name }
        throw ExportError.unknownName(
            toMany
                ? "\(entity.name).\(name) is a to-many relationship; a condition compares attributes and to-ones"
                : "\(entity.name) has no attribute or to-one relationship '\(name)'",
            hint: toMany ? nil : closestMatch(to: name, among: names).map { "did you mean '\($0)'?" })
    }
}

/// Reads a condition's words, names and values.
private struct ConditionScanner {
    let text: [Unicode.Scalar]
    var position = 0

    var atEnd: Bool {
        mutating get {
            skipSpaces()
            return position == text.count
        }
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
        guard position > start, !("0"..."9").contains(text[start]) else { position = start; return nil }
        return String(String.UnicodeScalarView(text[start..<position]))
    }

    /// A keyword (ignoring ASCII case), consumed only when it is there as a whole word.
    mutating func word(_ word: String) -> Bool {
        let start = position
        if let found = name(), found.lowercased() == word { return true }
        position = start
        return false
    }

    mutating func comparison() -> String? {
        skipSpaces()
        for op in ["!=", "<=", ">=", "=", "<", ">"] {
            let scalars = Array(op.unicodeScalars)
            if position + scalars.count <= text.count, Array(text[position..<position + scalars.count]) == scalars {
                position += scalars.count
                return op
            }
        }
        return nil
    }

    mutating func literal() throws(ExportError) -> Literal? {
        skipSpaces()
        guard position < text.count else { return nil }
        if text[position] == "\"" { return .string(try string()) }
        if word("true") { return .bool(true) }
        if word("false") { return .bool(false) }
        let start = position
        while position < text.count, "+-.eE0123456789".unicodeScalars.contains(text[position]) { position += 1 }
        let number = String(String.UnicodeScalarView(text[start..<position]))
        if let integer = Int64(number) { return .int(integer) }
        if let double = Double(number), double.isFinite { return .double(double) }
        position = start
        return nil
    }

    /// A double-quoted string with JSON's escapes.
    mutating func string() throws(ExportError) -> String {
        position += 1
        var out = String.UnicodeScalarView()
        while position < text.count {
            let scalar = text[position]
            position += 1
            if scalar == "\"" { return String(out) }
            guard scalar == "\\", position < text.count else { out.append(scalar); continue }
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
                else { throw ExportError.badRequest("invalid \\u escape in the condition", hint: nil) }
                position += 4
                out.append(decoded)
            default: throw ExportError.badRequest("invalid escape \\\(escaped) in the condition", hint: "escapes are JSON's: \\\" \\\\ \\n \\t \\uXXXX")
            }
        }
        throw ExportError.badRequest("the condition's text value is not closed with \"", hint: nil)
    }

    func expected(_ what: String) -> ExportError {
        let rest = String(String.UnicodeScalarView(text[min(position, text.count)...]))
        return ExportError.badRequest(
            "in the condition, expected \(what) at column \(position + 1)\(rest.isEmpty ? ", found its end" : ", found '\(rest.prefix(20))'")",
            hint: "write NAME = VALUE [and NAME = VALUE …], with =, !=, <, <=, >, >= or 'is null'; text in double quotes")
    }
}
