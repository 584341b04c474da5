/// Polymorphic relationships: `: (Post | Comment) by $`, `: [Photo | Video] by type` and their
/// case lines, checked against the entities the type names.
extension Validator {
    /// The choice of a relationship member whose first entity is `target`: nil when it has no
    /// `by` (after reporting entities or case lines that would need one).
    mutating func resolveChoice(of member: MemberSyntax, target: String, in entity: EntitySyntax) -> RelationshipChoice? {
        let name = member.name.value
        guard let by = member.choice else {
            if !member.alternatives.isEmpty {
                report(.alternativesWithoutChoice(name, targets: [target] + member.alternatives.map(\.value), at: member.typeName.offset))
            } else if let first = member.cases.first {
                report(.casesWithoutChoice(name, at: first.offset))
            }
            return nil
        }
        guard !member.alternatives.isEmpty else {
            report(.choiceWithoutAlternatives(name, target: target, at: by.keyword.offset))
            return nil
        }
        if let filter = member.filter { report(.whereWithChoice(name, at: filter.offset)) }
        if let scope = entity.deletions.first?.scope, scope.value == name { report(.withinPolymorphic(name, at: scope.offset)) }
        var targets = [target]
        var targetOffsets = [member.typeName.offset]
        for alternative in member.alternatives {
            if targets.contains(alternative.value) {
                report(.repeatedTarget(alternative.value, at: alternative.offset))
            } else if entityNames.contains(alternative.value) {
                targets.append(alternative.value)
                targetOffsets.append(alternative.offset)
            } else if !syntax.brokenEntityNames.contains(alternative.value) {
                let suggestion = closestMatch(to: alternative.value, among: syntax.entities.map(\.name.value))
                report(.noEntityNamed(alternative.value, suggestion: suggestion, at: alternative.offset))
            }
        }
        if member.cases.isEmpty, !member.hasBrokenCase { report(.noRelationshipCases(name, at: by.keyword.offset)) }
        var cases: [RelationshipCase] = []
        var seen: [(test: RelationshipCase.Test?, offset: Int)] = []
        var chosen = Set<String>()
        var complete = !member.hasBrokenCase && !member.cases.isEmpty
        for item in member.cases {
            if let first = seen.first(where: { $0.test == item.test }) {
                report(.duplicateRelationshipCase(item.test, firstLine: line(first.offset), at: item.offset))
                continue
            }
            seen.append((item.test, item.offset))
            if let chosenEntity = item.entity {
                guard targets.contains(chosenEntity.value) else {
                    complete = false
                    if entityNames.contains(chosenEntity.value) || !syntax.brokenEntityNames.contains(chosenEntity.value) {
                        report(
                            .caseEntityNotTarget(
                                chosenEntity.value, relationship: name, targets: targets,
                                suggestion: closestMatch(to: chosenEntity.value, among: targets), at: chosenEntity.offset))
                    }
                    continue
                }
                chosen.insert(chosenEntity.value)
            }
            cases.append(RelationshipCase(test: item.test, entity: item.entity?.value, location: source.location(at: item.offset)))
        }
        if complete {
            for (position, candidate) in targets.enumerated() where !chosen.contains(candidate) {
                report(.targetWithoutCase(candidate, relationship: name, at: targetOffsets[position]))
            }
        }
        return RelationshipChoice(targets: targets, discriminator: by.value.value, cases: cases, location: source.location(at: by.keyword.offset))
    }

    /// An attribute with `by`, case lines or a type in parentheses.
    mutating func checkNoChoice(onAttribute member: MemberSyntax, type: ValueType) {
        let name = member.name.value
        if member.isGroup || !member.alternatives.isEmpty {
            report(.choiceOnAttribute(name, type: type.rawValue, at: member.typeName.offset))
        } else if let by = member.choice {
            report(.choiceOnAttribute(name, type: type.rawValue, at: by.keyword.offset))
        } else if let first = member.cases.first {
            report(.caseOutsideRecords(at: first.offset))
        }
    }
}
