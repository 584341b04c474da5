import GraphImportMapping
import GraphImportSchema

extension ImportPlan {
    /// `refusal` placed at the map line that asks for the refused table or column: the attribute or
    /// relationship stored in that column, else the entity (or to-many) that owns the table.
    func diagnostic(for refusal: MigrationRefusal) -> Diagnostic {
        mapping.diagnostic(at: location(table: refusal.table, column: refusal.column), refusal.message, hint: refusal.hint)
    }

    private func location(table: String, column: String?) -> SourceLocation {
        for (index, entity) in entities.enumerated() {
            let declared = mapping.entities[index]
            if entity.table == table {
                if let column, let attribute = entity.attributes.first(where: { $0.column == column }),
                    let found = declared.attributes.first(where: { $0.name == attribute.name })
                {
                    return found.location
                }
                if let column, let toOne = entity.toOne.first(where: { $0.column == column }),
                    let found = declared.relationships.first(where: { $0.name == toOne.name })
                {
                    return found.location
                }
                return declared.location
            }
            if let toMany = entity.toMany.first(where: { $0.joinTable == table }),
                let found = declared.relationships.first(where: { $0.name == toMany.name })
            {
                if let column, let link = toMany.linkAttributes.first(where: { $0.column == column }),
                    let written = found.linkAttributes.first(where: { $0.name == link.name })
                {
                    return written.location
                }
                return found.location
            }
        }
        return mapping.entities.first?.location ?? SourceLocation(line: 1, column: 1, offset: 0)
    }
}
