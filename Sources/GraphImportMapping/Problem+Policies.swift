/// The catalog's entries for import policies (`merge`, `link existing`, `mode`), in the voice of
/// `Problem+Catalog.swift`.
extension Problem {
    static func unknownLinkPolicy(_ word: String, at offset: Int) -> Problem {
        Problem("unknown link policy '\(word)'", hint: "did you mean 'existing'? `link existing` links only objects already stored", at: offset)
    }

    static func unknownMode(_ word: String, suggestion: String?, at offset: Int) -> Problem {
        Problem("unknown mode '\(word)'", hint: (didYouMean(suggestion).map { $0 + " " } ?? "") + "a mode is 'insert', 'update' or 'upsert'", at: offset)
    }

    static func unknownOccurrence(_ word: String, suggestion: String?, at offset: Int) -> Problem {
        Problem(
            "unknown occurrence '\(word)'",
            hint: (didYouMean(suggestion).map { $0 + " " } ?? "")
                + "`occurrence first` keeps an object's first occurrence in a run, `occurrence last` (the default) its last",
            at: offset)
    }

    static func occurrenceOnOwned(_ entity: String, at offset: Int) -> Problem {
        Problem(
            "'occurrence' applies to an entity with a key; '\(entity)' is owned",
            hint: "an owned object occurs once, in its owner: write `occurrence` on the owner's entity", at: offset)
    }

    static func mergeOnToOne(_ name: String, target: String, at offset: Int) -> Problem {
        Problem(
            "'merge' applies only to a to-many relationship; '\(name)' is a to-one",
            hint: "a to-one holds one \(target): the feed's replaces the stored one; make the type `[\(target)]` to keep a list", at: offset)
    }

    static func linkExistingOnRequired(_ name: String, target: String, at offset: Int) -> Problem {
        Problem(
            "'link existing' needs an optional to-one; '\(name)' is required",
            hint: "an unknown \(target) links nothing, so a new object could be left without one: write `\(target)?`", at: offset)
    }
}
