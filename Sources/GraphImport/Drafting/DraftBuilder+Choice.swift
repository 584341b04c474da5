import GraphImportJSON
import GraphImportMapping

/// Polymorphic relationships: before their branches read the elements chosen for each entity,
/// every element must have a case, and a required to-one a value.
extension DraftBuilder {
    /// Checks each polymorphic relationship of `entity` in `object`; call with `stack` at the object.
    mutating func checkChoices(of entity: EntityPlan, in object: JSONObject) throws(RecordError) {
        let depth = stack.count
        defer { truncate(to: depth) }
        for relationship in entity.polymorphic {
            truncate(to: depth)
            let member = relationship.member
            guard let found = try lookupFirst(relationship.path, relationship.fallbacks, in: object, member: member) else { continue }
            switch found {
            case .null, .string(""):
                if !relationship.isToMany && !relationship.isOptional {
                    throw error(member, "is required but the value is null", hint: "declare it optional: `: \(relationship.typeText)?`")
                }
            case .array(let elements) where relationship.isToMany && !relationship.isKeyed:
                for (position, element) in elements.enumerated() {
                    stack.append(.index(position))
                    try checkChoice(of: element, for: relationship)
                    stack.removeLast()
                }
            case .object(let members) where relationship.isKeyed:
                // `{*}`: each member's value is an element, as an array's is.
                for element in members.members {
                    stack.append(.key(element.key))
                    try checkChoice(of: element.value, for: relationship)
                    stack.removeLast()
                }
            case .array where relationship.isToMany:
                break  // `{*}` over an array: its branches say so.
            case .array:
                throw error(
                    member, "expected one object or key for the to-one, found an array",
                    hint: "a to-one links one object; for several, make the type `[\(relationship.typeText.dropFirst().dropLast())]`")
            default:
                // A to-many's branches report a value that is not an array.
                if !relationship.isToMany { try checkChoice(of: found, for: relationship) }
            }
        }
    }

    /// One element: its discriminator must be there and have a case; `ignore` is no object, which
    /// a required to-one refuses.
    private mutating func checkChoice(of element: JSONValue, for relationship: PolymorphicPlan) throws(RecordError) {
        let choice = relationship.choice
        let found = choice.discriminatorValue(in: element)
        switch choice.outcome(for: found) {
        case .entity: return
        case .ignore:
            if !relationship.isToMany && !relationship.isOptional {
                throw error(
                    relationship.member, "is required, and the case for \(choice.description) = \(shown(found)) is `ignore`",
                    hint: "declare it optional: `: \(relationship.typeText)?`, or name an entity in that case")
            }
        case .absent:
            throw error(
                relationship.member, "the element has no '\(choice.description)' to choose its entity by",
                hint: "every element of \(relationship.member) needs it, as the line's `by \(choice.description)` says")
        case .unmatched:
            throw error(
                relationship.member, "no case of the map for \(choice.description) = \(shown(found))",
                hint: "the map knows \(choice.known); add a case line below the relationship, or `else -> ignore` to pass such elements over")
        }
    }

    private func shown(_ value: JSONValue?) -> String {
        guard let value else { return "(absent)" }
        return Value.json(value).shown ?? value.kindName
    }
}
