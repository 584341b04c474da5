extension Validator {
    /// key rules: exactly one `key` line; it names attributes of this entity, each once, none optional.
    /// Returns the key's names (empty when the entity has none).
    mutating func checkKey(of entity: EntitySyntax, attributes: [Attribute], relationships: [Relationship]) -> [String] {
        guard let keyLine = entity.keys.first else {
            if !entity.hasBrokenKeyLine {
                report(.missingKey(entity.name.value, at: entity.name.offset))
            }
            return []
        }
        for extra in entity.keys.dropFirst() {
            report(.secondKey(entity.name.value, firstLine: line(keyLine.offset), at: extra.offset))
        }
        var seen: Set<String> = []
        for name in keyLine.names {
            guard seen.insert(name.value.lowercased()).inserted else {
                report(.repeatedKeyName(name.value, at: name.offset))
                continue
            }
            if let attribute = attributes.first(where: { $0.name == name.value }) {
                if attribute.isOptional { report(.optionalKey(name.value, at: name.offset)) }
            } else if relationships.contains(where: { $0.name == name.value }) {
                report(.keyNamesRelationship(name.value, at: name.offset))
            } else if !entity.brokenMemberNames.contains(name.value)
                && !entity.members.contains(where: { $0.name.value == name.value })
            {
                let suggestion = closestMatch(to: name.value, among: attributes.map(\.name))
                report(.keyNamesNothing(name.value, entity: entity.name.value, suggestion: suggestion, at: name.offset))
            }
        }
        return keyLine.names.map(\.value)
    }

    /// inverse rules: an inverse must not reuse a member name of its target, and two relationships
    /// into one entity must not declare the same inverse (compared ignoring case, like columns).
    mutating func checkInverses() {
        var declared: [String: (owner: String, offset: Int)] = [:]
        for entity in syntax.entities {
            // A polymorphic relationship's inverse is declared on each of its entities.
            let targets = entity.members.filter { $0.valueType == nil }.flatMap { member in ([member.typeName] + member.alternatives).map { (member, $0) } }
            for (member, targetName) in targets {
                guard let inverse = member.inverse,
                    let target = syntax.entities.first(where: { $0.name.value == targetName.value })
                else { continue }
                let folded = inverse.value.lowercased()
                if let clash = target.members.first(where: { $0.name.value.lowercased() == folded }) {
                    if isInversePair(member, of: entity, clash) {
                        if member.isList { checkStoredOnce(toMany: member, toOne: clash) }
                        continue
                    }
                    report(
                        .inverseClash(
                            inverse.value, target: target.name.value, member: clash.name.value,
                            kind: clash.valueType == nil ? "relationship" : "attribute", at: inverse.offset))
                    continue
                }
                let slot = target.name.value + "\u{0}" + folded
                if let first = declared[slot] {
                    report(
                        .duplicateInverse(
                            inverse.value, target: target.name.value, firstOwner: first.owner, line: line(first.offset),
                            file: otherFile(of: first.offset, from: inverse.offset), at: inverse.offset))
                } else {
                    declared[slot] = ("\(entity.name.value).\(member.name.value)", inverse.offset)
                }
            }
        }
    }

    /// Whether `member` of `entity` and `other` (a member of its target) name each other as
    /// inverses, one a to-one and the other a to-many: one fact stated from both sides, stored once.
    private func isInversePair(_ member: MemberSyntax, of entity: EntitySyntax, _ other: MemberSyntax) -> Bool {
        other.valueType == nil && member.isList != other.isList && other.typeName.value == entity.name.value
            && other.inverse?.value.lowercased() == member.name.value.lowercased() && member.alternatives.isEmpty
            && other.alternatives.isEmpty
    }

    /// A to-many stored as its inverse to-one's foreign key: what the column cannot hold is a map
    /// error at the clause that asks for it.
    private mutating func checkStoredOnce(toMany: MemberSyntax, toOne: MemberSyntax) {
        let pair = "'\(toMany.name.value)' and '\(toOne.name.value)'"
        if let link = toMany.links.first {
            report(
                .storedOnceRefuses(
                    "link attributes", pair: pair, hint: "a link's values need a join table: drop the `inverse` on one side", at: link.keywordOffset))
        }
        if let rule = toMany.deleteRule, rule.value.value != .nullify {
            report(
                .storedOnceRefuses(
                    "a delete rule on the to-many", pair: pair,
                    hint:
                        "the foreign key is the to-one's: write the rule on '\(toOne.name.value)' (`delete cascade` deletes the \(toOne.typeName.value)'s objects with it)",
                    at: rule.keyword.offset))
        }
        if let clause = toMany.linkExisting {
            report(
                .storedOnceRefuses(
                    "`link existing` on the to-many", pair: pair, hint: "write `link existing` on '\(toOne.name.value)' instead", at: clause.offset))
        }
        if !toOne.isOptional && toMany.merge == nil {
            report(
                .storedOnceRefuses(
                    "a required to-one beside a to-many that replaces its list", pair: pair,
                    hint: "an object the list no longer names would be left without its required '\(toOne.name.value)': "
                        + "make it optional (`: \(toOne.typeName.value)?`) or add `merge` to '\(toMany.name.value)'",
                    at: toOne.typeName.offset))
        }
    }
}
