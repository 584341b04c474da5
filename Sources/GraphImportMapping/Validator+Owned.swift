extension Validator {
    /// `entity NAME owned`: an owned entity has no key, is no records' entity and is held by
    /// exactly one relationship of an entity with a key, which has none of the clauses that
    /// assume objects with an identity (`merge`, `link existing`, `unkeyed`, `inverse`, a delete
    /// rule, a polymorphic target). Its own relationships are any entity's, into keyed entities
    /// (an owned object within an owned object would have no owner key to be placed by). Marks
    /// the entities owned.
    mutating func checkOwnership(entities: inout [Entity], records: [RecordSource]) {
        let owned = Dictionary(
            syntax.entities.compactMap { entity in entity.owned.map { (entity.name.value, $0) } }, uniquingKeysWith: { first, _ in first })
        for (index, entity) in syntax.entities.enumerated() where entity.owned != nil {
            entities[index].isOwned = true
            let name = entity.name.value
            if let key = entity.keys.first { report(.keyOnOwned(name, at: key.offset)) }
            if let deletion = entity.deletions.first { report(.deleteMissingOnOwned(name, at: deletion.offset)) }
        }
        for record in records {
            let named = [record.entity] + (record.choice?.cases.compactMap(\.entity) ?? [])
            for name in Set(named) where owned[name] != nil {
                report(.ownedAsRecords(name, at: record.location.offset))
            }
        }
        var holders: [String: (owner: String, member: String, offset: Int)] = [:]
        for entity in syntax.entities {
            for member in entity.members where member.valueType == nil {
                let targets = [member.typeName] + member.alternatives
                for target in targets where owned[target.value] != nil {
                    let holder = "\(entity.name.value).\(member.name.value)"
                    if !member.alternatives.isEmpty {
                        report(.ownedInPolymorphic(target.value, member: holder, at: target.offset))
                        // Held all the same, for the error below.
                        if holders[target.value] == nil { holders[target.value] = (entity.name.value, member.name.value, member.name.offset) }
                        continue
                    }
                    if owned[entity.name.value] != nil {
                        report(.ownedHoldsOwned(entity.name.value, member: member.name.value, target: target.value, at: member.name.offset))
                        // Held all the same, for the error below.
                        if holders[target.value] == nil { holders[target.value] = (entity.name.value, member.name.value, member.name.offset) }
                        continue
                    }
                    if let first = holders[target.value] {
                        report(.ownedTwice(target.value, first: first.owner + "." + first.member, line: line(first.offset), at: member.name.offset))
                        continue
                    }
                    holders[target.value] = (entity.name.value, member.name.value, member.name.offset)
                    let clauses: [(word: String, offset: Int?)] = [
                        ("merge", member.merge?.offset), ("link existing", member.linkExisting?.offset),
                        ("unkeyed", member.unkeyedRule?.keyword.offset), ("delete", member.deleteRule?.keyword.offset),
                        ("inverse", member.inverse?.offset),
                    ]
                    for clause in clauses {
                        guard let offset = clause.offset else { continue }
                        report(.clauseOnOwnedRelationship(holder, clause: clause.word, target: target.value, at: offset))
                    }
                }
            }
        }
        for entity in syntax.entities where entity.owned != nil && holders[entity.name.value] == nil {
            report(.ownedWithoutOwner(entity.name.value, at: entity.owned ?? entity.name.offset))
        }
    }

}
