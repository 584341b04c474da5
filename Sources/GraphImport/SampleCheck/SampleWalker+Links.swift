import GraphImportJSON
import GraphImportSchema

extension SampleWalker {
    /// Counts the link attributes of one element of a to-many, read from the element as an
    /// import reads them (`DraftBuilder.appendLinkValues`): an absent key is null for an optional
    /// one and refuses the record for a required one; values go through the attribute's own
    /// converters, type and checks. Counts are kept per element (`tried` counts every one), so
    /// that a warning says how many of the elements fail.
    func tallyLinks(_ element: JSONValue, of relationship: ToManyPlan, entity: Int, position: Int) {
        for (index, attribute) in relationship.linkAttributes.enumerated() {
            guard let path = attribute.path else { continue }
            links[entity][position][index].tried += 1
            let reached: Reach
            if case .object(let object) = element {
                reached = reach(path, in: object)
            } else {
                reached = .absent(key: nil, depth: 0, beside: nil)
            }
            switch reached {
            case .absent(let key, let depth, let beside):
                links[entity][position][index].noteMiss(key: key, depth: depth, beside: beside)
                if !attribute.isOptional {
                    links[entity][position][index].fail(.shape) {
                        failure(
                            "the element has no '\(attribute.sourceDescription)', a required link attribute",
                            hint: "declare it optional (`: \(attribute.type.rawValue)?`) to store null for elements without it")
                    }
                }
            case .blocked(let message):
                links[entity][position][index].present += 1
                links[entity][position][index].fail(.shape) { failure(message, below: path) }
            case .value(let raw):
                links[entity][position][index].present += 1
                tallyLinkValue(raw, of: attribute, path: path, into: &links[entity][position][index])
            }
        }
    }

    private func tallyLinkValue(_ raw: JSONValue, of attribute: AttributePlan, path: [PathStep], into tally: inout MemberTally) {
        let value: SQLValue
        do throws(ConversionError) {
            value = try attribute.sqlValue(raw)
        } catch {
            tally.fail(.conversion) { failure(error.message, hint: error.hint, below: path) }
            return
        }
        if value == .null {
            tally.nulls += 1
            if attribute.refusesNull {
                tally.fail(.refusedNull) {
                    failure("is required but the value is null", hint: "declare it optional: `: \(attribute.type.rawValue)?`", below: path)
                }
            }
        } else if let message = attribute.failedCheck(value) {
            tally.fail(.check) { failure("\(message) (value: \(value.shown))", below: path) }
        }
    }
}
