import GraphImportMapping

extension EntityPlan {
    /// The attributes an owned entity's objects are keyed by: a copy of each part of its owner's
    /// key (`owner_id`), then `position`, the object's place in its owner's list. The drafting
    /// fills them in (`DraftBuilder`); the feed never does. Empty when no relationship holds
    /// the entity (the map's validation reported it).
    static func ownedAttributes(of entity: Entity, mapping: Mapping) -> [AttributePlan] {
        guard
            let owner = mapping.entities.first(where: { owner in owner.relationships.contains { $0.target == entity.name } })
        else { return [] }
        func hidden(_ name: String, type: ValueType) -> AttributePlan {
            AttributePlan(
                name: name, column: name, sourceDescription: "(owner)", path: nil, type: type, isOptional: false, converters: [],
                onNull: .store, onMissing: .keep, defaultValue: nil, always: nil, onChange: nil, checks: [], derived: nil)
        }
        let ownerKey = owner.key.map { name in
            hidden(Naming.ownerKey(attribute: name), type: owner.attribute(named: name)?.type ?? .string)
        }
        return ownerKey + [hidden(Naming.position, type: .int)]
    }
}
