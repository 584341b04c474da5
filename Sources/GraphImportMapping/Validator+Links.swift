extension Validator {
    /// The `link` lines of a to-many, as attributes of its links: built-in types, names unique
    /// within the relationship (ignoring case, as columns are), and only the clauses that make
    /// sense for a value written with its link (converters, `check`, `null` and `missing` rules
    /// that do not keep a stored value).
    mutating func resolveLinks(of relationship: MemberSyntax, in entity: EntitySyntax) -> [Attribute] {
        var attributes: [Attribute] = []
        var seen: [String: Located<String>] = [:]
        for link in relationship.links {
            var member = link.member
            let name = member.name
            if let first = seen[name.value.lowercased()] {
                report(duplicate("link attribute", name, first: first))
                continue
            }
            seen[name.value.lowercased()] = name
            guard let type = member.valueType else {
                let written = member.typeName
                if member.isList || entityNames.contains(written.value) || syntax.brokenEntityNames.contains(written.value) {
                    report(.linkNotBuiltIn(name.value, type: member.isList ? "[\(written.value)]" : written.value, at: written.offset))
                } else {
                    let suggestion = closestMatch(to: written.value, among: ValueType.allCases.map(\.rawValue))
                    report(.unknownType(written.value, suggestion: suggestion, at: written.offset))
                }
                continue
            }
            let inverse = member.inverse.map { Located(value: Keyword.inverse, offset: $0.offset) }
            let clauses = [
                inverse, member.deleteRule?.keyword, member.elementPath?.keyword, member.unkeyedRule?.keyword, member.defaultValue?.keyword,
                member.always?.keyword, member.onChange?.keyword, member.derived?.keyword, member.merge, member.linkExisting,
            ]
            for keyword in clauses.compactMap({ $0 }).sorted(by: { $0.offset < $1.offset }) {
                report(.clauseOnLink(name.value, clause: keyword.value, at: keyword.offset))
            }
            if let rule = member.nullRule, rule.value.value == .keep {
                report(.keepOnLink(name.value, rule: "null keep", instead: "`null store`, `null reject` or `null VALUE`", at: rule.value.offset))
            }
            if let rule = member.missingRule, rule.value.value == .keep {
                report(.keepOnLink(name.value, rule: "missing keep", instead: "`missing null`, `missing reject` or `missing VALUE`", at: rule.value.offset))
            }
            // Reported above; dropped so that they are not judged again as an entity attribute's.
            member.defaultValue = nil
            member.always = nil
            member.onChange = nil
            member.derived = nil
            attributes.append(resolveAttribute(member, type: type, in: entity, location: source.location(at: name.offset)))
        }
        return attributes
    }

    /// `link` lines below a member that is not a to-many.
    mutating func reportMisplacedLinks(of member: MemberSyntax, kind: String) {
        for link in member.links {
            report(.linkOnNonToMany(member.name.value, kind: kind, at: link.keywordOffset))
        }
    }
}
