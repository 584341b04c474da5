import GraphImportMapping
import GraphImportSchema
import GraphImportStore

extension ImportPlan {
    /// The tables for `entities`: one per entity, one join table per to-many.
    static func schema(for entities: [EntityPlan]) -> SchemaDescription {
        var tables: [TableDescription] = []
        for entity in entities {
            var columns = entity.attributes.enumerated().map { index, attribute in
                ColumnDescription(
                    name: attribute.column, type: columnType(attribute.type),
                    notNull: entity.keyAttributes.contains(index), references: nil)
            }
            columns += entity.toOne.map { relationship in
                ColumnDescription(
                    name: relationship.column, type: .integer, notNull: false,
                    references: ForeignKey(
                        table: entities[relationship.target].table, column: Naming.primaryKey, onDelete: toOneAction(relationship.deleteRule)))
            }
            columns += [
                ColumnDescription(name: Naming.insertedRun, type: .integer, notNull: false, references: nil),
                ColumnDescription(name: Naming.changedRun, type: .integer, notNull: false, references: nil),
            ]
            tables.append(
                TableDescription(
                    name: entity.table, primaryKey: .rowid(Naming.primaryKey), columns: columns,
                    uniqueKeys: [entity.keyAttributes.map { entity.attributes[$0].column }],
                    indexes: entity.toOne.map { [$0.column] }))
        }
        for entity in entities {
            for relationship in entity.toMany {
                let ownerKey = ForeignKey(table: entity.table, column: Naming.primaryKey, onDelete: .cascade)
                // Deleting a target removes its link rows, unless the relationship denies it.
                let targetKey = ForeignKey(
                    table: entities[relationship.target].table, column: Naming.primaryKey,
                    onDelete: relationship.deleteRule == .deny ? .restrict : .cascade)
                tables.append(
                    TableDescription(
                        name: relationship.joinTable,
                        primaryKey: .columns([relationship.ownerColumn, relationship.targetColumn]),
                        columns: [
                            ColumnDescription(name: relationship.ownerColumn, type: .integer, notNull: true, references: ownerKey),
                            ColumnDescription(name: relationship.targetColumn, type: .integer, notNull: true, references: targetKey),
                            ColumnDescription(name: Naming.position, type: .integer, notNull: true, references: nil),
                        ]
                            // Nullable, so that a store made before a link attribute was added can take it.
                            + relationship.linkAttributes.map {
                                ColumnDescription(name: $0.column, type: columnType($0.type), notNull: false, references: nil)
                            },
                        uniqueKeys: [], indexes: [[relationship.targetColumn]]))
            }
        }
        return SchemaDescription(tables: tables)
    }

    /// The foreign-key action that carries out a to-one's delete rule, so that a row deleted by
    /// hand in SQLite follows the same rule as one graphimport deletes.
    static func toOneAction(_ rule: DeleteRule) -> DeleteAction {
        switch rule {
        case .nullify: .setNull
        case .cascade: .cascade
        case .deny: .restrict
        }
    }

    /// How each attribute type is stored; see Mappings/README.md.
    static func columnType(_ type: ValueType) -> ColumnType {
        switch type {
        case .string, .url, .date, .json: .text
        case .int, .bool: .integer
        case .double: .real
        case .data: .blob
        }
    }
}

extension ImportPlan {
    /// The SQL that creates the map's tables in an empty store.
    package var schemaSQL: [String] { SchemaSQL.createStatements(for: schema) }
}
