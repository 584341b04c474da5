/// The catalog's entries for what the engine finds when it compiles a map into a plan: SQL names
/// that clash or are reserved, limits, values that do not fit. Worded here, beside the parser's
/// entries and in their voice, so that every message about a map has one home; the engine asks
/// for them through `Mapping.diagnostic(_:)`.
extension Problem {
    // MARK: Plan: limits

    package static func tooManyEntities(_ count: Int, limit: Int, at location: SourceLocation) -> Problem {
        Problem(
            "the map declares \(count) entities; at most \(limit) are allowed", hint: "split the feed into several maps and stores",
            at: location.offset)
    }

    package static func tooManyMembers(entity: String, _ count: Int, limit: Int, at location: SourceLocation) -> Problem {
        Problem("entity '\(entity)' has \(count) attributes and relationships; at most \(limit) are allowed", at: location.offset)
    }

    // MARK: Plan: SQL names

    /// A table name that breaks one of `TableName`'s rules.
    package static func unusableTableName(_ table: String, _ rule: TableName.Rule, at location: SourceLocation) -> Problem {
        let message =
            switch rule {
            case .sqlitePrefix: "the table name '\(table)' is reserved: SQLite keeps names starting with '\(TableName.sqlitePrefix)'"
            case .internalPrefix: "the table name '\(table)' is reserved for graphimport's own tables"
            case .tooLong: "the table name is \(table.count) characters long; at most \(TableName.maxLength) are allowed"
            case .controlCharacter: "the table name contains a control character"
            }
        return Problem(message, hint: "choose another name with `table NAME`", at: location.offset)
    }

    package static func sharedTable(_ table: String, entity: String, other: String, at location: SourceLocation) -> Problem {
        Problem(
            "entity '\(entity)' and entity '\(other)' would share the table '\(table)'",
            hint: "give one of them its own name with `table NAME`", at: location.offset)
    }

    /// `relationship` is written `Owner.name`; `other` names what already has the table.
    package static func joinTableClash(_ table: String, relationship: String, other: String, at location: SourceLocation) -> Problem {
        Problem(
            "the join table '\(table)' of \(relationship) has the name of the table of entity '\(other)'",
            hint: "rename the relationship or give the entity another table with `table NAME`", at: location.offset)
    }

    /// `usedBy` says what has the column already ("'name'", "the primary key"); `reserved` when
    /// graphimport adds that column to every table.
    package static func columnClash(
        member: String, column: String, table: String, usedBy: String, reserved: Bool, at location: SourceLocation
    ) -> Problem {
        Problem(
            "'\(member)' would be stored in column '\(column)' of table '\(table)', which \(usedBy) already uses",
            hint: reserved ? "'\(column)' is a column graphimport adds to every table; rename the attribute" : "rename one of them",
            at: location.offset)
    }

    // MARK: Plan: values and arguments

    package static func literalDoesNotFit(_ literal: Literal, attribute: String, reason: String, at location: SourceLocation) -> Problem {
        Problem("'\(literal)' does not fit \(attribute): \(reason)", at: location.offset)
    }

    package static func metadataCannotBeData(_ name: String, at location: SourceLocation) -> Problem {
        Problem("metadata '\(name)' cannot be Data", hint: "store it as String (base64 text) instead", at: location.offset)
    }

    /// A converter, validator or template refusing its arguments: their own sentence, written
    /// beside the code that knows the rule (`ConversionError`, `TemplateError`).
    package static func refusedArguments(_ message: String, hint: String?, at location: SourceLocation) -> Problem {
        Problem(message, hint: hint, at: location.offset)
    }
}

/// The rules a table name follows, in one place: the validator applies the reserved prefix to a
/// `table NAME` as it reads it (pointing at the name), the plan applies them all to every name it
/// chooses. Names reach SQL only through quoting, so any text is safe; these rules keep SQLite's
/// own names, graphimport's and unreadable ones out.
package enum TableName {
    /// SQLite keeps names starting with this for itself.
    package static let sqlitePrefix = "sqlite_"
    /// graphimport's own tables (`graphimport_runs`, `graphimport_meta`, …).
    package static let internalPrefix = "graphimport_"
    /// The longest table name, in characters.
    package static let maxLength = 128

    package enum Rule: Sendable, Equatable {
        case sqlitePrefix, internalPrefix, tooLong, controlCharacter
    }

    /// The rule `table` breaks, or nil. Prefixes are compared ignoring case, as SQLite compares names.
    package static func brokenRule(_ table: String) -> Rule? {
        let lowered = table.lowercased()
        if lowered.hasPrefix(sqlitePrefix) { return .sqlitePrefix }
        if lowered.hasPrefix(internalPrefix) { return .internalPrefix }
        if table.count > maxLength { return .tooLong }
        if table.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return .controlCharacter }
        return nil
    }
}

extension Mapping {
    /// `problem`, an entry of the catalog, as a diagnostic in this map, quoting its source line.
    package func diagnostic(_ problem: Problem) -> Diagnostic {
        problem.diagnostic(in: splicedText ?? SourceText(source), fileName: fileName)
    }
}
