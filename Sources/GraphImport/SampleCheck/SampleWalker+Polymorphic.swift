import GraphImportJSON

extension SampleWalker {
    /// Counts the elements of each polymorphic relationship of `entity` in `object` as an import
    /// checks them (`DraftBuilder.checkChoices`): a discriminator absent or without a case, a null
    /// or an `ignore` where a required to-one needs an object. Each branch then counts the
    /// elements chosen for its entity like any relationship's.
    func tallyChoices(in object: JSONObject, entity: Int) {
        for (position, relationship) in plan.entities[entity].polymorphic.enumerated() {
            let (found, path) = reach(relationship.path, relationship.fallbacks, in: object)
            guard case .value(let value) = found else { continue }
            polymorphic[entity][position].present += 1
            switch value {
            case .null, .string(""):
                polymorphic[entity][position].nulls += 1
                if !relationship.isToMany && !relationship.isOptional {
                    polymorphic[entity][position].fail(.refusedNull) {
                        failure("is required but the value is null", hint: "declare it optional: `: \(relationship.typeText)?`", below: path)
                    }
                }
            case .array(let elements) where relationship.isToMany && !relationship.isKeyed:
                for (index, element) in elements.enumerated() {
                    tallyChoice(of: element, for: relationship, into: &polymorphic[entity][position], below: path + [.index(index)])
                }
            case .object(let members) where relationship.isKeyed:
                // `{*}`: each member's value is an element, as an array's is.
                for element in members.members {
                    tallyChoice(of: element.value, for: relationship, into: &polymorphic[entity][position], below: path + [.key(element.key)])
                }
            case .array where relationship.isToMany:
                break  // `{*}` over an array: its branches say so.
            case .array:
                polymorphic[entity][position].fail(.shape) {
                    failure("expected one object or key for the to-one, found an array", below: path)
                }
            default:
                if !relationship.isToMany { tallyChoice(of: value, for: relationship, into: &polymorphic[entity][position], below: path) }
            }
        }
    }

    private func tallyChoice(of element: JSONValue, for relationship: PolymorphicPlan, into tally: inout MemberTally, below path: [PathStep]) {
        tally.tried += 1
        let choice = relationship.choice
        let found = choice.discriminatorValue(in: element)
        let shown = found.map { Value.json($0).shown ?? $0.kindName } ?? "nothing"
        switch choice.outcome(for: found) {
        case .entity: return
        case .ignore:
            if !relationship.isToMany && !relationship.isOptional {
                tally.fail(.refusedNull) {
                    failure(
                        "is required, and the case for \(choice.description) = \(shown) is `ignore`",
                        hint: "declare it optional: `: \(relationship.typeText)?`, or name an entity in that case", below: path)
                }
            }
        case .absent:
            tally.fail(.shape) { failure("the element has no '\(choice.description)' to choose its entity by", below: path) }
        case .unmatched:
            tally.fail(.shape) {
                failure(
                    "no case of the map for \(choice.description) = \(shown)",
                    hint: "the map knows \(choice.known); add a case line below the relationship, or `else -> ignore` to pass such elements over",
                    below: path)
            }
        }
    }
}
