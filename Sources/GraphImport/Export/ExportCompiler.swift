import GraphImportJSON
import GraphImportMapping
import GraphImportSchema

/// Builds the shapes of a plan's entities and relationships.
struct ExportCompiler {
    let plan: ImportPlan
    let converters: ConverterCatalog

    /// A builder holding the members of entity `index` at their paths, and the members it could
    /// not place.
    func builder(_ index: Int) -> (ExportShapeBuilder, [ExportCaveat]) {
        let entity = plan.entities[index]
        let builder = ExportShapeBuilder()
        var caveats: [ExportCaveat] = []
        func place(_ member: ExportMember, _ path: [PathStep]?, _ name: String) {
            // `$key` is written as the member's name, `$index` as the element's place in its array.
            guard let path, path != [.memberName], path != [.elementIndex] else { return }
            switch path.first {
            case .parent?:
                // Read from the object that holds this one, which is written around it.
                return
            case .root?:
                // An attribute or a plain to-one is written once at the document's root (`ExportRootValue`).
                if Self.readsRootValue(member, of: entity) { return }
                caveats.append(
                    ExportCaveat(
                        member: "\(entity.name).\(name)",
                        reason: "it is read from the response's root (@root) with a `where` or a choice, which is not written back"))
                return
            default: break
            }
            if !builder.insert(member, at: path[...]) {
                // Inside a JSON attribute (`payload` and `payload.action`): written with that value.
                if case .attribute(let index)? = builder.member(before: path[...]), entity.attributes[index].type == .json { return }
                caveats.append(
                    ExportCaveat(member: "\(entity.name).\(name)", reason: "its path is also another member's; written once, as the first"))
            }
        }
        for (position, attribute) in entity.attributes.enumerated() where position != entity.extrasAttribute {
            place(.attribute(position), attribute.path, attribute.name)
        }
        var filtered: [[PathStep]: [ExportRelationship]] = [:]
        var filteredOrder: [[PathStep]] = []
        // A polymorphic relationship's branches share its name and path: written as one member.
        var branches: [String: [ExportRelationship]] = [:]
        for (position, relationship) in entity.toOne.enumerated() { branches[relationship.name, default: []].append(.toOne(position)) }
        for (position, relationship) in entity.toMany.enumerated() { branches[relationship.name, default: []].append(.toMany(position)) }
        var placedBranches = Set<String>()
        func placeBranches(_ name: String, _ path: [PathStep]) -> Bool {
            guard let group = branches[name], group.count > 1 else { return false }
            if placedBranches.insert(name).inserted { place(.polymorphic(group), path, name) }
            return true
        }
        for (position, relationship) in entity.toOne.enumerated() {
            if placeBranches(relationship.name, relationship.path) { continue }
            if relationship.filter != nil {
                if filtered[relationship.path] == nil { filteredOrder.append(relationship.path) }
                filtered[relationship.path, default: []].append(.toOne(position))
            } else {
                place(.toOne(position), relationship.path, relationship.name)
            }
        }
        for (position, relationship) in entity.toMany.enumerated() {
            if placeBranches(relationship.name, relationship.path) { continue }
            if relationship.filter != nil {
                if filtered[relationship.path] == nil { filteredOrder.append(relationship.path) }
                filtered[relationship.path, default: []].append(.toMany(position))
            } else {
                place(.toMany(position), relationship.path, relationship.name)
            }
        }
        for path in filteredOrder { place(.filtered(filtered[path]!), path, path.map { "\($0)" }.joined(separator: ".")) }
        return (builder, caveats)
    }

    func entity(_ index: Int, caveats: inout [ExportCaveat]) -> ExportEntity {
        let entity = plan.entities[index]
        let mapped = plan.mapping.entities[index]
        let (built, problems) = builder(index)
        let shape = built.shape
        caveats += problems
        var values: [ExportValue] = []
        for (position, attribute) in entity.attributes.enumerated() {
            let calls = position < mapped.attributes.count ? mapped.attributes[position].converters : []
            let member = "\(entity.name).\(attribute.name)"
            values.append(
                ExportValue(type: attribute.type, calls: calls, converters: converters) { reason in
                    caveats.append(ExportCaveat(member: member, reason: reason + "; written as stored (\(Self.storedForm(attribute.type)))"))
                })
            for (clause, value) in [("default", attribute.defaultValue), ("always", attribute.always), ("onchange", attribute.onChange)] {
                if value == .now || value == .run {
                    caveats.append(
                        ExportCaveat(member: member, reason: "`\(clause) \(value == .now ? "now" : "run")` is set by the import that reads it"))
                }
            }
        }
        // `where type = "quoted"` (or `in (…)`) is written back as its first value; any other
        // condition (a prefix, a glob, a presence test, one on the element itself) is tested on
        // each element as written. A condition on the element itself reads a key there.
        func condition(_ name: String, _ filter: FilterPlan?, _ made: inout ExportElement) {
            guard let filter, !entity.polymorphic.contains(where: { $0.name == name }), Self.filterLiteral(filter) == nil else { return }
            made.condition = filter
            if filter.field.isEmpty { made.byKey = true }
        }
        // A choice by the element itself (`by $`) reads the key's form: such branches write keys.
        let chosenByKey = Set(entity.polymorphic.filter { $0.choice.discriminator.isEmpty }.map(\.name))
        // A choice by a field of the element (`by kind`): each branch writes the value that chooses it.
        func literal(_ name: String, target: Int, filter: FilterPlan?) -> (ExportMember, [PathStep])? {
            guard let choice = entity.polymorphic.first(where: { $0.name == name })?.choice, !choice.discriminator.isEmpty else {
                return Self.filterLiteral(filter)
            }
            if let value = Self.choosingValue(choice, target: target) { return (.literal(value), choice.discriminator) }
            caveats.append(
                ExportCaveat(
                    member: "\(entity.name).\(name)",
                    reason: "no value of `by \(choice.description)` chooses \(plan.entities[target].name); its elements are written without it"))
            return nil
        }
        // A target keyed by `$key` has its key only as the name of a `{*}` member: elsewhere it is written by its key.
        func keyedByMemberName(_ target: Int) -> Bool {
            plan.entities[target].keyAttributes.contains { plan.entities[target].attributes[$0].path == [.memberName] }
        }
        let toOne = entity.toOne.enumerated().map { position, relationship in
            var made = element(
                target: relationship.target, elementPath: relationship.elementPath, links: [],
                literal: literal(relationship.name, target: relationship.target, filter: relationship.filter),
                caveats: &caveats, member: "\(entity.name).\(relationship.name)")
            made.byKey = chosenByKey.contains(relationship.name) || keyedByMemberName(relationship.target)
            made.source = (index, .toOne(position))
            condition(relationship.name, relationship.filter, &made)
            return made
        }
        let toMany = entity.toMany.enumerated().map { position, relationship in
            let calls = mapped.relationships.first { $0.name == relationship.name }?.linkAttributes.map(\.converters) ?? []
            let links = relationship.linkAttributes.enumerated().map { offset, link in
                (link, offset < calls.count ? calls[offset] : [])
            }
            var made = element(
                target: relationship.target, elementPath: relationship.elementPath, links: links,
                literal: literal(relationship.name, target: relationship.target, filter: relationship.filter),
                caveats: &caveats, member: "\(entity.name).\(relationship.name)")
            made.byKey = chosenByKey.contains(relationship.name) || (keyedByMemberName(relationship.target) && !relationship.isKeyed)
            made.source = (index, .toMany(position))
            condition(relationship.name, relationship.filter, &made)
            return made
        }
        let required = entity.attributes.indices.filter { position in
            let attribute = entity.attributes[position]
            return !attribute.isOptional && attribute.path != nil && attribute.derived == nil && !entity.keyAttributes.contains(position)
        }
        return ExportEntity(
            index: index, plan: entity, shape: shape, values: values, required: required,
            memberName: entity.attributes.firstIndex { $0.path == [.memberName] }, toOne: toOne, toMany: toMany)
    }

    /// `where type = "quoted"`: the field and value each element is written with; nil for a
    /// condition on the element itself (`where $ = "t1_a"`), which its key must satisfy.
    static func filterLiteral(_ filter: FilterPlan?) -> (ExportMember, [PathStep])? {
        guard let filter, !filter.field.isEmpty, case .equals(let literals) = filter.test, let first = literals.first else { return nil }
        return (.literal(first.jsonValue), filter.field)
    }

    /// A discriminator value that `choice` turns into `target`: a case's value, a prefix or suffix
    /// itself, or `null` for an `else` (an element without the field fits no case); nil when an
    /// earlier case takes each of them.
    static func choosingValue(_ choice: ChoicePlan, target: Int) -> JSONValue? {
        var candidates: [JSONValue] = choice.cases.compactMap { item in
            guard item.entity == target else { return nil }
            switch item.test {
            case .equals(let literal)?: return literal.jsonValue
            case .hasPrefix(let bytes)?, .hasSuffix(let bytes)?: return .string(String(decoding: bytes, as: UTF8.self))
            case nil: return nil
            }
        }
        if choice.fallback?.entity == target { candidates.append(.null) }
        return candidates.first { choice.outcome(for: $0) == .entity(target) }
    }

    /// How a relationship's (or a records line's) objects are written.
    func element(
        target: Int, elementPath: [PathStep], links: [(AttributePlan, [ConverterCall])], literal: (ExportMember, [PathStep])?,
        caveats: inout [ExportCaveat], member: String
    ) -> ExportElement {
        let linkValues = links.map { link, calls in
            ExportValue(type: link.type, calls: calls, converters: converters) { reason in
                caveats.append(ExportCaveat(member: "\(member).\(link.name)", reason: reason + "; written as stored"))
            }
        }
        let entity = plan.entities[target]
        let singleKey = entity.keyAttributes.count == 1
        let additions: [(ExportMember, [PathStep])] =
            links.enumerated().compactMap { offset, link in link.0.path.map { (.link(offset), $0) } } + (literal.map { [$0] } ?? [])
        if elementPath.isEmpty {
            guard !additions.isEmpty else {
                let keyShape = singleKey ? nil : keyOnly(builder(target).0.shape, entity)
                return ExportElement(target: target, elementShape: .member(.element), objectShape: nil, keyShape: keyShape, linkValues: linkValues)
            }
            let merged = builder(target).0
            for (addition, path) in additions where !(isLiteral(addition) && merged.holds(path[...])) {
                if !merged.insert(addition, at: path[...]) {
                    caveats.append(ExportCaveat(member: member, reason: "a link or condition path is also a member's of \(entity.name); not written"))
                }
            }
            let shape = merged.shape
            return ExportElement(target: target, elementShape: .member(.element), objectShape: shape, keyShape: keyOnly(shape, entity), linkValues: linkValues)
        }
        // The discriminator or `where` field first, as feeds write them (`{"kind": "t3", "data": …}`).
        let wrapper = ExportShapeBuilder()
        for (addition, path) in additions.reversed() where !wrapper.insert(addition, at: path[...]) {
            caveats.append(ExportCaveat(member: member, reason: "a link or condition path is another's; not written"))
        }
        if !wrapper.insert(.element, at: elementPath[...]) {
            caveats.append(ExportCaveat(member: member, reason: "its object's path is where a link or condition field is; not written"))
        }
        let keyShape = singleKey ? nil : keyOnly(builder(target).0.shape, entity)
        return ExportElement(target: target, elementShape: wrapper.shape, objectShape: nil, keyShape: keyShape, linkValues: linkValues)
    }

    private func isLiteral(_ member: ExportMember) -> Bool { if case .literal = member { true } else { false } }

    /// The shape with only the key attributes and what the element adds.
    private func keyOnly(_ shape: ExportShape, _ entity: EntityPlan) -> ExportShape {
        shape.filtered { member in
            switch member {
            case .attribute(let index): entity.keyAttributes.contains(index)
            case .link, .literal: true
            default: false
            }
        } ?? .object([])
    }

    /// What an attribute without an inverse is written as.
    static func storedForm(_ type: ValueType) -> String {
        switch type {
        case .date: "ISO 8601 text"
        case .data: "base64"
        default: "the stored value"
        }
    }
}
