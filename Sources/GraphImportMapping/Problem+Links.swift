/// The catalog's entries for `link` lines (attributes of a to-many's links), in the voice of
/// `Problem+Catalog.swift`.
extension Problem {
    static func linkWithoutRelationship(at offset: Int) -> Problem {
        Problem(
            "a `link` line must follow a to-many relationship line",
            hint: "write `link NAME <- path : Type` right below `name <- path : [Entity]`, with only other `link` lines in between",
            at: offset)
    }

    /// `kind`: "attribute" or "to-one".
    static func linkOnNonToMany(_ name: String, kind: String, at offset: Int) -> Problem {
        let hint =
            kind == "attribute"
            ? "'\(name)' is an attribute; `link` lines belong to a to-many relationship `name <- path : [Entity]`"
            : "'\(name)' is a to-one: data about its link is an attribute of this entity, `name <- path : Type`"
        return Problem("'link' applies only to a to-many relationship", hint: hint, at: offset)
    }

    static func linkNotBuiltIn(_ name: String, type: String, at offset: Int) -> Problem {
        Problem(
            "link attribute '\(name)' must have a built-in type, not '\(type)'",
            hint: "a link attribute is a value stored beside the link; types are \(builtInTypes)", at: offset)
    }

    static func clauseOnLink(_ name: String, clause: String, at offset: Int) -> Problem {
        Problem(
            "link attribute '\(name)' cannot have '\(clause)'",
            hint: "a link's values are read from each element and written with the link; only `check`, `null` and `missing` rules apply",
            at: offset)
    }

    /// `instead`: the rules that do apply, as the map writes them.
    static func keepOnLink(_ name: String, rule: String, instead: String, at offset: Int) -> Problem {
        Problem(
            "link attribute '\(name)' cannot have `\(rule)`",
            hint: "a changed list is written whole, so there is no stored value to keep; write \(instead)", at: offset)
    }
}

/// Plan entries for link attributes (join table columns).
extension Problem {
    /// `usedBy` says what has the column already ("the owner's key", "'start'"); `reserved` when
    /// every join table has that column.
    package static func linkColumnClash(
        member: String, column: String, table: String, usedBy: String, reserved: Bool, at location: SourceLocation
    ) -> Problem {
        Problem(
            "link attribute '\(member)' would be stored in column '\(column)' of join table '\(table)', which \(usedBy) already uses",
            hint: reserved ? "'\(column)' is a column of every join table; rename the link attribute" : "rename one of them",
            at: location.offset)
    }
}
