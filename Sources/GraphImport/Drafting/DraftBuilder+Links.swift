import GraphImportJSON
import GraphImportSchema

extension DraftBuilder {
    /// Appends the values of `relationship`'s link attributes read from one array element (the
    /// target object itself, or the object that wraps it with `each`), through each attribute's
    /// converters, null rule and checks. An absent key is null for an optional link attribute
    /// (a changed list is written whole: there is no stored value to keep) and refuses the record
    /// for a required one; an element that is not an object has no keys.
    mutating func appendLinkValues(of relationship: ToManyPlan, in element: JSONValue, to values: inout [SQLValue]) throws(RecordError) {
        for (index, attribute) in relationship.linkAttributes.enumerated() {
            let member = relationship.linkMembers[index]
            var value: SQLValue?
            if case .object(let object) = element { value = try self.value(of: attribute, in: object, member: member) }
            if let value {
                values.append(value)
            } else if attribute.isOptional {
                values.append(.null)
            } else {
                throw error(
                    member, "the element has no '\(attribute.sourceDescription)', a required link attribute",
                    hint: "declare it optional (`: \(attribute.type.rawValue)?`) to store null for elements without it")
            }
        }
    }

    /// Puts the link values of the to-many at `position` into `linkValues`, made at its size on first use.
    func setLinkValues(_ values: [SQLValue], at position: Int, of entity: EntityPlan, in linkValues: inout [[SQLValue]?]?) {
        if linkValues == nil { linkValues = Array(repeating: nil, count: entity.toMany.count) }
        linkValues![position] = values
    }
}
