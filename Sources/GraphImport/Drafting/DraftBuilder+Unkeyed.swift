import GraphImportJSON

/// `unkeyed skip`: the elements a relationship leaves out instead of refusing the record.
extension DraftBuilder {
    /// Why `value` (an element, or a to-one's object) has no key of `entity`, or nil when it has
    /// one or is not an object or null (a scalar is a key; other shapes fail as without the clause).
    mutating func unkeyedReason(_ value: JSONValue, entity: Int) throws(RecordError) -> String? {
        switch value {
        case .null: return "a null element"
        case .object(let object): return try absentKey(of: object, entity: entity).map { "an object without its key '\($0)'" }
        default: return nil
        }
    }

    /// The path of the first key attribute of `entity` that `object` lacks (absent, or null in
    /// the JSON), or nil when it has them all. A key the engine sets (no path) counts as there.
    mutating func absentKey(of object: JSONObject, entity index: Int) throws(RecordError) -> String? {
        let entity = plan.entities[index]
        // `$` and `$key` read what the object was taken as, known only once it is drafted.
        if entity.readsBareValue { return nil }
        for keyIndex in entity.keyAttributes {
            let attribute = entity.attributes[keyIndex]
            // `$index` is the element's position, which every element has.
            guard attribute.path != nil, attribute.path != [.elementIndex] else { continue }
            switch try rawValue(of: attribute, in: object, member: entity.attributeMembers[keyIndex]) {
            case nil:
                if case .value = attribute.onMissing { continue }
                return attribute.sourceDescription
            case .null?: return attribute.sourceDescription
            default: continue
            }
        }
        return nil
    }

    /// Notes an element left out at the top of the path stack.
    mutating func skip(_ member: String, _ reason: String) {
        noteSkipped(SkippedElement(member: member, reason: reason, path: currentPath))
    }
}

extension JSONValue {
    /// An object or null: what an element without its key may be (a scalar is a key itself).
    var isObjectOrNull: Bool {
        switch self {
        case .object, .null: true
        default: false
        }
    }
}
