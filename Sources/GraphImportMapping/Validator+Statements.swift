extension Validator {
    // MARK: Meta

    /// `meta` lines: unique names (exactly as written: they are keys of the metadata table, not
    /// SQL names), built-in types, known converters.
    mutating func resolveMeta() -> [MetaField] {
        var fields: [MetaField] = []
        var seen: [String: Located<String>] = [:]
        for line in syntax.meta {
            let name = line.name
            if let first = seen[name.value] {
                report(duplicate("meta", name, first: first))
                continue
            }
            seen[name.value] = name
            let converters = line.converters.map { resolve($0) }
            let type = line.typeName
            guard !line.isList, let valueType = ValueType(rawValue: type.value) else {
                if line.isList || entityNames.contains(type.value) {
                    let written = line.isList ? "[\(type.value)]" : type.value
                    report(.metaTypeNotBuiltIn(name.value, type: written, at: type.offset))
                } else {
                    let suggestion = closestMatch(to: type.value, among: ValueType.allCases.map(\.rawValue))
                    report(.unknownMetaType(type.value, suggestion: suggestion, at: type.offset))
                }
                continue
            }
            fields.append(
                MetaField(
                    name: name.value, source: line.path ?? KeyPath([.key(name.value)]), type: valueType,
                    isOptional: line.isOptional, converters: converters, location: source.location(at: name.offset),
                    pathLocation: line.pathOffset.map { source.location(at: $0) }))
        }
        return fields
    }

    // MARK: Entity statements

    /// `extras NAME`: at most one line, and a name no member of the entity uses (ignoring case, like columns).
    mutating func checkExtras(of entity: EntitySyntax) -> String? {
        guard let line = entity.extras.first else { return nil }
        for extra in entity.extras.dropFirst() {
            report(.secondStatement("extras", entity: entity.name.value, firstLine: self.line(line.offset), at: extra.offset))
        }
        let extras = line.name
        if let clash = entity.members.first(where: { $0.name.value.lowercased() == extras.value.lowercased() }) {
            report(
                .extrasClash(
                    extras.value, entity: entity.name.value, member: clash.name.value,
                    kind: clash.valueType == nil ? "relationship" : "attribute", at: extras.offset))
        }
        return extras.value
    }

    /// `delete missing [within NAME]`: at most one line; `within` names a to-one relationship of the entity.
    mutating func checkDeletion(of entity: EntitySyntax, relationships: [Relationship]) -> DeletionRule? {
        guard let deletion = entity.deletions.first else { return nil }
        for extra in entity.deletions.dropFirst() {
            report(.secondStatement("delete missing", entity: entity.name.value, firstLine: line(deletion.offset), at: extra.offset))
        }
        if let scope = deletion.scope {
            if let relationship = relationships.first(where: { $0.name == scope.value }) {
                if relationship.isToMany { report(.withinNotToOne(scope.value, kind: "a to-many relationship", at: scope.offset)) }
            } else if let member = entity.members.first(where: { $0.name.value == scope.value }) {
                if member.valueType != nil { report(.withinNotToOne(scope.value, kind: "an attribute", at: scope.offset)) }
            } else if !entity.brokenMemberNames.contains(scope.value) && !isInverseOfToMany(scope.value, into: entity.name.value) {
                let candidates = relationships.filter { !$0.isToMany }.map(\.name) + inversesOfToManys(into: entity.name.value)
                let suggestion = closestMatch(to: scope.value, among: candidates)
                report(.withinNamesNothing(scope.value, entity: entity.name.value, suggestion: suggestion, at: scope.offset))
            }
        }
        return DeletionRule(scope: deletion.scope?.value, location: source.location(at: deletion.offset))
    }

    // MARK: Polymorphic records

    /// `records … by PATH` and its cases: at least one case, no value twice, every entity declared.
    mutating func resolveChoice(_ line: RecordsSyntax, discriminator: Located<KeyPath>, location: SourceLocation) -> RecordSource {
        if line.cases.isEmpty, !line.hasBrokenCase { report(.noCases(at: discriminator.offset)) }
        var cases: [RecordCase] = []
        var seen: [Located<Literal?>] = []
        for item in line.cases {
            if let first = seen.first(where: { $0.value == item.value.value }) {
                report(.duplicateCase(item.value.value, firstLine: self.line(first.offset), at: item.value.offset))
            } else {
                seen.append(item.value)
            }
            if let entity = item.entity, !entityNames.contains(entity.value), !syntax.brokenEntityNames.contains(entity.value) {
                let suggestion = closestMatch(to: entity.value, among: syntax.entities.map(\.name.value))
                report(.noEntityNamed(entity.value, suggestion: suggestion, at: entity.offset))
            }
            cases.append(
                RecordCase(
                    value: item.value.value, entity: item.entity?.value, subpath: item.subpath,
                    location: source.location(at: item.value.offset)))
        }
        let choice = RecordChoice(discriminator: discriminator.value, cases: cases, location: source.location(at: discriminator.offset))
        return RecordSource(
            paths: line.paths, entity: cases.lazy.compactMap(\.entity).first ?? "", location: location, choice: choice,
            pathLocations: pathLocations(line), mayBeMissing: line.mayBeMissing, filter: line.filter.map(resolve))
    }
}
