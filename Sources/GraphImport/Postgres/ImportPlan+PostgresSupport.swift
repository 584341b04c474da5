import GraphImportMapping

extension ImportPlan {
    /// What this map asks for that an import into PostgreSQL does not do yet, each at the map line
    /// that asks for it: such a map is refused before anything is written, never imported wrong.
    /// Empty for the common shapes (attributes, keys, nested objects, stubs, to-many lists).
    func postgresUnsupported() -> [Diagnostic] {
        var found: [Diagnostic] = []
        func refuse(_ location: SourceLocation, _ feature: String) {
            found.append(
                mapping.diagnostic(
                    at: location, "\(feature) is not supported on a PostgreSQL store yet",
                    hint: "import into a SQLite store, or leave \(feature) out of the map"))
        }
        for (index, entity) in entities.enumerated() {
            let declared = mapping.entities[index]
            func attributeLocation(_ name: String) -> SourceLocation {
                declared.attributes.first { $0.name == name }?.location ?? declared.location
            }
            func relationshipLocation(_ name: String) -> SourceLocation {
                declared.relationships.first { $0.name == name }?.location ?? declared.location
            }
            if entity.keyAttributes.isEmpty { refuse(declared.location, "an entity without a key (\(entity.name))") }
            for attribute in entity.attributes {
                let location = attributeLocation(attribute.name)
                if attribute.always != nil { refuse(location, "`always` (\(entity.name).\(attribute.name))") }
                if attribute.onChange != nil { refuse(location, "`onchange` (\(entity.name).\(attribute.name))") }
            }
        }
        return found
    }
}
