/// The catalog's entries for `include`: files that cannot be read or included, and what a map and
/// the files it includes cannot both say. In the voice of `Problem+Catalog.swift`.
extension Problem {
    static func unreadableInclude(_ name: String, reason: String, hint: String?, at offset: Int) -> Problem {
        Problem("cannot include '\(name)': \(reason)", hint: hint, at: offset)
    }

    /// `chain` runs from the file that includes first to the one included again.
    static func includeCycle(_ chain: [String], at offset: Int) -> Problem {
        Problem(
            "include cycle: " + chain.map { "'\($0)'" }.joined(separator: " includes "),
            hint: "a file cannot include itself, even through another; move what both need into a file that includes neither",
            at: offset)
    }

    static func includesTooDeep(limit: Int, at offset: Int) -> Problem {
        Problem(
            "includes nest more than \(limit) files deep", hint: "include the shared files from the map itself rather than from each other",
            at: offset)
    }

    /// `first` and `second` are `FILE:LINE`.
    static func entityDefinedTwice(_ name: String, first: String, second: String, at offset: Int) -> Problem {
        Problem(
            "entity '\(name)' is defined twice: at \(first) and at \(second)",
            hint: "define an entity in one file; a map uses the entities of the files it includes as they are", at: offset)
    }

    static func statementInIncludedFile(_ keyword: String, at offset: Int) -> Problem {
        Problem(
            "`\(keyword)` cannot be in an included file",
            hint: "an included file holds entities; `records` and `meta` describe one endpoint's response and belong to its own map",
            at: offset)
    }
}
