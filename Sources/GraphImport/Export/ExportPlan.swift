import GraphImportJSON
import GraphImportMapping
import GraphImportStore

/// A map turned around for `graphimport export`: for each entity, the SQL that reads its rows and
/// the shape its objects are written in, so that the export imports again through the same map.
public struct ExportPlan: Sendable {
    public let importPlan: ImportPlan
    let entities: [ExportEntity]
    /// The document the map's `records` and `meta` lines read: where records and values go.
    let document: ExportShape
    /// Per `records` line: the entities written there, each with its element shape.
    let recordLeaves: [RecordLeaf]
    /// Per `meta` line: its name and how its value is written.
    let metaValues: [(name: String, value: ExportValue)]
    /// What will not import again to the same graph, member by member.
    public let caveats: [ExportCaveat]

    /// Compiles the export of `plan`; `converters` must be the catalog the plan was compiled with,
    /// for the inverses of its converters.
    public init(plan: ImportPlan, converters: ConverterCatalog = .standard) {
        importPlan = plan
        var caveats: [ExportCaveat] = []
        let compiler = ExportCompiler(plan: plan, converters: converters)
        entities = plan.entities.indices.map { compiler.entity($0, caveats: &caveats) }
        // Each records line's elements, and where each of its paths puts them.
        var lines: [(leaf: RecordLeaf, places: [[PathStep]], written: String)] = []
        var placed = Set<Int>()
        for source in plan.mapping.records {
            var elements: [ExportElement] = []
            if let choice = source.choice {
                let discriminator = ImportPlan.steps(choice.discriminator)
                for recordCase in choice.cases {
                    guard let name = recordCase.entity, let index = plan.mapping.entities.firstIndex(where: { $0.name == name }),
                        !placed.contains(index)
                    else { continue }
                    placed.insert(index)
                    let literal = recordCase.value.map { ExportMember.literal($0.jsonValue) }
                    elements.append(
                        compiler.element(
                            target: index, elementPath: ImportPlan.steps(recordCase.subpath), links: [],
                            literal: literal.map { ($0, discriminator) }, caveats: &caveats, member: name))
                }
            } else if let index = plan.mapping.entities.firstIndex(where: { $0.name == source.entity }), !placed.contains(index) {
                placed.insert(index)
                // `records at items[*] where type = "issue" as Issue`: each record says it again.
                var literal: (ExportMember, [PathStep])?
                if let filter = source.filter {
                    if case .equals(let values) = filter.test, let first = values.first {
                        literal = (.literal(first.jsonValue), ImportPlan.steps(filter.field))
                    } else {
                        caveats.append(ExportCaveat(member: "records of \(source.entity)", reason: "the condition `where \(filter)` cannot be written back"))
                    }
                }
                elements.append(compiler.element(target: index, elementPath: [], links: [], literal: literal, caveats: &caveats, member: source.entity))
            }
            guard !elements.isEmpty, let first = source.paths.first else { continue }
            let places = source.paths.map(Self.steps)
            // Lines over the same paths (`where type = "tweet"`, `where type = "user"`) share an array.
            if let same = lines.firstIndex(where: { $0.places == places && $0.leaf.container == Self.container(of: first) }) {
                lines[same].leaf.elements += elements
                continue
            }
            lines.append((RecordLeaf(container: Self.container(of: first), elements: elements), places, first.description))
        }
        var metaValues: [(String, ExportValue)] = []
        var metaPlaces: [[PathStep]] = []
        for field in plan.mapping.meta {
            metaValues.append(
                (
                    field.name,
                    ExportValue(type: field.type, calls: field.converters, converters: converters) { reason in
                        caveats.append(ExportCaveat(member: "meta \(field.name)", reason: reason + "; written as stored"))
                    }
                ))
            metaPlaces.append(Self.steps(field.source))
        }
        // The meta values first, and for each records line the first of its paths that fits
        // beside them (`$[0].response.total_count` and `$[*].response.items[*]`); when a line
        // fits nowhere, the records first, each at its first path, and the meta values where
        // they still fit.
        var document = ExportShapeBuilder()
        var layoutCaveats: [ExportCaveat] = []
        var fits = true
        for (index, steps) in metaPlaces.enumerated() where !document.insert(.meta(index), at: steps[...]) {
            layoutCaveats.append(ExportCaveat(member: "meta \(metaValues[index].0)", reason: "its path is another meta value's; not written"))
        }
        for (index, line) in lines.enumerated() where !line.places.contains(where: { document.insert(.records(index), at: $0[...]) }) {
            fits = false
        }
        if !fits {
            document = ExportShapeBuilder()
            layoutCaveats = []
            for (index, line) in lines.enumerated() where !document.insert(.records(index), at: line.places[0][...]) {
                layoutCaveats.append(ExportCaveat(member: "records at \(line.written)", reason: "its path is another records line's; not written"))
            }
            for (index, steps) in metaPlaces.enumerated() where !document.insert(.meta(index), at: steps[...]) {
                layoutCaveats.append(
                    ExportCaveat(member: "meta \(metaValues[index].0)", reason: "its path is where records are written; not written"))
            }
        }
        caveats += layoutCaveats
        let leaves = lines.map(\.leaf)
        self.document = document.shape
        self.recordLeaves = leaves
        self.metaValues = metaValues
        self.caveats = caveats
    }

    /// How a records path holds its records: `[*]` an array, `{*}` an object's members, else one object.
    static func container(of path: KeyPath) -> RecordLeaf.Container {
        switch path.components.last {
        case .anyIndex?, .anyIndexOrOne?: .array
        case .anyMember?: .members
        default: .single
        }
    }

    /// Where a records or meta path is written: an iteration before the last step as the first element.
    static func steps(_ path: KeyPath) -> [PathStep] {
        var steps: [PathStep] = []
        for (position, component) in path.components.enumerated() {
            let last = position == path.components.count - 1
            switch component {
            case .key(let key): steps.append(.key(key))
            case .index(let index): steps.append(.index(index))
            case .anyIndex, .anyIndexOrOne: if !last { steps.append(.index(0)) }
            case .anyMember: if !last { steps.append(.key("0")) }
            case .memberName: break
            }
        }
        return steps
    }

    /// The entity named `name`, or an error naming it with the closest name of the map.
    func entity(named name: String) throws(ExportError) -> ExportEntity {
        if let found = entities.first(where: { $0.plan.name == name }) { return found }
        let names = entities.map(\.plan.name)
        throw ExportError.unknownName(
            "unknown entity '\(name)'",
            hint: closestMatch(to: name, among: names).map { "did you mean '\($0)'?" } ?? "the map has \(names.joined(separator: ", "))")
    }
}

/// Something of the map that an export cannot write so that it imports to the same graph.
public struct ExportCaveat: Sendable, Equatable, CustomStringConvertible {
    /// `Tweet.createdAt`, `meta fetchedAt`.
    public let member: String
    public let reason: String

    public var description: String { "\(member): \(reason)" }
}

/// Where a `records` line's objects go: an array, the members of an object, or one object.
struct RecordLeaf: Sendable {
    enum Container: Sendable {
        case array, members, single
    }

    var container: Container
    var elements: [ExportElement]
}

/// How the objects of one relationship (or records line) are written: where the object sits in
/// each element, what else the element holds (link attributes, a discriminator, a `where` field),
/// and the object's own shape when the element adds members to it.
struct ExportElement: Sendable {
    let target: Int
    /// `.element` where the object goes; `.link`, `.literal` beside it.
    let elementShape: ExportShape
    /// The target's shape with the element's members merged in, when the element is the object
    /// itself and adds to it; nil for the target's own.
    let objectShape: ExportShape?
    /// The shape of the target written by its key, when that must be an object (a compound key,
    /// members merged); nil to write the bare key.
    let keyShape: ExportShape?
    let linkValues: [ExportValue]
}

/// One entity compiled for export.
final class ExportEntity: Sendable {
    let index: Int
    let plan: EntityPlan
    let shape: ExportShape
    let values: [ExportValue]
    /// `pk`, the attributes, the to-ones' columns: the row every query reads.
    let columns: String
    /// The attributes that must hold a value for the object to import as an object: an object
    /// missing one is a stub, written by its key.
    let required: [Int]
    /// The attribute that reads `$key`, for objects written as members of an object.
    let memberName: Int?
    let toOne: [ExportElement]
    let toMany: [ExportElement]
    /// Per to-many: its rows of one owner, in order, with the link attributes.
    let toManySQL: [String]

    init(
        index: Int, plan: EntityPlan, shape: ExportShape, values: [ExportValue], required: [Int], memberName: Int?, toOne: [ExportElement],
        toMany: [ExportElement]
    ) {
        self.index = index
        self.plan = plan
        self.shape = shape
        self.values = values
        self.required = required
        self.memberName = memberName
        self.toOne = toOne
        self.toMany = toMany
        columns = ([Naming.primaryKey] + plan.attributes.map(\.column) + plan.toOne.map(\.column)).map(quoteIdentifier).joined(separator: ", ")
        toManySQL = plan.toMany.map { relationship in
            "SELECT " + ([relationship.targetColumn] + relationship.linkAttributes.map(\.column)).map(quoteIdentifier).joined(separator: ", ")
                + " FROM \(quoteIdentifier(relationship.joinTable)) WHERE \(quoteIdentifier(relationship.ownerColumn)) = ? ORDER BY "
                + quoteIdentifier(Naming.position)
        }
    }

    /// The column of the row that holds attribute `index` (after `pk`).
    @inline(__always) func attributeColumn(_ index: Int) -> Int { 1 + index }
    /// The column of the row that holds to-one `index`.
    @inline(__always) func toOneColumn(_ index: Int) -> Int { 1 + plan.attributes.count + index }
}

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
            guard let path, path != [.memberName] else { return }
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
        for (position, relationship) in entity.toOne.enumerated() {
            if relationship.filter != nil {
                if filtered[relationship.path] == nil { filteredOrder.append(relationship.path) }
                filtered[relationship.path, default: []].append(.toOne(position))
            } else {
                place(.toOne(position), relationship.path, relationship.name)
            }
        }
        for (position, relationship) in entity.toMany.enumerated() {
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
        // `where type = "quoted"` (or `in (…)`) is written back as its first value; a prefix,
        // a glob or a presence test names no value to write.
        func relationshipCaveat(_ name: String, _ filter: FilterPlan?) {
            guard let filter else { return }
            if case .equals = filter.test { return }
            caveats.append(ExportCaveat(member: "\(entity.name).\(name)", reason: "its condition `where \(filter.description)` cannot be written back"))
        }
        let toOne = entity.toOne.map { relationship in
            relationshipCaveat(relationship.name, relationship.filter)
            return element(
                target: relationship.target, elementPath: relationship.elementPath, links: [], literal: Self.filterLiteral(relationship.filter),
                caveats: &caveats, member: "\(entity.name).\(relationship.name)")
        }
        let toMany = entity.toMany.enumerated().map { position, relationship in
            relationshipCaveat(relationship.name, relationship.filter)
            let calls = mapped.relationships.first { $0.name == relationship.name }?.linkAttributes.map(\.converters) ?? []
            let links = relationship.linkAttributes.enumerated().map { offset, link in
                (link, offset < calls.count ? calls[offset] : [])
            }
            return element(
                target: relationship.target, elementPath: relationship.elementPath, links: links, literal: Self.filterLiteral(relationship.filter),
                caveats: &caveats, member: "\(entity.name).\(relationship.name)")
        }
        let required = entity.attributes.indices.filter { position in
            let attribute = entity.attributes[position]
            return !attribute.isOptional && attribute.path != nil && attribute.derived == nil && !entity.keyAttributes.contains(position)
        }
        return ExportEntity(
            index: index, plan: entity, shape: shape, values: values, required: required,
            memberName: entity.attributes.firstIndex { $0.path == [.memberName] }, toOne: toOne, toMany: toMany)
    }

    /// `where type = "quoted"`: the field and value each element is written with.
    static func filterLiteral(_ filter: FilterPlan?) -> (ExportMember, [PathStep])? {
        guard let filter, case .equals(let literals) = filter.test, let first = literals.first else { return nil }
        return (.literal(first.jsonValue), filter.field)
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
