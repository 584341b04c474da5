import GraphImportJSON
import GraphImportMapping
import GraphImportStore

/// A mapping compiled for importing: SQL names chosen, converters compiled, entities linked by index.
///
/// Built once per run; everything the record walk needs is looked up here by index, never by name.
public struct ImportPlan: Sendable {
    public let mapping: Mapping
    public let entities: [EntityPlan]
    /// Where the records are, each with the entity it becomes.
    public let recordSources: [(pattern: JSONPathPattern, entity: Int)]

    /// The tables the store must have.
    public var schema: SchemaDescription { ImportPlan.schema(for: entities) }

    /// Compiles `mapping`; map-level problems (SQL name clashes, bad converter arguments) come back as diagnostics.
    public init(mapping: Mapping, converters: ConverterCatalog = .standard) throws(MappingErrors) {
        var diagnostics: [Diagnostic] = []
        let indexByName = Dictionary(uniqueKeysWithValues: mapping.entities.enumerated().map { ($1.name, $0) })
        let tables = mapping.entities.map { Naming.table(entity: $0.name, explicit: $0.tableName) }
        var seenTables: [String: String] = [:]
        var entities: [EntityPlan] = []
        for (index, entity) in mapping.entities.enumerated() {
            let table = tables[index]
            if let other = seenTables[table.lowercased()] {
                diagnostics.append(
                    mapping.diagnostic(
                        at: entity.location, "entity '\(entity.name)' and entity '\(other)' would share the table '\(table)'",
                        hint: "give one of them its own name with `table NAME`"))
            }
            seenTables[table.lowercased()] = entity.name
            entities.append(
                EntityPlan.compile(
                    entity, table: table, tables: tables, indexByName: indexByName, mapping: mapping,
                    converters: converters, diagnostics: &diagnostics))
        }
        for join in entities.flatMap(\.toMany) {
            if let other = seenTables[join.joinTable.lowercased()] {
                diagnostics.append(
                    mapping.diagnostic(
                        at: mapping.entities[join.owner].location,
                        "the join table '\(join.joinTable)' of \(mapping.entities[join.owner].name).\(join.name) has the name of the table of entity '\(other)'",
                        hint: "rename the relationship or give the entity another table with `table NAME`"))
            }
            seenTables[join.joinTable.lowercased()] = "\(mapping.entities[join.owner].name).\(join.name)"
        }
        if !diagnostics.isEmpty { throw MappingErrors(diagnostics.sorted { $0.location < $1.location }) }
        self.mapping = mapping
        self.entities = entities
        self.recordSources = mapping.records.flatMap { source in
            source.paths.map { (ImportPlan.pattern(for: $0), indexByName[source.entity]!) }
        }
    }

    static func pattern(for path: KeyPath) -> JSONPathPattern {
        JSONPathPattern(
            path.components.map {
                switch $0 {
                case .key(let key): .key(key)
                case .index(let index): .index(index)
                case .anyIndex: .anyIndex
                }
            })
    }
}

/// One step of a member's path inside an object.
enum PathStep: Sendable {
    case key(String)
    case index(Int)
}

/// How one entity is read and stored.
public struct EntityPlan: Sendable {
    public let name: String
    public let table: String
    public let attributes: [AttributePlan]
    /// Indexes into `attributes` of the unique key, in key order.
    public let keyAttributes: [Int]
    public let toOne: [ToOnePlan]
    public let toMany: [ToManyPlan]
}

/// An attribute: where it is read, how it is converted, where it is stored.
public struct AttributePlan: Sendable {
    public let name: String
    public let column: String
    public let sourceDescription: String
    let path: [PathStep]
    public let type: ValueType
    public let isOptional: Bool
    let converters: [CompiledConverter]
}

/// A to-one relationship, stored as a foreign-key column of the owner's table.
public struct ToOnePlan: Sendable {
    public let name: String
    public let column: String
    public let sourceDescription: String
    let path: [PathStep]
    public let target: Int
    public let isOptional: Bool
}

/// A to-many relationship, stored as a join table that keeps the feed's order.
public struct ToManyPlan: Sendable {
    public let name: String
    public let owner: Int
    public let joinTable: String
    public let ownerColumn: String
    public let targetColumn: String
    public let sourceDescription: String
    let path: [PathStep]
    public let target: Int
}

extension EntityPlan {
    static func compile(
        _ entity: Entity, table: String, tables: [String], indexByName: [String: Int], mapping: Mapping,
        converters catalog: ConverterCatalog, diagnostics: inout [Diagnostic]
    ) -> EntityPlan {
        var columns: [String: String] = [Naming.primaryKey: "the primary key"]
        func claim(_ column: String, for member: String, at location: SourceLocation) {
            if let other = columns[column.lowercased()] {
                diagnostics.append(
                    mapping.diagnostic(
                        at: location, "'\(member)' would be stored in column '\(column)' of table '\(table)', which \(other) already uses",
                        hint: column == Naming.primaryKey
                            ? "'\(Naming.primaryKey)' is the row id graphimport adds to every table; rename the attribute" : "rename one of them"))
            } else {
                columns[column.lowercased()] = "'\(member)'"
            }
        }
        var attributes: [AttributePlan] = []
        for attribute in entity.attributes {
            let column = Naming.column(attribute: attribute.name)
            claim(column, for: attribute.name, at: attribute.location)
            var compiled: [CompiledConverter] = []
            for call in attribute.converters {
                do {
                    compiled.append(try catalog.compile(call))
                } catch {
                    diagnostics.append(mapping.diagnostic(at: call.location, error.message, hint: error.hint))
                }
            }
            attributes.append(
                AttributePlan(
                    name: attribute.name, column: column, sourceDescription: attribute.source.description,
                    path: steps(attribute.source), type: attribute.type, isOptional: attribute.isOptional, converters: compiled))
        }
        var toOne: [ToOnePlan] = []
        var toMany: [ToManyPlan] = []
        let owner = indexByName[entity.name]!
        for relationship in entity.relationships {
            guard let target = indexByName[relationship.target] else { continue }  // the parser reported it
            if relationship.isToMany {
                let join = Naming.joinTable(ownerTable: table, relationship: relationship.name)
                let (ownerColumn, targetColumn) = Naming.joinColumns(ownerTable: table, targetTable: tables[target], relationship: relationship.name)
                toMany.append(
                    ToManyPlan(
                        name: relationship.name, owner: owner, joinTable: join, ownerColumn: ownerColumn, targetColumn: targetColumn,
                        sourceDescription: relationship.source.description, path: steps(relationship.source), target: target))
            } else {
                let column = Naming.foreignKey(relationship: relationship.name)
                claim(column, for: relationship.name, at: relationship.location)
                toOne.append(
                    ToOnePlan(
                        name: relationship.name, column: column, sourceDescription: relationship.source.description,
                        path: steps(relationship.source), target: target, isOptional: relationship.isOptional))
            }
        }
        let keyAttributes = entity.key.compactMap { name in attributes.firstIndex { $0.name == name } }
        return EntityPlan(name: entity.name, table: table, attributes: attributes, keyAttributes: keyAttributes, toOne: toOne, toMany: toMany)
    }

    private static func steps(_ path: KeyPath) -> [PathStep] {
        path.components.compactMap {
            switch $0 {
            case .key(let key): .key(key)
            case .index(let index): .index(index)
            case .anyIndex: nil  // the parser rejects [*] in member paths
            }
        }
    }
}
