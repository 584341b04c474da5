/// The catalog's entries for owned entities (`entity NAME owned`), in the voice of `Problem+Catalog.swift`.
extension Problem {
    static func keyOnOwned(_ entity: String, at offset: Int) -> Problem {
        Problem(
            "'\(entity)' is owned: its objects are identified by their owner and their position, not by a key",
            hint: "remove the `key` line, or remove `owned` from the entity line to give \(entity) a key of its own", at: offset)
    }

    static func deleteMissingOnOwned(_ entity: String, at offset: Int) -> Problem {
        Problem(
            "`delete missing` on the owned entity '\(entity)'",
            hint: "an owned object is deleted with its owner, and when its owner's list no longer holds it; remove the line", at: offset)
    }

    static func ownedHoldsOwned(_ entity: String, member: String, target: String, at offset: Int) -> Problem {
        Problem(
            "the owned entity '\(entity)' cannot hold the owned entity '\(target)' ('\(member)'): an owned object is placed by its owner's key, and \(entity) has none",
            hint:
                "hold \(target) in the entity that owns \(entity) instead, store the value as JSON (`\(member) : JSON`), or give \(entity) or \(target) a key and drop `owned`",
            at: offset)
    }

    static func ownedAsRecords(_ entity: String, at offset: Int) -> Problem {
        Problem(
            "records cannot be the owned entity '\(entity)': an owned object exists only inside the object that holds it",
            hint: "take the records as the owner's entity, or give \(entity) a key and drop `owned`", at: offset)
    }

    static func ownedInPolymorphic(_ entity: String, member: String, at offset: Int) -> Problem {
        Problem(
            "the polymorphic relationship '\(member)' cannot hold the owned entity '\(entity)'",
            hint: "hold \(entity) in a relationship of its own", at: offset)
    }

    static func ownedTwice(_ entity: String, first: String, line: Int, at offset: Int) -> Problem {
        Problem(
            "the owned entity '\(entity)' already belongs to '\(first)' (line \(line)); an owned entity has one owner",
            hint: "declare a second owned entity for this relationship (`entity Other\(entity) owned`, with the same attributes)", at: offset)
    }

    static func clauseOnOwnedRelationship(_ relationship: String, clause: String, target: String, at offset: Int) -> Problem {
        Problem(
            "`\(clause)` on '\(relationship)', which holds the owned entity '\(target)'",
            hint: "owned objects are replaced with their owner's list and deleted with the owner; remove the clause", at: offset)
    }

    static func ownedWithoutOwner(_ entity: String, at offset: Int) -> Problem {
        Problem(
            "no relationship holds the owned entity '\(entity)'",
            hint: "hold it in a relationship of the entity it belongs to (`items : [\(entity)]`), or remove the entity", at: offset)
    }
}
