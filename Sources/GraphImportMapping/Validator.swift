/// Resolves the names in a `MapSyntax` and checks what the grammar cannot: that types, entities
/// and converters exist, that names are unique (ignoring case, as SQL does), that keys and
/// inverses make sense. Every problem is collected; nothing stops at the first.
struct Validator {
    let syntax: MapSyntax
    let source: SourceText
    /// Converters in the order the engine lists them, for hints.
    let converterNames: [String]
    let converters: [String: ConverterSignature]
    /// The validators `check` clauses may name, in the order the engine lists them.
    let validatorNames: [String]
    let validators: [String: ConverterSignature]
    private(set) var problems: [Problem] = []
    /// Names of the declared entities, exactly as written.
    let entityNames: Set<String>

    init(syntax: MapSyntax, source: SourceText, converters: [ConverterSignature], validators: [ConverterSignature] = []) {
        self.syntax = syntax
        self.source = source
        converterNames = converters.map(\.name)
        self.converters = Dictionary(converters.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        validatorNames = validators.map(\.name)
        self.validators = Dictionary(validators.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        entityNames = Set(syntax.entities.map(\.name.value))
    }

    /// The validated records, entities and meta fields; meaningful only when `problems` stays empty.
    mutating func validate() -> (records: [RecordSource], entities: [Entity], meta: [MetaField]) {
        if !syntax.sawEntityLine { problems.append(.noEntity(at: 0)) }
        let meta = resolveMeta()
        checkEntityNames()
        var entities: [Entity] = []
        for entity in syntax.entities { entities.append(resolve(entity)) }
        checkInverses()
        let records = resolveRecords(firstEntity: entities.first)
        checkMemberNamesReached(entities: entities, records: records)
        checkElementIndexesReached(entities: entities, records: records)
        checkArrayObjects(entities: entities)
        checkParentsReached()
        checkRootPaths(meta: meta)
        if syntax.entities.contains(where: { $0.owned != nil }) { checkOwnership(entities: &entities, records: records) }
        return (records, entities, meta)
    }

    // MARK: Entities

    /// Duplicate entity and table names, names that are built-in types, reserved table names.
    private mutating func checkEntityNames() {
        var seenNames: [String: Located<String>] = [:]
        var seenTables: [String: (entity: String, offset: Int)] = [:]
        for entity in syntax.entities {
            let name = entity.name
            if let first = seenNames[name.value.lowercased()] {
                problems.append(definedTwice(name, first: first) ?? duplicate("entity", name, first: first))
            } else {
                seenNames[name.value.lowercased()] = name
            }
            if ValueType.allCases.contains(where: { $0.rawValue.lowercased() == name.value.lowercased() }) {
                problems.append(.entityNamedLikeType(name.value, at: name.offset))
            }
            guard let table = entity.table else { continue }
            if table.value.lowercased().hasPrefix(Problem.reservedPrefix) {
                problems.append(.reservedName("table", table.value, at: table.offset))
            } else if let first = seenTables[table.value.lowercased()] {
                problems.append(
                    .tableInUse(
                        table.value, by: first.entity, line: line(first.offset), file: otherFile(of: first.offset, from: table.offset),
                        at: table.offset))
            } else {
                seenTables[table.value.lowercased()] = (name.value, table.offset)
            }
        }
    }

    /// One entity's members, converters and key, checked and turned into the AST.
    private mutating func resolve(_ entity: EntitySyntax) -> Entity {
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
        var seen: [String: Located<String>] = [:]
        for member in entity.members {
            let name = member.name
            if let first = seen[name.value.lowercased()] {
                problems.append(duplicate(member.valueType == nil ? "relationship" : "attribute", name, first: first))
                continue
            }
            seen[name.value.lowercased()] = name
            let location = source.location(at: name.offset)
            checkKeyedSteps(of: member)
            checkAnchors(of: member)
            if let type = member.valueType {
                if let inverse = member.inverse {
                    problems.append(.inverseOnAttribute(name.value, type: type.rawValue, at: inverse.offset))
                }
                for keyword in [member.deleteRule?.keyword, member.elementPath?.keyword, member.merge, member.linkExisting, member.unkeyedRule?.keyword]
                    .compactMap({ $0 })
                {
                    problems.append(.relationshipClauseOnAttribute(name.value, clause: keyword.value, type: type.rawValue, at: keyword.offset))
                }
                reportMisplacedLinks(of: member, kind: "attribute")
                if let filter = member.filter {
                    problems.append(.filterOnAttribute(name.value, type: type.rawValue, at: filter.offset))
                }
                checkFallbackPaths(of: member)
                checkNoChoice(onAttribute: member, type: type)
                var attribute = resolveAttribute(member, type: type, in: entity, location: location)
                if attribute.derived == nil { attribute.fallbackSources = member.fallbackPaths.map(\.value) }
                attributes.append(attribute)
            } else if let target = resolveTarget(member) {
                if let converter = member.converters.first {
                    problems.append(.convertersOnRelationship(name.value, target: target, at: converter.name.offset))
                }
                for keyword in member.attributeClauseKeywords {
                    problems.append(.attributeClauseOnRelationship(name.value, clause: keyword.value, target: target, at: keyword.offset))
                }
                let choice = resolveChoice(of: member, target: target, in: entity)
                if let each = member.elementPath?.keyword, !member.isList, member.filter == nil, member.choice == nil {
                    problems.append(.eachOnToOne(name.value, target: target, at: each.offset))
                }
                if !member.isList { reportMisplacedLinks(of: member, kind: "to-one") }
                checkUnkeyedRule(of: member, target: target)
                checkFallbackPaths(of: member)
                var relationship =
                    Relationship(
                        name: name.value, source: member.path ?? KeyPath([.key(name.value)]), target: target,
                        isToMany: member.isList, isOptional: member.isOptional, inverse: member.inverse?.value,
                        location: location, deleteRule: member.deleteRule?.value.value ?? .nullify,
                        elementPath: member.isList || member.filter != nil || choice != nil ? member.elementPath?.value.value : nil,
                        pathLocation: member.pathOffset.map { source.location(at: $0) },
                        linkAttributes: member.isList ? resolveLinks(of: member, in: entity) : [], fallbackSources: member.fallbackPaths.map(\.value),
                        filter: member.filter.map(resolve), choice: choice, unkeyedRule: member.unkeyedRule?.value.value ?? .reject)
                resolvePolicies(of: member, target: target, into: &relationship)
                relationships.append(relationship)
            }
        }
        let key = entity.owned == nil ? checkKey(of: entity, attributes: attributes, relationships: relationships) : []
        var resolved = Entity(
            name: entity.name.value, tableName: entity.table?.value, key: key, attributes: attributes,
            relationships: relationships, location: source.location(at: entity.name.offset),
            extras: checkExtras(of: entity), deletion: checkDeletion(of: entity, relationships: relationships), mode: checkMode(of: entity))
        resolved.occurrence = checkOccurrence(of: entity)
        return resolved
    }

    /// The entity a non-built-in type names, or nil after reporting why there is none.
    private mutating func resolveTarget(_ member: MemberSyntax) -> String? {
        let type = member.typeName
        if entityNames.contains(type.value) { return type.value }
        if syntax.brokenEntityNames.contains(type.value) { return nil }
        if member.isList, ValueType(rawValue: type.value) != nil {
            problems.append(.arrayOfValues(type.value, at: type.offset))
            return nil
        }
        let entities = syntax.entities.map(\.name.value)
        // Brackets or an inverse say an entity was meant; a bare name may be either.
        if member.isList || member.inverse != nil {
            problems.append(.noEntityNamed(type.value, suggestion: closestMatch(to: type.value, among: entities), at: type.offset))
            return nil
        }
        let suggestion = closestMatch(to: type.value, among: ValueType.allCases.map(\.rawValue) + entities)
        if let suggestion, entityNames.contains(suggestion) {
            problems.append(.noEntityNamed(type.value, suggestion: suggestion, at: type.offset))
        } else {
            problems.append(.unknownType(type.value, suggestion: suggestion, at: type.offset))
        }
        return nil
    }

    // MARK: Converters

    /// A converter call checked against the engine's signature; an integer given for a
    /// `.double` parameter becomes a `.double`, so the engine sees the kind it declared.
    /// `asCheck`: the call follows `check` and names one of the engine's validators instead.
    mutating func resolve(_ call: ConverterSyntax, asCheck: Bool = false) -> ConverterCall {
        let name = call.name
        var arguments = call.arguments.map(\.value)
        let location = source.location(at: name.offset)
        let role = asCheck ? "check" : "converter"
        func result() -> ConverterCall { ConverterCall(name: name.value, arguments: arguments, location: location) }
        guard let signature = (asCheck ? validators : converters)[name.value] else {
            let known = asCheck ? validatorNames : converterNames
            let suggestion = closestMatch(to: name.value, among: known)
            problems.append(
                asCheck
                    ? .unknownCheck(name.value, suggestion: suggestion, known: known, at: name.offset)
                    : .unknownConverter(name.value, suggestion: suggestion, known: known, at: name.offset))
            return result()
        }
        guard arguments.count >= signature.requiredCount, signature.isVariadic || arguments.count <= signature.parameters.count
        else {
            problems.append(.converterArity(signature, role: role, found: arguments.count, at: name.offset))
            return result()
        }
        for (index, argument) in call.arguments.enumerated() {
            guard let expected = signature.parameter(at: index) else { continue }
            switch (expected, argument.value) {
            case (.double, .int(let value)): arguments[index] = .double(Double(value))
            case _ where argument.value.kind == expected: break
            default:
                problems.append(
                    .converterArgument(
                        name.value, role: role, position: index + 1, expected: expected, found: argument.value,
                        at: argument.offset))
            }
        }
        return result()
    }

    // MARK: Records

    /// The `records` lines, or the default `records at $[*] as <first entity>` when there are none.
    private mutating func resolveRecords(firstEntity: Entity?) -> [RecordSource] {
        guard !syntax.records.isEmpty else {
            guard let firstEntity else { return [] }
            return [RecordSource(paths: [KeyPath([.anyIndex])], entity: firstEntity.name, location: firstEntity.location)]
        }
        var records: [RecordSource] = []
        for line in syntax.records {
            let location = source.location(at: line.offset)
            if let discriminator = line.discriminator {
                records.append(resolveChoice(line, discriminator: discriminator, location: location))
                continue
            }
            guard let entity = line.entity else {
                if let firstEntity {
                    records.append(
                        RecordSource(
                            paths: line.paths, entity: firstEntity.name, location: location, pathLocations: pathLocations(line),
                            mayBeMissing: line.mayBeMissing,
                            filter: line.filter.map(resolve)))
                }
                continue
            }
            if entityNames.contains(entity.value) {
                records.append(
                    RecordSource(
                        paths: line.paths, entity: entity.value, location: location, pathLocations: pathLocations(line), mayBeMissing: line.mayBeMissing,
                        filter: line.filter.map(resolve)))
            } else if !syntax.brokenEntityNames.contains(entity.value) {
                let suggestion = closestMatch(to: entity.value, among: syntax.entities.map(\.name.value))
                problems.append(.noEntityNamed(entity.value, suggestion: suggestion, at: entity.offset))
            }
        }
        return records
    }

    // MARK: Filters and fallback paths

    /// A `where` condition as the AST keeps it (the parser checked its operator and values).
    func resolve(_ filter: FilterSyntax) -> ElementFilter {
        ElementFilter(field: filter.field, test: filter.test, location: source.location(at: filter.offset))
    }

    /// `<- a, b`: no path twice.
    private mutating func checkFallbackPaths(of member: MemberSyntax) {
        guard let first = member.path else { return }
        var seen = [first]
        for path in member.fallbackPaths {
            if seen.contains(path.value) { problems.append(.repeatedFallbackPath(path.value, at: path.offset)) }
            seen.append(path.value)
        }
    }

    // MARK: Helpers

    func line(_ offset: Int) -> Int { source.location(at: offset).line }

    /// Where each path of a `records` line starts.
    func pathLocations(_ line: RecordsSyntax) -> [SourceLocation] { line.pathOffsets.map { source.location(at: $0) } }

    func duplicate(_ what: String, _ name: Located<String>, first: Located<String>) -> Problem {
        .duplicate(what, name.value, firstLine: line(first.offset), differsInCase: name.value != first.value, at: name.offset)
    }

    mutating func report(_ issue: Problem) { problems.append(issue) }
}
