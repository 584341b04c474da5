extension Validator {
    /// `merge` (a to-many only) and `link existing` (a to-many, or an optional to-one) onto `relationship`.
    mutating func resolvePolicies(of member: MemberSyntax, target: String, into relationship: inout Relationship) {
        if let merge = member.merge {
            if member.isList {
                relationship.mergesList = true
            } else {
                report(.mergeOnToOne(member.name.value, target: target, at: merge.offset))
            }
        }
        if let link = member.linkExisting {
            if !member.isList && !member.isOptional {
                report(.linkExistingOnRequired(member.name.value, target: target, at: link.offset))
            }
            relationship.linksExistingOnly = true
        }
    }

    /// `mode …`: at most one line per entity; upsert when there is none.
    mutating func checkMode(of entity: EntitySyntax) -> ImportMode {
        guard let first = entity.modes.first else { return .upsert }
        for extra in entity.modes.dropFirst() {
            report(.secondStatement("mode", entity: entity.name.value, firstLine: line(first.offset), at: extra.offset))
        }
        return first.value
    }

    /// `occurrence …`: at most one line per entity, not on an owned one; the last when there is none.
    mutating func checkOccurrence(of entity: EntitySyntax) -> Occurrence {
        guard let first = entity.occurrences.first else { return .last }
        for extra in entity.occurrences.dropFirst() {
            report(.secondStatement("occurrence", entity: entity.name.value, firstLine: line(first.offset), at: extra.offset))
        }
        if entity.owned != nil { report(.occurrenceOnOwned(entity.name.value, at: first.offset)) }
        return first.value
    }
}
