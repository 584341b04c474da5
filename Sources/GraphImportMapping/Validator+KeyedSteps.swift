extension Validator {
    /// Where a member's path may use `{*}` and `$key`: `$key` is the whole path of an attribute;
    /// `{*}` is the last step of a to-many's path, and appears nowhere else in a member's path.
    mutating func checkKeyedSteps(of member: MemberSyntax) {
        guard let path = member.path, let offset = member.pathOffset else { return }
        let isAttribute = member.valueType != nil
        if path.isMemberName {
            if !isAttribute { report(.memberNameOutsideAttribute("a relationship", at: offset)) }
            return
        }
        guard let step = path.components.firstIndex(of: .anyMember) else { return }
        if isAttribute || !member.isList || step != path.components.count - 1 {
            report(.anyMemberMisplaced(at: offset))
        }
    }

    /// Entities that read `$key` must be taken by a `{*}`: a `records` path with `{*}` routed to
    /// them, or a to-many whose path ends in `{*}` into them. Elsewhere `$key` would never hold.
    mutating func checkMemberNamesReached(entities: [Entity], records: [RecordSource]) {
        var reached = Set<String>()
        for source in records where source.paths.contains(where: { $0.components.contains(.anyMember) }) {
            reached.insert(source.entity)
            for choice in source.choice?.cases ?? [] { if let entity = choice.entity { reached.insert(entity) } }
        }
        for entity in entities {
            for relationship in entity.relationships where relationship.source.components.last == .anyMember {
                reached.insert(relationship.target)
            }
        }
        for entity in entities where !reached.contains(entity.name) {
            guard let attribute = entity.attributes.first(where: { $0.source?.isMemberName == true }) else { continue }
            report(.memberNameUnreached(entity.name, at: attribute.pathLocation.offset))
        }
    }
}
