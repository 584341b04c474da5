/// A problem found while reading a map, at a byte offset; turned into a `Diagnostic` (with line,
/// column and the quoted line) once parsing and validation are over.
///
/// Public so that the engine can name the catalog's plan entries (`Problem+Plan.swift`); how a
/// problem is made stays inside this module, with the catalog.
package struct Problem: Error, Sendable, Equatable {
    var offset: Int
    var message: String
    var hint: String?

    init(_ message: String, hint: String? = nil, at offset: Int) {
        self.offset = offset
        self.message = message
        self.hint = hint
    }

    func diagnostic(in source: SourceText, fileName: String) -> Diagnostic {
        source.diagnostic(at: offset, fileName: fileName, message: message, hint: hint)
    }
}

/// The words that begin a statement or qualify one.
enum Keyword {
    static let records = "records"
    static let at = "at"
    static let `as` = "as"
    static let entity = "entity"
    static let table = "table"
    static let key = "key"
    static let inverse = "inverse"
    static let by = "by"
    static let ignore = "ignore"
    static let meta = "meta"
    static let extras = "extras"
    static let delete = "delete"
    static let missing = "missing"
    static let within = "within"
    static let `default` = "default"
    static let always = "always"
    static let onchange = "onchange"
    static let null = "null"
    static let check = "check"
    static let derived = "derived"
    static let each = "each"
    static let now = "now"
    static let run = "run"
    static let store = "store"
    static let keep = "keep"
    static let reject = "reject"
    static let empty = "empty"
    static let `else` = "else"
    static let include = "include"
    static let link = "link"
    static let `where` = "where"
    static let `in` = "in"
    static let has = "has"
    static let prefix = "prefix"
    static let suffix = "suffix"
    static let matches = "matches"
    static let `is` = "is"
    static let present = "present"
    static let absent = "absent"
    static let merge = "merge"
    static let existing = "existing"
    static let mode = "mode"
    static let occurrence = "occurrence"
    static let unkeyed = "unkeyed"
    static let skip = "skip"
    static let owned = "owned"
    /// The words that may follow a `where` condition's path.
    static let filterOperators = [`in`, has, matches, `is`]
    /// The words a line can start with, for "did you mean" on an unknown statement.
    static let statements = [records, entity, key, meta, extras, delete, include, link, mode, occurrence]
    /// Clauses after an attribute's type and converters.
    static let attributeClauses = [`default`, always, onchange, null, missing, check, derived]
    /// Clauses after a relationship's type.
    static let relationshipClauses = [inverse, delete, each, merge, link, unkeyed]
    /// Every word that may follow a member's type, for "did you mean" on an unknown one.
    static let clauses = attributeClauses + relationshipClauses
}
