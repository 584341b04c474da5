import GraphImportJSON
import GraphImportSchema

/// An object inserted, changed or deleted by a run, as `ObjectGraph.changes(since:)` reports it.
public struct Change: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case inserted, changed, deleted
    }

    public var entity: String
    /// The key attributes by name: `{"id": 42}`.
    public var key: JSONValue
    public var kind: Kind
    /// The run that did it: for an object, the last run that changed it.
    public var run: Int64
    /// The object's attributes by name, its to-ones as their targets' keys (or null) and its
    /// to-manys as arrays of keys in order; nil for a deleted object.
    public var values: JSONValue?

    /// The change as one line of JSON Lines (without the line break):
    /// `{"entity":"Tweet","key":{"id":1},"change":"inserted","run":3,"values":{…}}`.
    public var jsonLine: String {
        var members = [
            JSONMember(key: "entity", value: .string(entity)), JSONMember(key: "key", value: key),
            JSONMember(key: "change", value: .string(kind.rawValue)), JSONMember(key: "run", value: .number(JSONNumber(integer: run))),
        ]
        if let values { members.append(JSONMember(key: "values", value: values)) }
        return JSONValue.object(JSONObject(members)).jsonText
    }
}

/// What `ObjectGraph.changes(since:)` read, besides the changes themselves.
public struct ChangesRead: Sendable, Equatable {
    /// The first run whose deletions the store records; nil when it records none. Deletions by
    /// runs after `since` and before this one are not known.
    public var deletionsRecordedSince: Int64?
}

extension ObjectGraph {
    /// The objects inserted, changed or deleted by runs after `run`, entity by entity (those
    /// named, or every entity of the map), each entity's in the order of the runs that did them,
    /// deletions of a run before its other changes. Everything is read from one committed state
    /// of the store, so that an import that commits meanwhile is either wholly in or wholly out.
    ///
    /// An object inserted after `run` is `inserted` even when a later run changed it too; an
    /// object inserted and then deleted after `run` is reported deleted. Deletions are known from
    /// the run that first recorded them (`ChangesRead.deletionsRecordedSince`).
    @discardableResult
    public func changes(since run: Int64, entities: [String]? = nil, _ each: (Change) -> Void) throws(GraphError) -> ChangesRead {
        var chosen: [Int] = []
        if let entities {
            for name in entities { chosen.append(try names.entity(name)) }
        } else {
            chosen = Array(plan.entities.indices)
        }
        try reading { () throws(ReadError) in try reader.beginRead() }
        defer { reader.endRead() }
        let read = try reading { () throws(ReadError) in
            ChangesRead(deletionsRecordedSince: try reader.deletionsRecordedSince())
        }
        for index in chosen {
            let entity = plan.entities[index]
            let table = quoteIdentifier(entity.table)
            let inserted = "\(table).\(quoteIdentifier(Naming.insertedRun))"
            let changed = "\(table).\(quoteIdentifier(Naming.changedRun))"
            let objects = try fetch(
                index, where: "\(inserted) > ? OR \(changed) > ?", [.integer(run), .integer(run)],
                tail: " ORDER BY coalesce(\(changed), \(inserted)), \(table).\(quoteIdentifier(Naming.primaryKey))")
            var deleted = try reading { () throws(ReadError) in try reader.deletions(of: entity.name, after: run) }[...]
            for object in objects {
                let objectRun = object.changedRun ?? object.insertedRun ?? 0
                while let first = deleted.first, first.run <= objectRun {
                    each(Self.deletion(entity.name, first))
                    deleted = deleted.dropFirst()
                }
                let kind: Change.Kind = (object.insertedRun ?? 0) > run ? .inserted : .changed
                each(Change(entity: entity.name, key: StoredJSON.key(object.key, of: entity), kind: kind, run: objectRun, values: try object.changeValues()))
            }
            for tombstone in deleted { each(Self.deletion(entity.name, tombstone)) }
        }
        return read
    }

    private static func deletion(_ entity: String, _ tombstone: (run: Int64, key: String)) -> Change {
        Change(entity: entity, key: (try? JSONParser.parse(tombstone.key)) ?? .string(tombstone.key), kind: .deleted, run: tombstone.run, values: nil)
    }
}

extension GraphObject {
    /// The attributes, then each to-one as its target's key and each to-many as its targets' keys.
    func changeValues() throws(GraphError) -> JSONValue {
        var members = attributeMembers()
        for (index, relationship) in plan.toOne.enumerated() {
            let target = try related(.toOne(index)).first
            members.append(JSONMember(key: relationship.name, value: target.map { StoredJSON.key($0.key, of: $0.plan) } ?? .null))
        }
        for (index, relationship) in plan.toMany.enumerated() {
            members.append(
                JSONMember(
                    key: relationship.name,
                    value: .array(
                        try related(relationship.foreignKey.map { .inverseToOne(owner: relationship.target, index: $0) } ?? .toMany(index)).map {
                            StoredJSON.key($0.key, of: $0.plan)
                        })))
        }
        return .object(JSONObject(members))
    }
}
