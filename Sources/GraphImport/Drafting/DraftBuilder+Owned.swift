import GraphImportJSON
import GraphImportSchema

/// Where an object of an owned entity belongs: its owner's key and its position in the owner's
/// list (0 for a to-one), which together are its key.
struct OwnerPlace {
    let key: ObjectKey
    let position: Int

    /// Puts the owner's key and the position into the owned entity's key attributes (the
    /// owner's key parts, then `position`).
    func fill(_ values: inout [SQLValue?], keyAttributes: [Int]) {
        for (part, index) in keyAttributes.dropLast().enumerated() where part < key.count { values[index] = key[part] }
        if let last = keyAttributes.last { values[last] = .integer(Int64(position)) }
    }

    /// Why `value` cannot be an object of the owned `entity`: only an object can, as an owned
    /// entity has no key a value could stand for (an import's record error, the sample check's finding).
    static func notAnObject(_ value: JSONValue, entity: String) -> (message: String, hint: String) {
        (
            "expected an object for the owned \(entity), found \(value.kindName)",
            "an owned \(entity) has no key a value could stand for: the feed must hold the object itself"
        )
    }
}

extension DraftBuilder {
    /// An object of an owned entity, drafted with its place as its key. Only an object can be
    /// one: an owned entity has no key for a value to stand for. `slot`: the object's slot in the
    /// record's table, when it has one.
    mutating func ownedLink(
        _ value: JSONValue, target: Int, member: String, owner: OwnerPlace, memberName: String? = nil, elementIndex: Int? = nil, slot: Int? = nil
    ) throws(RecordError) -> LinkDraft {
        guard case .object(let object) = value else {
            let refusal = OwnerPlace.notAnObject(value, entity: plan.entities[target].name)
            throw error(member, refusal.message, hint: refusal.hint)
        }
        return .object(try draft(object, entity: target, memberName: memberName, owner: owner, elementIndex: elementIndex, slot: slot))
    }
}
