import GraphImportJSON
import GraphImportSchema

/// The links a to-many's value makes: one per element of an array, or per member of a `{*}`
/// object, each element drafted (from its slot in the record's table where it has one) or linked
/// by key, with the size limit, `where`, `each`, `unkeyed skip`, owned targets and link attributes.
extension DraftBuilder {
    /// The links a to-many's value `found` makes: none where it is null, one per element of an
    /// array, one per member of an object for a `{*}` path (`elementLinks`); anything else, or
    /// more elements than a to-many takes, is the record's error. `linkRows`: the elements'
    /// link attribute values.
    mutating func links(
        for found: JSONValue, of relationship: ToManyPlan, member: String, ownerKey key: ObjectKey, linkRows: inout [SQLValue]
    ) throws(RecordError) -> [LinkDraft] {
        switch found {
        case .null, .string(""):
            return []
        case .object(let members) where relationship.isKeyed:
            if members.members.count > ImportLimits.maxToManyElements {
                throw error(
                    member,
                    "the object has \(members.members.count) members; a to-many takes at most \(ImportLimits.maxToManyElements) per object",
                    hint: "this limit keeps one object's links in memory bounded")
            }
            return try elementLinks(
                count: members.members.count, { (members.members[$0].key, members.members[$0].value) }, relationship: relationship,
                member: member, ownerKey: key, linkRows: &linkRows)
        case .array where relationship.isKeyed:
            throw error(
                member, "expected an object whose members are the elements ('\(relationship.sourceDescription)'), found an array",
                hint: "`{*}` takes the members of an object; for an array, drop `{*}` from the path")
        case .array(let elements):
            try checkSize(ofArray: elements.count, member: member)
            return try elementLinks(
                count: elements.count, { (nil, elements[$0]) }, relationship: relationship, member: member, ownerKey: key, linkRows: &linkRows)
        case let value:
            throw error(member, "expected an array for the to-many '\(relationship.name)', found \(value.kindName)", hint: nil)
        }
    }

    /// Refuses an array of more elements than a to-many takes.
    func checkSize(ofArray count: Int, member: String) throws(RecordError) {
        guard count > ImportLimits.maxToManyElements else { return }
        throw error(
            member, "the array has \(count) elements; a to-many takes at most \(ImportLimits.maxToManyElements) per object",
            hint: "this limit keeps one object's links in memory bounded")
    }

    /// One link per element of a to-many: of its array, or of its object's members (`{*}`, in
    /// document order, each drafted with its member's name for `$key`). The same rules for both:
    /// `where`, `each`, `unkeyed skip`, owned targets, and the link attributes read from each
    /// element into `linkRows`. `firstElementSlot`: the slot of an array's first element in the
    /// record's table, when its elements have slots (each next one is the last one's `end(of:)`):
    /// `elementAt` is then not asked, and an element that needs its tree has it made from its slot.
    mutating func elementLinks(
        count: Int, _ elementAt: (Int) -> (name: String?, value: JSONValue), relationship: ToManyPlan, member: String, ownerKey: ObjectKey,
        linkRows: inout [SQLValue], firstElementSlot: Int? = nil
    ) throws(RecordError) -> [LinkDraft] {
        let named = readsBareValue[relationship.target]
        let hasLinkAttributes = relationship.hasLinkAttributes
        var links: [LinkDraft] = []
        links.reserveCapacity(count)
        // No `where`, `each`, `unkeyed skip` or link attributes, which read each element's tree.
        let draftsFromSlots =
            firstElementSlot != nil && relationship.isPlain && relationship.elementPath.isEmpty && !relationship.skipsUnkeyed && !hasLinkAttributes
        var nextElementSlot = firstElementSlot
        for position in 0..<count {
            let elementSlot = nextElementSlot
            if let elementSlot { nextElementSlot = recordSlots.end(of: elementSlot) }
            // An object in its slot: drafted from it, as `ownedLink`, `draft` and `link` below
            // draft an array's element that is an object, its tree made only if its reads need it.
            if draftsFromSlots, let slot = elementSlot, hasRecordSlots, recordSlots.kind(at: slot) == .object {
                let depth = stack.count
                stack.append(.index(position))
                let owner = relationship.ownsTarget ? OwnerPlace(key: ownerKey, position: links.count) : nil
                links.append(.object(try draft(nil, entity: relationship.target, owner: owner, elementIndex: position, slot: slot)))
                if let toOne = relationship.foreignKey, let last = links.indices.last {
                    links[last] = linkElement(links[last], toOne: toOne, owner: relationship.owner, key: ownerKey)
                }
                truncate(to: depth)
                continue
            }
            let (name, element) = if let elementSlot { (nil as String?, recordSlots.value(at: elementSlot)) } else { elementAt(position) }
            if !relationship.isPlain, let filter = relationship.filter, !filter.takes(element) { continue }
            stack.append(name.map(PathStep.key) ?? .index(position))
            let elementDepth = stack.count
            var target = element
            // An element drafted as an object from its slot: only the element itself (an `each`
            // path's object is a tree's).
            var targetSlot = elementSlot
            if let slot = targetSlot, !hasRecordSlots || recordSlots.kind(at: slot) != .object { targetSlot = nil }
            if !relationship.elementPath.isEmpty {
                targetSlot = nil
                guard case .object(let wrapper) = element, let inner = try lookup(relationship.elementPath, in: wrapper, member: member) else {
                    if relationship.skipsUnkeyed, element.isObjectOrNull {
                        skip(member, "an element without '\(relationship.elementPath.text)'")
                        truncate(to: elementDepth - 1)
                        continue
                    }
                    throw error(
                        member,
                        "expected an object with '\(relationship.elementPath.text)' in each \(name == nil ? "element" : "member"), found \(element.kindName)",
                        hint: nil)
                }
                target = inner
            }
            if relationship.skipsUnkeyed, let reason = try unkeyedReason(target, entity: relationship.target) {
                skip(member, reason)
                truncate(to: elementDepth - 1)
                continue
            }
            if case .null = target {
                throw error(
                    member, name == nil ? "an element of the array is null" : "a member of the object is null",
                    hint: "add `unkeyed skip` to the relationship to leave such elements out (counted), if the feed may hold them")
            }
            switch target {
            case _ where relationship.ownsTarget:
                let owner = OwnerPlace(key: ownerKey, position: links.count)
                links.append(
                    try ownedLink(
                        target, target: relationship.target, member: member, owner: owner, memberName: name, elementIndex: position, slot: targetSlot))
            case .object(let object) where name == nil && readsElementIndex[relationship.target]:
                links.append(.object(try draft(object, entity: relationship.target, elementIndex: position, slot: targetSlot)))
            case .object(let object) where named && name != nil:
                links.append(.object(try draft(object, entity: relationship.target, memberName: name)))
            case .array where readsArrayValue[relationship.target]:
                links.append(
                    .object(
                        try draft(
                            JSONObject([]), entity: relationship.target, memberName: name, bareValue: target,
                            elementIndex: name == nil ? position : nil)))
            case .string where named && name != nil, .number where named && name != nil, .bool where named && name != nil:
                links.append(.object(try draft(JSONObject([]), entity: relationship.target, memberName: name, bareValue: target)))
            default:
                links.append(
                    try link(target, target: relationship.target, member: member, existingOnly: relationship.linksExistingOnly, slot: targetSlot))
            }
            if let toOne = relationship.foreignKey, let last = links.indices.last {
                links[last] = linkElement(links[last], toOne: toOne, owner: relationship.owner, key: ownerKey)
            }
            if hasLinkAttributes {
                truncate(to: elementDepth)
                try appendLinkValues(of: relationship, in: element, to: &linkRows)
            }
            truncate(to: elementDepth - 1)
        }
        return links
    }
}
