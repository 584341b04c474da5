/// The catalog's entries for polymorphic relationships (`: (Post | Comment) by $` and their case
/// lines), in the voice of `Problem+Catalog.swift`.
extension Problem {
    static func caseAtInRelationship(at offset: Int) -> Problem {
        Problem(
            "a relationship's case takes no 'at'",
            hint: "say where the object sits in each element with `each PATH` on the relationship line", at: offset)
    }

    static func choiceWithoutAlternatives(_ name: String, target: String, at offset: Int) -> Problem {
        Problem(
            "'by' chooses among several entities, and '\(name)' links to one (\(target))",
            hint: "write the entities it may link to: `(\(target) | Other)` for a to-one, `[\(target) | Other]` for a to-many",
            at: offset)
    }

    static func alternativesWithoutChoice(_ name: String, targets: [String], at offset: Int) -> Problem {
        Problem(
            "'\(name)' may link to \(listed(targets)) but does not say how each is chosen",
            hint: "add `by PATH` to the line and case lines below it, such as `\"\(targets[0].lowercased())\" -> \(targets[0])`",
            at: offset)
    }

    static func choiceOnAttribute(_ name: String, type: String, at offset: Int) -> Problem {
        Problem(
            "attribute '\(name)' cannot have 'by' or case lines",
            hint: "'\(type)' is a built-in type; `by` chooses the entity of a relationship's elements", at: offset)
    }

    static func noRelationshipCases(_ name: String, at offset: Int) -> Problem {
        Problem(
            "'\(name)' chooses by a value but has no case lines",
            hint: "add lines such as `\"photo\" -> Photo` or `has prefix \"t3_\" -> Post` below it", at: offset)
    }

    static func casesWithoutChoice(_ name: String, at offset: Int) -> Problem {
        Problem(
            "a case line must follow a `records … by PATH` line or a relationship with `by PATH`; '\(name)' has no 'by'",
            hint: "write `by PATH` on the line of '\(name)' (`: (A | B) by type`), or remove the case line", at: offset)
    }

    static func caseEntityNotTarget(_ entity: String, relationship: String, targets: [String], suggestion: String?, at offset: Int) -> Problem {
        Problem(
            "'\(entity)' is not one of the entities of '\(relationship)' (\(targets.joined(separator: ", ")))",
            hint: didYouMean(suggestion) ?? "add it to the type: `\(targets.count == 1 ? targets[0] : "… | \(entity)")`", at: offset)
    }

    static func targetWithoutCase(_ entity: String, relationship: String, at offset: Int) -> Problem {
        Problem(
            "no case line of '\(relationship)' chooses '\(entity)'",
            hint: "add a case such as `\"\(entity.lowercased())\" -> \(entity)` below it, or remove '\(entity)' from the type", at: offset)
    }

    static func repeatedTarget(_ entity: String, at offset: Int) -> Problem {
        Problem("'\(entity)' appears twice in the type", hint: "name each entity once: `(A | B)`", at: offset)
    }

    static func duplicateRelationshipCase(_ test: RelationshipCase.Test?, firstLine: Int, at offset: Int) -> Problem {
        Problem("duplicate case \(test.map { "\($0)" } ?? Keyword.else) (already declared at line \(firstLine))", at: offset)
    }

    static func whereWithChoice(_ name: String, at offset: Int) -> Problem {
        Problem(
            "'\(name)' has both 'where' and 'by'",
            hint: "the case lines choose the elements: `else -> ignore` passes over those no case names", at: offset)
    }

    static func withinPolymorphic(_ name: String, at offset: Int) -> Problem {
        Problem(
            "`within` names a to-one relationship to one entity; '\(name)' links to several",
            hint: "only objects whose parent appears in the feed are considered, so the parent must be one entity's object", at: offset)
    }

    /// `Post or Comment`, `Photo, Video or Audio`.
    private static func listed(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }
}
