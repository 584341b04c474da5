/// The catalog's entries for `unkeyed skip | reject`, in the voice of `Problem+Catalog.swift`.
extension Problem {
    static func unknownUnkeyedRule(_ word: String, suggestion: String, at offset: Int) -> Problem {
        Problem("unknown unkeyed rule '\(word)'", hint: didYouMean(suggestion), at: offset)
    }

    static func skipOnRequiredToOne(_ name: String, target: String, at offset: Int) -> Problem {
        Problem(
            "`unkeyed skip` leaves '\(name)' null when its \(target) has no key, but '\(name)' is required",
            hint: "make it optional, `: \(target)? unkeyed skip`, or drop the clause to refuse such records", at: offset)
    }
}
