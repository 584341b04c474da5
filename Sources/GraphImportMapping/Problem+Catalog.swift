/// Every message the map reader can produce, in one place and one voice: lower case, no final
/// period, names in single quotes, map syntax in backquotes.
extension Problem {
    // MARK: Syntax

    static func expected(_ what: String, found: String, at offset: Int) -> Problem {
        Problem("expected \(what), found \(found)", at: offset)
    }

    static func unknownStatement(_ word: String, suggestion: String?, at offset: Int) -> Problem {
        Problem(
            "unknown statement '\(word)'",
            hint: didYouMean(suggestion)
                ?? "a line is `records at PATH`, `entity NAME`, `key NAME` or an attribute `name <- path : Type`",
            at: offset)
    }

    static func memberOutsideEntity(_ name: String, at offset: Int) -> Problem {
        Problem(
            "'\(name)' appears before any entity",
            hint: "attribute and relationship lines belong to the `entity NAME` line above them", at: offset)
    }

    static func keyOutsideEntity(at offset: Int) -> Problem {
        Problem("'key' appears before any entity", hint: "put `key NAME` below the `entity NAME` line it belongs to", at: offset)
    }

    static func unterminatedString(at offset: Int) -> Problem {
        Problem("unterminated string", hint: "close it with '\"' on the same line", at: offset)
    }

    static func unknownEscape(_ escape: String, at offset: Int) -> Problem {
        Problem("unknown escape '\(escape)' in a string", hint: stringEscapes, at: offset)
    }

    static func badUnicodeEscape(_ escape: String, at offset: Int) -> Problem {
        Problem(
            "'\(escape)' is not a Unicode escape",
            hint: "write '\\u' and four hex digits naming a Unicode scalar (not a surrogate)", at: offset)
    }

    static func integerTooLarge(_ text: String, at offset: Int) -> Problem {
        Problem("integer '\(text)' does not fit in 64 bits", at: offset)
    }

    static func anyIndexOutsideRecords(at offset: Int) -> Problem {
        Problem(
            "'[*]' is allowed only in a `records` path",
            hint: "a to-many relationship `name <- path : [Entity]` maps arrays", at: offset)
    }

    static func keyStartsWithDollar(_ key: String, at offset: Int) -> Problem {
        Problem(
            "a path cannot start with '\(key)': a leading '$' is the whole object",
            hint: "write `$.\(key)` or `\"\(key)\"` for a key that starts with '$'", at: offset)
    }

    static func emptyTableName(at offset: Int) -> Problem {
        Problem("a table name cannot be empty", at: offset)
    }

    // MARK: Names and types

    static func noEntity(at offset: Int) -> Problem {
        Problem(
            "the map declares no entity",
            hint: "add `entity NAME`, a `key` line and attribute lines `name <- path : Type`", at: offset)
    }

    static func duplicate(_ what: String, _ name: String, firstLine: Int, differsInCase: Bool, at offset: Int) -> Problem {
        Problem(
            "duplicate \(what) '\(name)' (already declared at line \(firstLine))",
            hint: differsInCase ? "names are compared ignoring case because they become SQL names" : nil, at: offset)
    }

    static func entityNamedLikeType(_ name: String, at offset: Int) -> Problem {
        Problem("an entity cannot be named '\(name)', like the built-in type", hint: "built-in types are \(builtInTypes)", at: offset)
    }

    static func reservedName(_ what: String, _ name: String, at offset: Int) -> Problem {
        Problem(
            "\(what) '\(name)' uses the reserved prefix '\(reservedPrefix)'",
            hint: "graphimport keeps its own tables under that prefix", at: offset)
    }

    static func tableInUse(_ table: String, by entity: String, line: Int, at offset: Int) -> Problem {
        Problem("table '\(table)' is already used by entity '\(entity)' (line \(line))", at: offset)
    }

    static func unknownType(_ name: String, suggestion: String?, at offset: Int) -> Problem {
        Problem(
            "unknown type '\(name)'",
            hint: didYouMean(suggestion) ?? "a type is one of \(builtInTypes), or the name of an entity", at: offset)
    }

    static func noEntityNamed(_ name: String, suggestion: String?, at offset: Int) -> Problem {
        Problem("no entity named '\(name)'", hint: didYouMean(suggestion) ?? "declare it with `entity \(name)`", at: offset)
    }

    static func arrayOfValues(_ type: String, at offset: Int) -> Problem {
        Problem(
            "'[\(type)]' is not a type: only an entity can be in brackets, as a to-many relationship",
            hint: "keep the whole array as JSON text with `: JSON`", at: offset)
    }

    static func inverseOnAttribute(_ name: String, type: String, at offset: Int) -> Problem {
        Problem(
            "attribute '\(name)' cannot have an inverse",
            hint: "'\(type)' is a built-in type; only a relationship to an entity has an inverse", at: offset)
    }

    static func convertersOnRelationship(_ name: String, target: String, at offset: Int) -> Problem {
        Problem(
            "relationship '\(name)' cannot have converters",
            hint: "'\(target)' is an entity; convert values in its own attribute lines", at: offset)
    }

    // MARK: Converters

    static func unknownConverter(_ name: String, suggestion: String?, known: [String], at offset: Int) -> Problem {
        let list = known.isEmpty ? "there are no converters" : "the converters are " + known.joined(separator: ", ")
        return Problem("unknown converter '\(name)'", hint: didYouMean(suggestion) ?? list, at: offset)
    }

    static func converterArity(_ signature: ConverterSignature, found: Int, at offset: Int) -> Problem {
        let total = signature.parameters.count
        let count =
            total == 0
            ? "no arguments"
            : signature.requiredCount == total
                ? "\(total) argument\(total == 1 ? "" : "s")" : "\(signature.requiredCount) to \(total) arguments"
        let kinds = signature.parameters.enumerated().map { index, kind in
            (index >= signature.requiredCount ? "optionally " : "") + describe(kind)
        }
        let list = kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))"
        return Problem("converter '\(signature.name)' takes \(count)\(list), found \(found)", at: offset)
    }

    static func converterArgument(_ converter: String, position: Int, expected: LiteralKind, found: Literal, at offset: Int)
        -> Problem
    {
        Problem("argument \(position) of converter '\(converter)' must be \(describe(expected)), found \(found)", at: offset)
    }

    // MARK: Keys

    static func missingKey(_ entity: String, at offset: Int) -> Problem {
        Problem(
            "entity '\(entity)' has no key",
            hint: "add `key <attribute>` naming the attribute(s) that identify a \(entity)", at: offset)
    }

    static func secondKey(_ entity: String, firstLine: Int, at offset: Int) -> Problem {
        Problem(
            "entity '\(entity)' already has a key (line \(firstLine))",
            hint: "name every key attribute on one line: `key owner, name`", at: offset)
    }

    static func keyNamesNothing(_ name: String, entity: String, suggestion: String?, at offset: Int) -> Problem {
        Problem("no attribute named '\(name)' in entity '\(entity)'", hint: didYouMean(suggestion), at: offset)
    }

    static func keyNamesRelationship(_ name: String, at offset: Int) -> Problem {
        Problem("a key must name attributes; '\(name)' is a relationship", at: offset)
    }

    static func optionalKey(_ name: String, at offset: Int) -> Problem {
        Problem(
            "key attribute '\(name)' cannot be optional",
            hint: "every object has its key: remove the '?' from the type of '\(name)'", at: offset)
    }

    static func repeatedKeyName(_ name: String, at offset: Int) -> Problem {
        Problem("'\(name)' appears twice in the key", at: offset)
    }

    // MARK: Inverses

    static func inverseClash(_ inverse: String, target: String, member: String, kind: String, at offset: Int) -> Problem {
        Problem(
            "inverse '\(inverse)' clashes with \(kind) '\(member)' of entity '\(target)'",
            hint: "choose an inverse name that '\(target)' does not use", at: offset)
    }

    static func duplicateInverse(_ inverse: String, target: String, firstOwner: String, line: Int, at offset: Int) -> Problem {
        Problem(
            "entity '\(target)' already has an inverse named '\(inverse)', from '\(firstOwner)' (line \(line))",
            hint: "give each relationship into '\(target)' its own inverse name", at: offset)
    }

    // MARK: Wording helpers

    static let reservedPrefix = "graphimport_"
    static let builtInTypes = ValueType.allCases.map(\.rawValue).joined(separator: ", ")
    static let stringEscapes = "a string accepts \\\" \\\\ \\n \\t and \\uXXXX"

    static func didYouMean(_ suggestion: String?) -> String? { suggestion.map { "did you mean '\($0)'?" } }

    static func describe(_ kind: LiteralKind) -> String {
        switch kind {
        case .string: "a string"
        case .int: "an integer"
        case .double: "a number"
        case .bool: "true or false"
        }
    }
}
