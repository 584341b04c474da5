import GraphImportMapping
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
                    references: ForeignKey(table: entities[relationship.target].table, column: Naming.primaryKey, onDelete: .setNull))
            }
            tables.append(
                TableDescription(
                    name: entity.table, primaryKey: .rowid(Naming.primaryKey), columns: columns,
                    uniqueKeys: [entity.keyAttributes.map { entity.attributes[$0].column }],
                    indexes: entity.toOne.map { [$0.column] }))
        }
        for entity in entities {
            for relationship in entity.toMany {
                let ownerKey = ForeignKey(table: entity.table, column: Naming.primaryKey, onDelete: .cascade)
                let targetKey = ForeignKey(table: entities[relationship.target].table, column: Naming.primaryKey, onDelete: .cascade)
                tables.append(
                    TableDescription(
                        name: relationship.joinTable,
                        primaryKey: .columns([relationship.ownerColumn, relationship.targetColumn]),
                        columns: [
                            ColumnDescription(name: relationship.ownerColumn, type: .integer, notNull: true, references: ownerKey),
                            ColumnDescription(name: relationship.targetColumn, type: .integer, notNull: true, references: targetKey),
                            ColumnDescription(name: Naming.position, type: .integer, notNull: true, references: nil),
                        ],
                        uniqueKeys: [], indexes: [[relationship.targetColumn]]))
            }
        }
        return SchemaDescription(tables: tables)
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
    public var schemaSQL: [String] { SchemaSQL.createStatements(for: schema) }
}
