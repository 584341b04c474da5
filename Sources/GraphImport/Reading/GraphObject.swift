import Foundation
import GraphImportJSON
import GraphImportMapping
import GraphImportSchema

/// One stored object, read through its `ObjectGraph`: its values by the map's names, its
/// relationships followed by name. A snapshot: its values are those read when it was fetched.
public struct GraphObject {
    let graph: ObjectGraph
    let entityIndex: Int
    /// `pk`, the attributes, the to-one foreign keys, `inserted_run`, `changed_run`.
    let row: [SQLValue]

    var plan: EntityPlan { graph.plan.entities[entityIndex] }

    /// The entity's name in the map.
    public var entity: String { plan.name }
    /// The object's row id (`pk`).
    public var rowID: Int64 { row[0].integerValue }
    /// Its key values, in the map's key order.
    public var key: [SQLValue] { plan.keyAttributes.map { row[1 + $0] } }
    /// The run (in `graphimport_runs`) that inserted it, and the one that last changed it.
    public var insertedRun: Int64? { if case .integer(let run) = row[row.count - 2] { run } else { nil } }
    public var changedRun: Int64? { if case .integer(let run) = row[row.count - 1] { run } else { nil } }

    /// The attribute's value as stored (`.null` when it has none), like `value(forKey:)`.
    public func value(_ name: String) throws(GraphError) -> SQLValue {
        row[1 + (try graph.names.attribute(name, of: entityIndex))]
    }

    /// The attribute's value as stored: `try object["text"]`.
    public subscript(name: String) -> SQLValue {
        get throws(GraphError) { try value(name) }
    }

    // MARK: Typed accessors: nil for no value, an error for an attribute of another type.

    /// A `String`, `URL`, `Date` or `JSON` attribute's text.
    public func string(_ name: String) throws(GraphError) -> String? {
        try typed(name, [.string, .url, .date, .json], "text") { if case .text(let text) = $0 { text } else { nil } }
    }

    public func int(_ name: String) throws(GraphError) -> Int? {
        try typed(name, [.int], "an Int") { if case .integer(let integer) = $0 { Int(exactly: integer) } else { nil } }
    }

    /// A `Double` attribute, or an `Int` one widened.
    public func double(_ name: String) throws(GraphError) -> Double? {
        try typed(name, [.double, .int], "a Double") {
            switch $0 {
            case .real(let real): real
            case .integer(let integer): Double(integer)
            default: nil
            }
        }
    }

    public func bool(_ name: String) throws(GraphError) -> Bool? {
        try typed(name, [.bool], "a Bool") { if case .integer(let integer) = $0 { integer != 0 } else { nil } }
    }

    public func date(_ name: String) throws(GraphError) -> Date? {
        try typed(name, [.date], "a Date") { if case .text(let text) = $0 { StoredDate(text)?.date } else { nil } }
    }

    public func url(_ name: String) throws(GraphError) -> URL? {
        try typed(name, [.url], "a URL") { if case .text(let text) = $0 { URL(string: text) } else { nil } }
    }

    public func data(_ name: String) throws(GraphError) -> Data? {
        try typed(name, [.data], "Data") { if case .blob(let bytes) = $0 { Data(bytes) } else { nil } }
    }

    /// A `JSON` attribute's value.
    public func json(_ name: String) throws(GraphError) -> JSONValue? {
        try typed(name, [.json], "JSON") { if case .text(let text) = $0 { try? JSONParser.parse(text) } else { nil } }
    }

    private func typed<T>(_ name: String, _ types: [ValueType], _ asked: String, _ read: (SQLValue) -> T?) throws(GraphError) -> T? {
        let index = try graph.names.attribute(name, of: entityIndex)
        let attribute = plan.attributes[index]
        guard types.contains(attribute.type) else {
            throw GraphError(.misuse, "\(entity).\(name) is \(attribute.type.rawValue), not \(asked)")
        }
        let value = row[1 + index]
        if value.isNull { return nil }
        guard let typed = read(value) else {
            throw GraphError(.misuse, "\(entity).\(name) holds \(value), which is not \(asked)", hint: "the store was written by another program")
        }
        return typed
    }

    // MARK: Relationships

    /// The objects a relationship leads to, by the map's name: a to-one (none or one), a to-many
    /// in the feed's order, or an `inverse` name (the objects that link here, in row order).
    public func related(_ name: String) throws(GraphError) -> [GraphObject] {
        try related(graph.names.relation(name, of: entityIndex))
    }

    /// The object a to-one leads to, or nil.
    public func relatedObject(_ name: String) throws(GraphError) -> GraphObject? {
        let relation = try graph.names.relation(name, of: entityIndex)
        guard case .toOne = relation else {
            throw GraphError(.misuse, "\(entity).\(name) leads to many objects, not one", hint: "follow it with related(\"\(name)\")")
        }
        return try related(relation).first
    }

    func related(_ relation: GraphNames.Relation) throws(GraphError) -> [GraphObject] {
        let entities = graph.plan.entities
        switch relation {
        case .toOne(let index):
            guard case .integer(let target) = row[1 + plan.attributes.count + index] else { return [] }
            return try graph.object(plan.toOne[index].target, pk: target).map { [$0] } ?? []
        case .toMany(let index):
            let relationship = plan.toMany[index]
            let join = quoteIdentifier(relationship.joinTable)
            let target = entities[relationship.target].table
            return try graph.fetch(
                relationship.target, joinTable: relationship.joinTable,
                join:
                    " JOIN \(join) ON \(join).\(quoteIdentifier(relationship.targetColumn)) = \(quoteIdentifier(target)).\(quoteIdentifier(Naming.primaryKey))",
                where: "\(join).\(quoteIdentifier(relationship.ownerColumn)) = ?", [row[0]],
                tail: " ORDER BY \(join).\(quoteIdentifier(Naming.position))")
        case .inverseToOne(let owner, let index):
            let table = quoteIdentifier(entities[owner].table)
            return try graph.fetch(
                owner, where: "\(table).\(quoteIdentifier(entities[owner].toOne[index].column)) = ?", [row[0]],
                tail: " ORDER BY \(table).\(quoteIdentifier(Naming.primaryKey))")
        case .inverseToMany(let owner, let index):
            let relationship = entities[owner].toMany[index]
            let join = quoteIdentifier(relationship.joinTable)
            let table = quoteIdentifier(entities[owner].table)
            return try graph.fetch(
                owner, joinTable: relationship.joinTable,
                join: " JOIN \(join) ON \(join).\(quoteIdentifier(relationship.ownerColumn)) = \(table).\(quoteIdentifier(Naming.primaryKey))",
                where: "\(join).\(quoteIdentifier(relationship.targetColumn)) = ?", [row[0]],
                tail: " ORDER BY \(table).\(quoteIdentifier(Naming.primaryKey))")
        }
    }
}

extension StoredDate {
    /// The instant, in UTC.
    var date: Date {
        let days = Self.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second
        return Date(timeIntervalSince1970: Double(seconds) + Double(millisecond) / 1000)
    }
}
