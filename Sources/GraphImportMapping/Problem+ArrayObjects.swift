/// The catalog's entries for arrays taken as objects (`files <- $ : [File]`), in the voice of `Problem+Catalog.swift`.
extension Problem {
    static func memberOfArrayObject(_ entity: String, member: String, path: KeyPath, reader: String, at offset: Int) -> Problem {
        Problem(
            "\(entity).\(member) reads '\(path)', but \(entity) objects are arrays (`\(reader)` reads their elements), which have no members",
            hint:
                "read it from each element's entity, or from `$key`, `$index`, `@parent.…` or `@root.…`; for \(entity) objects that are objects too, give the to-many a path to try first (`<- items, $`)",
            at: offset)
    }
}
