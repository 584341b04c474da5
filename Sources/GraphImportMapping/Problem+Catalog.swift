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

    static func loneStepNotLast(at offset: Int) -> Problem {
        Problem(
            "'[*?]' must be the last step of a `records` path",
            hint: "a lone object counts as the one element only where the records are; write `[*]` further in", at: offset)
    }

    static func stepAfterMemberName(_ word: String, at offset: Int) -> Problem {
        word == "$key"
            ? Problem(
                "`$key` is the name of a member and has nothing below it",
                hint: "read the member's value with a path of its own: `$key` for its name, `$` or a key for its value", at: offset)
            : Problem(
                "`$index` is a position in an array and has nothing below it",
                hint: "read the element's values with paths of their own: `$index` for its position, a key for a value", at: offset)
    }

    static func elementIndexOutsideAttribute(_ place: String, at offset: Int) -> Problem {
        Problem(
            "`$index` cannot be the path of \(place)",
            hint: "`$index` is the position of an object in its array; an attribute reads it: `position <- $index : Int`", at: offset)
    }

    static func elementIndexUnreached(_ entity: String, _ why: String, at offset: Int) -> Problem {
        Problem(
            "`$index` is read by \(entity), but \(why)",
            hint:
                "`$index` is the 0-based position of a record taken by `[*]` or `[*?]`, or of an element of a to-many's array: take \(entity) objects with `records at PATH[*] as \(entity)` or `NAME <- PATH : [\(entity)]`",
            at: offset)
    }

    static func memberNameOutsideAttribute(_ place: String, at offset: Int) -> Problem {
        Problem(
            "`$key` cannot be the path of \(place)",
            hint: "`$key` is the name of the member an object was taken from by `{*}`; an attribute reads it: `id <- $key : String`",
            at: offset)
    }

    static func anyMemberMisplaced(at offset: Int) -> Problem {
        Problem(
            "'{*}' is allowed only in a `records` path and at the end of a to-many's path",
            hint: "`{*}` takes every member of an object: `records at users{*}`, or `members <- team.members{*} : [User]`",
            at: offset)
    }

    static func memberNameUnreached(_ entity: String, at offset: Int) -> Problem {
        Problem(
            "`$key` is read by \(entity), but no `{*}` takes \(entity) objects from an object's members",
            hint: "take \(entity) objects with `records at PATH{*} as \(entity)` or a to-many `NAME <- PATH{*} : [\(entity)]`",
            at: offset)
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

    /// `file` names the file of the first use when it is not the one of the second.
    static func tableInUse(_ table: String, by entity: String, line: Int, file: String? = nil, at offset: Int) -> Problem {
        Problem("table '\(table)' is already used by entity '\(entity)' (\(lineReference(line, file)))", at: offset)
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

    /// `role` is "converter", or "check" for a `check` clause's validator.
    static func converterArity(_ signature: ConverterSignature, role: String = "converter", found: Int, at offset: Int) -> Problem {
        let total = signature.parameters.count
        let required = signature.requiredCount
        let count =
            signature.isVariadic
            ? "at least \(required) argument\(required == 1 ? "" : "s")"
            : total == 0
                ? "no arguments"
                : required == total ? "\(total) argument\(total == 1 ? "" : "s")" : "\(required) to \(total) arguments"
        var kinds = signature.parameters.enumerated().map { index, kind in
            (index >= required ? "optionally " : "") + describe(kind)
        }
        if signature.isVariadic, !kinds.isEmpty { kinds.append("…") }
        let list = kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))"
        return Problem("\(role) '\(signature.name)' takes \(count)\(list), found \(found)", at: offset)
    }

    static func converterArgument(
        _ converter: String, role: String = "converter", position: Int, expected: LiteralKind, found: Literal, at offset: Int
    ) -> Problem {
        Problem("argument \(position) of \(role) '\(converter)' must be \(describe(expected)), found \(found)", at: offset)
    }

    static func unknownCheck(_ name: String, suggestion: String?, known: [String], at offset: Int) -> Problem {
        let list = known.isEmpty ? "there are no checks" : "the checks are " + known.joined(separator: ", ")
        return Problem("unknown check '\(name)'", hint: didYouMean(suggestion) ?? list, at: offset)
    }

    // MARK: Keys

    static func missingKey(_ entity: String, at offset: Int) -> Problem {
        Problem(
            "entity '\(entity)' has no key",
            hint: "add `key <attribute>` naming the attribute(s) that identify a \(entity)"
                + ", or write `entity \(entity) owned` for nested objects with no identity of their own", at: offset)
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

    static func storedOnceRefuses(_ what: String, pair: String, hint: String, at offset: Int) -> Problem {
        Problem("\(pair) are inverses of each other, stored once as a foreign key, which cannot take \(what)", hint: hint, at: offset)
    }

    static func duplicateInverse(
        _ inverse: String, target: String, firstOwner: String, line: Int, file: String? = nil, at offset: Int
    ) -> Problem {
        Problem(
            "entity '\(target)' already has an inverse named '\(inverse)', from '\(firstOwner)' (\(lineReference(line, file)))",
            hint: "give each relationship into '\(target)' its own inverse name", at: offset)
    }

    // MARK: Clauses

    static func unknownClause(_ word: String, suggestion: String, at offset: Int) -> Problem {
        Problem("unknown clause '\(word)'", hint: didYouMean(suggestion), at: offset)
    }

    static func repeatedClause(_ keyword: String, member: String, at offset: Int) -> Problem {
        Problem(
            "'\(keyword)' appears twice on '\(member)'",
            hint: "each clause appears at most once on a line; only 'check' may repeat", at: offset)
    }

    static func unknownDeleteRule(_ word: String, suggestion: String, at offset: Int) -> Problem {
        Problem("unknown delete rule '\(word)'", hint: didYouMean(suggestion), at: offset)
    }

    static func relationshipClauseOnAttribute(_ name: String, clause: String, type: String, at offset: Int) -> Problem {
        Problem(
            "attribute '\(name)' cannot have '\(clause)'",
            hint: "'\(type)' is a built-in type; only a relationship to an entity has '\(clause)'", at: offset)
    }

    static func attributeClauseOnRelationship(_ name: String, clause: String, target: String, at offset: Int) -> Problem {
        Problem(
            "relationship '\(name)' cannot have '\(clause)'",
            hint: "'\(target)' is an entity; 'default', 'always', 'onchange', 'null', 'missing', 'check' and 'derived' belong to attributes",
            at: offset)
    }

    static func eachOnToOne(_ name: String, target: String, at offset: Int) -> Problem {
        Problem(
            "'each' applies only to a to-many relationship, or a to-one with `where`; '\(name)' is a to-one",
            hint: "write the path to the \(target) itself after '<-', or make the type `[\(target)]`", at: offset)
    }

    static func valueDoesNotFit(_ clause: String, _ value: ValueExpression, type: ValueType, at offset: Int) -> Problem {
        Problem("\(clause) \(value) does not fit type \(type.rawValue)", hint: valuesOf(type, clause: clause), at: offset)
    }

    static func notISODate(_ clause: String, _ text: String, at offset: Int) -> Problem {
        Problem("\(clause) \"\(text)\" is not an ISO 8601 date", hint: valuesOf(.date, clause: clause), at: offset)
    }

    static func nullOnRequired(_ name: String, rule: String, at offset: Int) -> Problem {
        Problem(
            "'\(rule)' stores null, but attribute '\(name)' is required",
            hint: "make it optional with '?' after the type, or give a value instead", at: offset)
    }

    static func ruleWithoutSource(_ name: String, clause: String, at offset: Int) -> Problem {
        Problem(
            "attribute '\(name)' reads no JSON, so '\(clause)' never applies",
            hint: "add `<- path` to read a value, or remove '\(clause)'", at: offset)
    }

    static func derivedWithPath(_ name: String, at offset: Int) -> Problem {
        Problem(
            "derived attribute '\(name)' cannot have a path",
            hint: "its value is built from its template; remove `<- path`", at: offset)
    }

    static func derivedWithClause(_ name: String, clause: String, at offset: Int) -> Problem {
        Problem(
            "derived attribute '\(name)' cannot have '\(clause)'",
            hint: "its value always comes from its template", at: offset)
    }

    // MARK: Templates

    static func unterminatedTemplateReference(at offset: Int) -> Problem {
        Problem("unterminated '{' in a template", hint: "close it with '}', or write '{{' for a literal brace", at: offset)
    }

    static func unmatchedTemplateBrace(at offset: Int) -> Problem {
        Problem("unmatched '}' in a template", hint: "write '}}' for a literal brace", at: offset)
    }

    static func badTemplateReference(_ written: String, at offset: Int) -> Problem {
        Problem(
            "'\(written)' is not `{attribute}` or `{attribute:format}`",
            hint: "name an attribute of this entity; write '{{' and '}}' for literal braces", at: offset)
    }

    static func templateNamesNothing(_ name: String, entity: String, suggestion: String?, at offset: Int) -> Problem {
        Problem("the template names no attribute '\(name)' of entity '\(entity)'", hint: didYouMean(suggestion), at: offset)
    }

    static func templateNamesRelationship(_ name: String, at offset: Int) -> Problem {
        Problem("a template names attributes; '\(name)' is a relationship", at: offset)
    }

    static func templateNamesDerived(_ name: String, at offset: Int) -> Problem {
        Problem(
            "a template cannot use '\(name)', which is derived itself",
            hint: "name the attributes that '\(name)' is built from", at: offset)
    }

    // MARK: Entity statements

    static func statementOutsideEntity(_ keyword: String, written: String, at offset: Int) -> Problem {
        Problem("'\(keyword)' appears before any entity", hint: "put `\(written)` below the `entity NAME` line it belongs to", at: offset)
    }

    static func secondStatement(_ written: String, entity: String, firstLine: Int, at offset: Int) -> Problem {
        Problem("entity '\(entity)' already has `\(written)` (line \(firstLine))", at: offset)
    }

    static func extrasClash(_ name: String, entity: String, member: String, kind: String, at offset: Int) -> Problem {
        Problem(
            "extras '\(name)' clashes with \(kind) '\(member)' of entity '\(entity)'",
            hint: "choose a name that '\(entity)' does not use", at: offset)
    }

    static func withinNamesNothing(_ name: String, entity: String, suggestion: String?, at offset: Int) -> Problem {
        Problem(
            "no relationship named '\(name)' in entity '\(entity)'",
            hint: didYouMean(suggestion)
                ?? "`within` names a to-one relationship of '\(entity)', or the `inverse` name of a to-many into '\(entity)'", at: offset)
    }

    static func withinNotToOne(_ name: String, kind: String, at offset: Int) -> Problem {
        Problem(
            "`within` names a to-one relationship; '\(name)' is \(kind)",
            hint: "`within` names the parent of each object, one object: a to-one of this entity, or the `inverse` name of a to-many into it",
            at: offset)
    }

    // MARK: Meta

    static func metaTypeNotBuiltIn(_ name: String, type: String, at offset: Int) -> Problem {
        Problem("meta '\(name)' cannot have type '\(type)'", hint: "a meta value is one of \(builtInTypes)", at: offset)
    }

    static func unknownMetaType(_ type: String, suggestion: String?, at offset: Int) -> Problem {
        Problem("unknown type '\(type)'", hint: didYouMean(suggestion) ?? "a meta value is one of \(builtInTypes)", at: offset)
    }

    // MARK: Filters and fallback paths

    static func unknownFilterOperator(_ word: String, suggestion: String?, at offset: Int) -> Problem {
        Problem(
            "unknown operator '\(word)' in a `where` condition",
            hint: didYouMean(suggestion)
                ?? "a condition is `PATH = VALUE`, `PATH in (VALUE, …)`, `PATH has prefix \"…\"`, `PATH has suffix \"…\"`, `PATH matches \"…\"` or `PATH is present|absent|null`",
            at: offset)
    }

    static func emptyFilterList(at offset: Int) -> Problem {
        Problem("`in ()` lists no value, so nothing would be taken", hint: "write the values in the parentheses: `in (\"quoted\", \"retweeted\")`", at: offset)
    }

    static func repeatedFilterValue(_ value: Literal, at offset: Int) -> Problem {
        Problem("\(value) appears twice in the `in` list", at: offset)
    }

    static func filterEqualsNull(at offset: Int) -> Problem {
        Problem("a condition cannot compare with null", hint: "write `is null` (the key holds null) or `is absent` (no such key)", at: offset)
    }

    static func decimalFilterValue(_ value: Literal, at offset: Int) -> Problem {
        Problem(
            "\(value) is not a string, an integer, true or false", hint: "a condition compares with exact values; decimals are not exact",
            at: offset)
    }

    static func filterTextNotString(_ word: String, found: String, at offset: Int) -> Problem {
        Problem("'\(word)' takes a string, found \(found)", hint: "write the text in double quotes: `\(word) \"\(found)\"`", at: offset)
    }

    static func filterOnAttribute(_ name: String, type: String, at offset: Int) -> Problem {
        Problem(
            "attribute '\(name)' cannot have a `where` condition",
            hint: "'\(type)' is a built-in type; `where` picks the elements a relationship or a `records` line takes", at: offset)
    }

    static func repeatedFallbackPath(_ path: KeyPath, at offset: Int) -> Problem {
        Problem("path '\(path)' appears twice in the list of paths", hint: "each path of `<- a, b` is tried once, in order", at: offset)
    }

    // MARK: Polymorphic records

    static func asAndBy(at offset: Int) -> Problem {
        Problem(
            "a `records` line takes 'as' or 'by', not both",
            hint: "`as ENTITY` maps every record to one entity; `by PATH` chooses it with case lines", at: offset)
    }

    static func caseOutsideRecords(at offset: Int) -> Problem {
        Problem(
            "a case line must follow a `records … by PATH` line",
            hint: "write `records at PATH by PATH` and its case lines with nothing else in between", at: offset)
    }

    static func decimalCaseValue(_ value: Literal, at offset: Int) -> Problem {
        Problem("case value \(value) is not a string, an integer, true or false", at: offset)
    }

    static func noCases(at offset: Int) -> Problem {
        Problem(
            "`records … by` has no case lines",
            hint: "add lines such as `\"t1\" -> Comment` or `\"more\" -> ignore` below it", at: offset)
    }

    static func duplicateCase(_ value: Literal?, firstLine: Int, at offset: Int) -> Problem {
        Problem("duplicate case \(value.map { "\($0)" } ?? Keyword.else) (already declared at line \(firstLine))", at: offset)
    }

    // MARK: Wording helpers

    static let reservedPrefix = TableName.internalPrefix
    static let builtInTypes = ValueType.allCases.map(\.rawValue).joined(separator: ", ")
    static let stringEscapes = "a string accepts \\\" \\\\ \\n \\t and \\uXXXX"

    /// `line 3`, or `line 3 of common.map` for a line in another file.
    static func lineReference(_ line: Int, _ file: String?) -> String { "line \(line)" + (file.map { " of \($0)" } ?? "") }

    static func didYouMean(_ suggestion: String?) -> String? { suggestion.map { "did you mean '\($0)'?" } }

    /// What a clause's value may be for `type`; `now` and `run` only where a value expression is allowed.
    static func valuesOf(_ type: ValueType, clause: String) -> String {
        let expression = [Keyword.default, Keyword.always, Keyword.onchange].contains(clause)
        switch type {
        case .int: return "an Int value is an integer" + (expression ? ", or 'run' (the import's run id)" : "")
        case .double: return "a Double value is a number"
        case .bool: return "a Bool value is true or false"
        case .string, .url: return "a \(type.rawValue) value is a string in double quotes"
        case .data: return "a Data value is a base64 string in double quotes"
        case .date:
            return "a Date value is " + (expression ? "'now' or " : "")
                + "an ISO 8601 string such as \"2024-01-31\" or \"2024-01-31T12:00:00Z\""
        case .json: return "a JSON value is a string, a number, true or false"
        }
    }

    static func describe(_ kind: LiteralKind) -> String {
        switch kind {
        case .string: "a string"
        case .int: "an integer"
        case .double: "a number"
        case .bool: "true or false"
        }
    }
}
