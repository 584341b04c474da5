/// The catalog's entries for `@parent` and `@root` paths (values of the object that reached this
/// one, and of the response's root), in the voice of `Problem+Catalog.swift`.
extension Problem {
    static func anchorWithoutStep(_ anchor: String, at offset: Int) -> Problem {
        Problem(
            "`\(anchor)` needs a key after it",
            hint: anchor == "@root"
                ? "`@root.PATH` reads a value of the response's root document: `@root.repository.id`"
                : "`@parent.PATH` reads a value of the object whose relationship reached this one: `@parent.id`",
            at: offset)
    }

    /// `place`: where the path is, as a message names it ("a `records` line").
    static func anchorMisplaced(_ anchor: String, place: String, at offset: Int) -> Problem {
        let hint =
            place == "a `meta` line"
            ? "a `meta` path starts at the response's root already: drop `\(anchor).`"
            : "`@parent.PATH` and `@root.PATH` are read by attributes and to-one relationships: `repoId <- @parent.id : Int`"
        return Problem("`\(anchor)` cannot start the path of \(place)", hint: hint, at: offset)
    }

    static func anchorOnToMany(_ name: String, anchor: String, at offset: Int) -> Problem {
        Problem(
            "the to-many '\(name)' cannot read `\(anchor)`",
            hint: "`@parent.PATH` and `@root.PATH` are read by attributes and to-one relationships; "
                + "a list belongs to the object that holds it in the feed",
            at: offset)
    }

    static func parentUnreached(_ entity: String, at offset: Int) -> Problem {
        Problem(
            "`@parent` is read by \(entity), but no relationship of the map reaches \(entity) objects",
            hint: "`@parent` is the object whose relationship reached this one (`issues <- issues : [\(entity)]` in the parent's entity); "
                + "a record has none: read its own field, or `@root.PATH` for a value of the response",
            at: offset)
    }

    /// `other`: the `meta` line whose path is inside this one (`meta owner <- repository.owner`).
    static func rootPathsNested(_ path: String, other: String, at offset: Int) -> Problem {
        Problem(
            "`\(path)` holds the value that `\(other)` reads: the reader keeps that value, not the one around it",
            hint: "read the values this member needs inside it (`\(path).KEY`), or read the `meta` value with `@root` too",
            at: offset)
    }
}
