import GraphImportMapping
import GraphImportSchema
import GraphImportStore

extension ImportPlan {
    /// The map's tables as graphimport named them before an entity without a `table` line got a
    /// plural table (`Naming.formerDefaultTable`), in the same order as `schema`'s; nil when no
    /// name differs. A store made then holds these names, and an import renames them.
    package var formerSchema: SchemaDescription? {
        let former = zip(entities, mapping.entities).map { entity, declared in
            declared.tableName ?? Naming.formerDefaultTable(entity: declared.name)
        }
        guard former != entities.map(\.table) else { return nil }
        return ImportPlan.schema(for: entities, tables: former)
    }

    /// The tables for `entities`: one per entity, one join table per to-many.
    static func schema(for entities: [EntityPlan]) -> SchemaDescription {
        schema(for: entities, tables: entities.map(\.table))
    }

    /// The tables for `entities` were each entity's table named as in `tables` (by entity index):
    /// join tables, their columns and the references follow, as `Naming` derives them.
    static func schema(for entities: [EntityPlan], tables names: [String]) -> SchemaDescription {
        var tables: [TableDescription] = []
        var watches: [DigestWatch] = []
        for (index, entity) in entities.enumerated() {
            var columns = entity.attributes.enumerated().map { index, attribute in
                ColumnDescription(
                    name: attribute.column, type: columnType(attribute.type),
                    notNull: entity.keyAttributes.contains(index), references: nil)
            }
            columns += entity.toOne.map { relationship in
                ColumnDescription(
                    name: relationship.column, type: .integer, notNull: false,
                    references: ForeignKey(table: names[relationship.target], column: Naming.primaryKey, onDelete: toOneAction(relationship.deleteRule)))
            }
            columns += [
                ColumnDescription(name: Naming.insertedRun, type: .integer, notNull: false, references: nil),
                ColumnDescription(name: Naming.changedRun, type: .integer, notNull: false, references: nil),
                // Nullable, so that a store made before it held stubs' marks takes it.
                ColumnDescription(name: Naming.stubRun, type: .integer, notNull: false, references: nil),
                // Nullable too: a row without a digest is compared value by value.
                ColumnDescription(name: Naming.contentDigest, type: .blob, notNull: false, references: nil),
            ]
            watches.append(
                DigestWatch(table: names[index], digestColumn: Naming.contentDigest, primaryKey: Naming.primaryKey, lists: []))
            tables.append(
                TableDescription(
                    name: names[index], primaryKey: .rowid(Naming.primaryKey), columns: columns,
                    uniqueKeys: [entity.keyAttributes.map { entity.attributes[$0].column }],
                    indexes: entity.toOne.map { [$0.column] }))
        }
        for (index, entity) in entities.enumerated() {
            // A to-many stored as its inverse to-one's foreign key has no table of its own.
            for relationship in entity.toMany where relationship.foreignKey == nil {
                let ownerKey = ForeignKey(table: names[index], column: Naming.primaryKey, onDelete: .cascade)
                // Deleting a target removes its link rows, unless the relationship denies it.
                let targetKey = ForeignKey(
                    table: names[relationship.target], column: Naming.primaryKey, onDelete: relationship.deleteRule == .deny ? .restrict : .cascade)
                var join = (table: relationship.joinTable, owner: relationship.ownerColumn, target: relationship.targetColumn)
                if names[index] != entity.table || names[relationship.target] != entities[relationship.target].table {
                    // The join table is `Naming.joinTable(ownerTable:relationship:)`: the owner's
                    // table, `_`, the relationship's SQL name (snake case, which it keeps).
                    let sqlName = String(relationship.joinTable.dropFirst(entity.table.count + 1))
                    join.table = Naming.joinTable(ownerTable: names[index], relationship: sqlName)
                    (join.owner, join.target) = Naming.joinColumns(ownerTable: names[index], targetTable: names[relationship.target], relationship: sqlName)
                }
                watches[index].lists.append(DigestWatch.ListTable(table: join.table, ownerColumn: join.owner))
                tables.append(
                    TableDescription(
                        name: join.table,
                        primaryKey: .columns([join.owner, join.target]),
                        columns: [
                            ColumnDescription(name: join.owner, type: .integer, notNull: true, references: ownerKey),
                            ColumnDescription(name: join.target, type: .integer, notNull: true, references: targetKey),
                            ColumnDescription(name: Naming.position, type: .integer, notNull: true, references: nil),
                        ]
                            // Nullable, so that a store made before a link attribute was added can take it.
                            + relationship.linkAttributes.map {
                                ColumnDescription(name: $0.column, type: columnType($0.type), notNull: false, references: nil)
                            },
                        uniqueKeys: [], indexes: [[join.target]]))
            }
        }
        var schema = SchemaDescription(tables: tables)
        schema.retiredTables = retiredJoinTables(of: entities, tables: names)
        schema.digestWatches = watches
        return schema
    }

    /// The join tables a to-many had before it was stored once, as its inverse to-one's foreign
    /// key: a store made then holds links there that this map would no longer read.
    static func retiredJoinTables(of entities: [EntityPlan], tables names: [String]) -> [SchemaDescription.RetiredTable] {
        var retired: [SchemaDescription.RetiredTable] = []
        for (index, entity) in entities.enumerated() {
            for relationship in entity.toMany {
                guard let toOne = relationship.foreignKey else { continue }
                let target = entities[relationship.target]
                let join = Naming.joinTable(ownerTable: names[index], relationship: relationship.name)
                let (ownerColumn, targetColumn) = Naming.joinColumns(
                    ownerTable: names[index], targetTable: names[relationship.target], relationship: relationship.name)
                let member = "\(entity.name).\(relationship.name)"
                let inverse = "\(target.name).\(target.toOne[toOne].name)"
                retired.append(
                    SchemaDescription.RetiredTable(
                        name: join,
                        message:
                            "table \(join) holds the links of \(member), which this map stores once, as the foreign key "
                            + "\(target.toOne[toOne].column) of \(inverse); its rows would no longer be read",
                        hint:
                            "move each row into \(names[relationship.target]).\(target.toOne[toOne].column) (the \(ownerColumn) "
                            + "of the row whose \(targetColumn) is the object's \(Naming.primaryKey); an object in two lists keeps one) "
                            + "and drop \(join), or take the `inverse` off one side to keep the join table"))
            }
        }
        return retired
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
    /// The SQL that creates the map's tables in an empty store, then the content digests' guard
    /// table and triggers (`SchemaSQL.digestStatements`).
    package var schemaSQL: [String] { SchemaSQL.createStatements(for: schema) + SchemaSQL.digestStatements(for: schema) }
}
