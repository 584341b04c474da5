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
        if path.isElementIndex {
            if !isAttribute { report(.elementIndexOutsideAttribute("a relationship", at: offset)) }
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
                reached.formUnion(relationship.targets)
            }
        }
        for entity in entities where !reached.contains(entity.name) {
            guard let attribute = entity.attributes.first(where: { $0.source?.isMemberName == true }) else { continue }
            report(.memberNameUnreached(entity.name, at: attribute.pathLocation.offset))
        }
    }

    /// Entities that read `$index` must come only from arrays: every `records` path routed to
    /// them takes array elements (its last `[*]`, `[*?]` or `{*}` is not `{*}`), every to-many into
    /// them reads an array (not `{*}`), and at least one of these takes them. An object's member
    /// has a name (`$key`), not a position.
    mutating func checkElementIndexesReached(entities: [Entity], records: [RecordSource]) {
        let readers = entities.compactMap { entity in
            entity.attributes.first(where: { $0.source?.isElementIndex == true }).map { (entity.name, $0.pathLocation.offset) }
        }
        guard !readers.isEmpty else { return }
        var fromArrays = Set<String>()
        var refusals: [String: String] = [:]
        for source in records {
            let targets = [source.entity] + (source.choice?.cases.compactMap(\.entity) ?? [])
            for path in source.paths {
                let last = path.components.last { [.anyIndex, .anyIndexOrOne, .anyMember].contains($0) }
                for target in targets {
                    switch last {
                    case .anyIndex?, .anyIndexOrOne?: fromArrays.insert(target)
                    case .anyMember?:
                        refusals[target] =
                            refusals[target] ?? "`records at \(path)` takes it from an object's members, which have names (`$key`), not positions"
                    default: refusals[target] = refusals[target] ?? "`records at \(path)` takes a single object, which is in no array"
                    }
                }
            }
        }
        for entity in entities {
            for relationship in entity.relationships where relationship.isToMany {
                for target in relationship.choice?.targets ?? [relationship.target] {
                    if relationship.sources.contains(where: { $0.components.last == .anyMember }) {
                        refusals[target] =
                            refusals[target]
                            ?? "\(entity.name).\(relationship.name) takes it from an object's members, which have names (`$key`), not positions"
                    } else {
                        fromArrays.insert(target)
                    }
                }
            }
        }
        for (name, offset) in readers {
            if let why = refusals[name] {
                report(.elementIndexUnreached(name, why, at: offset))
            } else if !fromArrays.contains(name) {
                report(.elementIndexUnreached(name, "no `records` path with `[*]` and no to-many takes \(name) objects from an array", at: offset))
            }
        }
    }
}
