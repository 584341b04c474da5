extension Validator {
    /// An entity whose to-many reads `$` alone (`files <- $ : [File]`) has arrays for objects:
    /// there `$` is the array, and a path into members (`size`, `info.name`) never holds a
    /// value. Each member read only through such paths is a problem at its path; `$`, `$key`,
    /// `$index`, `@parent` and `@root` paths hold, and so does a fallback list with one of them.
    mutating func checkArrayObjects(entities: [Entity]) {
        for entity in entities {
            guard let reader = entity.relationships.first(where: { $0.isToMany && $0.sources == [KeyPath([])] }) else { continue }
            let readsArray = "\(reader.name) <- $ : [\(reader.target)]"
            for attribute in entity.attributes where !attribute.sources.isEmpty && attribute.sources.allSatisfy(Self.readsMembers) {
                report(
                    .memberOfArrayObject(entity.name, member: attribute.name, path: attribute.sources[0], reader: readsArray, at: attribute.pathLocation.offset)
                )
            }
            for relationship in entity.relationships where relationship.sources.allSatisfy(Self.readsMembers) {
                report(
                    .memberOfArrayObject(
                        entity.name, member: relationship.name, path: relationship.source, reader: readsArray, at: relationship.pathLocation.offset))
            }
        }
    }

    /// Whether `path` reads a member of the object (its first step a key or an index), which an
    /// array taken as an object does not have.
    private static func readsMembers(_ path: KeyPath) -> Bool {
        switch path.components.first {
        case .key?, .index?, .anyMember?: true
        default: false
        }
    }
}
