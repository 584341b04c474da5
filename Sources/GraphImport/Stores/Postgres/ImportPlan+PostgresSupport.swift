import GraphImportMapping

extension ImportPlan {
    /// What this map asks for that an import into PostgreSQL does not do yet, each at the map line
    /// that asks for it: such a map is refused before anything is written, never imported wrong.
    /// Every map the language accepts today: an entity always has a key (`owned` ones included).
    func postgresUnsupported() -> [Diagnostic] {
        var found: [Diagnostic] = []
        func refuse(_ location: SourceLocation, _ feature: String) {
            found.append(
                mapping.diagnostic(
                    at: location, "\(feature) is not supported on a PostgreSQL store yet",
                    hint: "import into a SQLite store, or leave \(feature) out of the map"))
        }
        for (index, entity) in entities.enumerated() where entity.keyAttributes.isEmpty {
            refuse(mapping.entities[index].location, "an entity without a key (\(entity.name))")
        }
        return found
    }
}
