import GraphImportJSON
import GraphImportMapping
import GraphImportStore

/// Phase one of a record: reads, converts and checks every mapped value into drafts.
struct DraftBuilder {
    let plan: ImportPlan
    /// The path below the record of the value being read, kept as a stack and made text only on failure.
    private var stack: [PathStep] = []
    private var record: JSONRecord?

    init(plan: ImportPlan) { self.plan = plan }

    /// The draft of a record that becomes an object of `entity`.
    mutating func draft(record: JSONRecord, entity: Int) throws(RecordError) -> ObjectDraft {
        self.record = record
        stack.removeAll(keepingCapacity: true)
        guard case .object(let object) = record.value else {
            throw error(nil, "expected an object for \(plan.entities[entity].name), found \(record.value.kindName)", hint: nil)
        }
        return try draft(object, entity: entity)
    }

    private mutating func draft(_ object: JSONObject, entity index: Int) throws(RecordError) -> ObjectDraft {
        let entity = plan.entities[index]
        var values: [SQLValue?] = []
        values.reserveCapacity(entity.attributes.count)
        for attribute in entity.attributes {
            values.append(try value(of: attribute, in: object, entity: entity))
        }
        var keyValues: [SQLValue] = []
        for keyIndex in entity.keyAttributes {
            let attribute = entity.attributes[keyIndex]
            guard let value = values[keyIndex] else {
                throw error(
                    "\(entity.name).\(attribute.name)",
                    "the object has no '\(attribute.sourceDescription)', the key of \(entity.name)",
                    hint: "every \(entity.name) needs its key; check the map's `key` line and the path `\(attribute.sourceDescription)`")
            }
            keyValues.append(value)
        }
        var toOne: [LinkDraft?] = []
        let depth = stack.count
        for relationship in entity.toOne {
            let member = "\(entity.name).\(relationship.name)"
            defer { truncate(to: depth) }
            switch try lookup(relationship.path, in: object, member: member) {
            case nil: toOne.append(nil)
            case .null?:
                if !relationship.isOptional {
                    throw error(member, "is required but the value is null", hint: "declare it optional: `: \(plan.entities[relationship.target].name)?`")
                }
                toOne.append(.null)
            case let value?:
                toOne.append(try link(value, target: relationship.target, member: member))
            }
        }
        var toMany: [[LinkDraft]?] = []
        for relationship in entity.toMany {
            let member = "\(entity.name).\(relationship.name)"
            defer { truncate(to: depth) }
            switch try lookup(relationship.path, in: object, member: member) {
            case nil: toMany.append(nil)
            case .null?: toMany.append([])
            case .array(let elements)?:
                var links: [LinkDraft] = []
                links.reserveCapacity(elements.count)
                for (position, element) in elements.enumerated() {
                    stack.append(.index(position))
                    if case .null = element {
                        throw error(member, "an element of the array is null", hint: nil)
                    }
                    links.append(try link(element, target: relationship.target, member: member))
                    stack.removeLast()
                }
                toMany.append(links)
            case let value?:
                throw error(member, "expected an array for the to-many '\(relationship.name)', found \(value.kindName)", hint: nil)
            }
        }
        return ObjectDraft(entity: index, key: ObjectKey(values: keyValues), values: values, toOne: toOne, toMany: toMany)
    }

    /// A nested object or a key value, as a link to an object of `target`.
    private mutating func link(_ value: JSONValue, target: Int, member: String) throws(RecordError) -> LinkDraft {
        switch value {
        case .object(let object):
            return .object(try draft(object, entity: target))
        case .array:
            throw error(
                member, "expected an object or a key of \(plan.entities[target].name), found an array",
                hint: "map arrays with a to-many: `: [\(plan.entities[target].name)]`")
        default:
            let entity = plan.entities[target]
            guard entity.keyAttributes.count == 1 else {
                throw error(
                    member, "a single value cannot stand for a \(entity.name): its key has \(entity.keyAttributes.count) parts",
                    hint: "the JSON must hold an object here")
            }
            let attribute = entity.attributes[entity.keyAttributes[0]]
            let key = try convert(value, for: attribute, member: "\(member) (key \(entity.name).\(attribute.name))")
            if key == .null {
                throw error(member, "the key value is null", hint: nil)
            }
            return .reference(entity: target, key: ObjectKey(values: [key]))
        }
    }

    /// The stored value of `attribute`, or nil when the JSON has no such key.
    private mutating func value(of attribute: AttributePlan, in object: JSONObject, entity: EntityPlan) throws(RecordError) -> SQLValue? {
        let member = "\(entity.name).\(attribute.name)"
        let depth = stack.count
        defer { truncate(to: depth) }
        guard let raw = try lookup(attribute.path, in: object, member: member) else { return nil }
        let value = try convert(raw, for: attribute, member: member)
        if value == .null && !attribute.isOptional {
            throw error(member, "is required but the value is null", hint: "declare it optional: `: \(attribute.type.rawValue)?`")
        }
        return value
    }

    private func convert(_ raw: JSONValue, for attribute: AttributePlan, member: String) throws(RecordError) -> SQLValue {
        var value = Value.json(raw)
        do {
            for converter in attribute.converters { value = try converter(value) }
            return try Coercion.sqlValue(value, as: attribute.type)
        } catch {
            throw self.error(member, error.message, hint: error.hint)
        }
    }

    /// Follows `path` from `object`, pushing each step taken; nil when a key or index is absent.
    /// A null on the way makes the value null; any other non-container on the way is an error.
    private mutating func lookup(_ path: [PathStep], in object: JSONObject, member: String) throws(RecordError) -> JSONValue? {
        var current = JSONValue.object(object)
        for step in path {
            switch (step, current) {
            case (_, .null):
                return .null
            case (.key(let key), .object(let container)):
                guard let next = container[key] else { return nil }
                current = next
            case (.index(let index), .array(let elements)):
                guard index < elements.count else { return nil }
                current = elements[index]
            case (.key(let key), _):
                throw error(member, "expected an object with the key '\(key)', found \(current.kindName)", hint: nil)
            case (.index(let index), _):
                throw error(member, "expected an array to take element [\(index)] of, found \(current.kindName)", hint: nil)
            }
            stack.append(step)
        }
        return current
    }

    /// Undoes what `lookup` pushed (it stops early when a key is absent).
    private mutating func truncate(to depth: Int) {
        if stack.count > depth { stack.removeLast(stack.count - depth) }
    }

    private func error(_ member: String?, _ message: String, hint: String?) -> RecordError {
        var path = record?.path ?? .root
        for step in stack {
            switch step {
            case .key(let key): path.components.append(.key(key))
            case .index(let index): path.components.append(.index(index))
            }
        }
        return RecordError(
            recordIndex: record?.index ?? 0, position: record?.position ?? JSONPosition(offset: 0, line: 1, column: 1),
            path: path.description, member: member, message: message, hint: hint)
    }
}
