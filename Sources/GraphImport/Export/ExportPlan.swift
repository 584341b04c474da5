import GraphImportJSON
import GraphImportMapping
import GraphImportSchema

/// A map turned around for `graphimport export`: for each entity, the SQL that reads its rows and
/// the shape its objects are written in, so that the export imports again through the same map.
package struct ExportPlan: Sendable {
    package let importPlan: ImportPlan
    let entities: [ExportEntity]
    /// The document the map's `records` and `meta` lines read: where records and values go.
    let document: ExportShape
    /// Per `records` line: the entities written there, each with its element shape.
    let recordLeaves: [RecordLeaf]
    /// Per `records` line (as `recordLeaves`): its first path, as the map writes it.
    let recordLines: [String]
    /// Per `meta` line: its name and how its value is written.
    let metaValues: [(name: String, value: ExportValue)]
    /// The `meta` lines whose path is where records are written, and why: named by the walk
    /// when the store holds a value for them (without one, the export's import stores none either).
    let unplacedMeta: [(index: Int, reason: String)]
    /// The values of the response's root that members read (`@root.…`), each written once.
    let rootValues: [ExportRootValue]
    /// What will not import again to the same graph, member by member.
    package let caveats: [ExportCaveat]
    /// Whether the document is JSON Lines, one record per line: the map reads each line's value
    /// as a record (`records at $[*]`) and other records inside it (`records at issues[*]`),
    /// which no one JSON value holds.
    let jsonLines: Bool

    /// Compiles the export of `plan`; `converters` must be the catalog the plan was compiled with,
    /// for the inverses of its converters.
    package init(plan: ImportPlan, converters: ConverterCatalog = .standard) {
        importPlan = plan
        var caveats: [ExportCaveat] = []
        let compiler = ExportCompiler(plan: plan, converters: converters)
        entities = plan.entities.indices.map { compiler.entity($0, caveats: &caveats) }
        // JSON Lines: the paths of lines read inside each line's value are placed inside the
        // records of `$[*]`, as `$[*].issues[*]` would be in one document.
        let readsLines = Self.readsLines(plan.mapping.records)
        jsonLines = readsLines
        let place = { (path: KeyPath) -> [PathStep] in
            guard readsLines, case .key? = path.components.first else { return Self.steps(path) }
            return [.index(0)] + Self.steps(path)
        }
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
                // `records at items[*] where type = "issue" as Issue`: each record says it again;
                // any other condition is tested on each record as written.
                let filter = source.filter.map(FilterPlan.init)
                let literal = ExportCompiler.filterLiteral(filter)
                var element = compiler.element(target: index, elementPath: [], links: [], literal: literal, caveats: &caveats, member: source.entity)
                if literal == nil { element.condition = filter }
                elements.append(element)
            }
            guard !elements.isEmpty, let first = source.paths.first else { continue }
            let places = source.paths.map(place)
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
            metaPlaces.append(place(field.source))
        }
        // The meta values first, and for each records line the first of its paths that fits
        // beside them (`$[0].response.total_count` and `$[*].response.items[*]`); when a line
        // fits nowhere, the records first, each at its first path, and the meta values where
        // they still fit.
        // The root values after the records and meta values are placed, each before what it
        // meets there: records read only the root values that come before them.
        let (rootValues, rootCaveats) = ExportRootValue.compile(plan)
        caveats += rootCaveats
        func placeRootValues(in document: ExportShapeBuilder) -> [ExportCaveat] {
            // Last first, since each goes before what is there: they come out in their order.
            let named = rootValues.enumerated().reversed().compactMap { index, value -> ExportCaveat? in
                let reason: String
                if readsLines {
                    reason = "JSON Lines: each line is a root document of its own, which export writes as a record; not written"
                } else if document.insert(.rootValue(index), at: value.steps[...], first: true) {
                    return nil
                } else {
                    reason = "its path is where records or a meta value are written; not written"
                }
                let readers = (value.readers + value.inner.map(\.reader)).map(\.name).joined(separator: ", ")
                return ExportCaveat(member: value.written, reason: "read by \(readers): \(reason)")
            }
            return named.reversed()
        }
        var document = ExportShapeBuilder()
        var layoutCaveats: [ExportCaveat] = []
        var fits = true
        for (index, steps) in metaPlaces.enumerated() where !document.insert(.meta(index), at: steps[...]) {
            layoutCaveats.append(ExportCaveat(member: "meta \(metaValues[index].0)", reason: "its path is another meta value's; not written"))
        }
        for (index, line) in lines.enumerated() where !line.places.contains(where: { document.insert(.records(index), at: $0[...]) }) {
            fits = false
        }
        var inside: [Int: ExportShapeBuilder] = [:]
        var unplacedMeta: [(index: Int, reason: String)] = []
        if !fits {
            document = ExportShapeBuilder()
            layoutCaveats = []
            // Outer lines first, so that a line whose objects sit inside another line's finds it placed.
            var placedLines: [Int] = []
            for index in lines.indices.sorted(by: { (lines[$0].places[0].count, $0) < (lines[$1].places[0].count, $1) }) {
                let place = lines[index].places[0]
                if document.insert(.records(index), at: place[...]) {
                    placedLines.append(index)
                    continue
                }
                // Inside the first object of the innermost line that holds the place, where that
                // object leaves the member free.
                let outer = placedLines.compactMap { outer -> (line: Int, rest: [PathStep])? in
                    let steps = Self.elementSteps(lines[outer].places[0], lines[outer].leaf.container)
                    // `rest` is empty where the inner records are the outer objects' own elements
                    // (`releases{*}` and `releases{*}[*]`, written by a to-many reading `$`).
                    guard place.count >= steps.count, Array(place.prefix(steps.count)) == steps else { return nil }
                    return (outer, Array(place.dropFirst(steps.count)))
                }.max { $0.rest.count > $1.rest.count }
                if let outer, case .key(let key)? = outer.rest.first, Self.holdsOneObject(lines[outer.line].leaf, entities: entities),
                    !Self.writes(key, leaf: lines[outer.line].leaf, entities: entities)
                {
                    let builder = inside[outer.line] ?? ExportShapeBuilder()
                    inside[outer.line] = builder
                    if builder.insert(.records(index), at: outer.rest[...]) {
                        placedLines.append(index)
                        continue
                    }
                }
                // The outer objects' own relationship writes the objects it links where this line
                // reads them: the walk counts (and names) those no written outer object links.
                if let outer, let hops = Self.hops(writing: lines[index].leaf, at: outer.rest, in: lines[outer.line].leaf, entities: entities) {
                    lines[index].leaf.heldBy = RecordLeaf.Holder(line: outer.line, hops: hops)
                    continue
                }
                layoutCaveats.append(
                    ExportCaveat(member: "records at \(lines[index].written)", reason: Self.clash(place, among: lines.filter { $0.places[0] != place })))
            }
            for (index, steps) in metaPlaces.enumerated() where !document.insert(.meta(index), at: steps[...]) {
                unplacedMeta.append((index, Self.metaClash(steps, among: lines.map { ($0.places[0], $0.written) }, jsonLines: readsLines)))
            }
        }
        caveats += layoutCaveats + placeRootValues(in: document)
        var leaves = lines.map(\.leaf)
        for (line, builder) in inside { leaves[line].inside = builder.shape }
        self.document = document.shape
        self.recordLeaves = leaves
        recordLines = lines.map(\.written)
        self.metaValues = metaValues
        self.unplacedMeta = unplacedMeta
        self.rootValues = rootValues
        self.caveats = caveats
    }

    /// Whether `records` read JSON Lines whose values are records: a line at `$[*]` (or `$[*?]`),
    /// which takes a top-level object as its one record, and a line whose path starts inside
    /// that object (`issues[*]`), which a top-level array would not hold.
    static func readsLines(_ records: [RecordSource]) -> Bool {
        let top = records.contains { source in
            guard let path = source.paths.first else { return false }
            return path.components == [.anyIndex] || path.components == [.anyIndexOrOne]
        }
        let inside = records.contains { source in
            guard case .key? = source.paths.first?.components.first else { return false }
            return true
        }
        return top && inside
    }

    /// Why a records line that does not fit beside the earlier `lines` is not written: its objects
    /// sit inside those of an earlier line (export writes each line's objects in a place of
    /// their own, and cannot tell which outer object held an inner one), or its place is taken.
    static func clash(_ place: [PathStep], among lines: [(leaf: RecordLeaf, places: [[PathStep]], written: String)]) -> String {
        for line in lines {
            let outer = elementSteps(line.places[0], line.leaf.container)
            if place.count > outer.count && Array(place.prefix(outer.count)) == outer {
                return "its objects sit inside those of `records at \(line.written)`, where export finds no free place for them; not written"
            }
        }
        return "its path is another records line's; not written"
    }

    /// Why a meta value at `steps` has no place beside the records `lines` hold: the whole
    /// document is records (`records at $[*]`: an import reads each value, or each line of JSON
    /// Lines, as a record and no meta value inside it), or the records of a line sit there.
    static func metaClash(_ steps: [PathStep], among lines: [(place: [PathStep], written: String)], jsonLines: Bool) -> String {
        let holder = lines.filter { steps.starts(with: $0.place) }.max { $0.place.count < $1.place.count }
        guard let holder, holder.place.isEmpty else {
            return "its path is where the records of `records at \(holder?.written ?? "…")` are written; not written"
        }
        return "the document is the records of `records at \(holder.written)`\(jsonLines ? ", one a line" : ""), and an import reads no meta "
            + "value inside a record; not written (read a value of each record with an attribute of its entity, which export writes back)"
    }

    /// Where the first record of a line written at `place` sits.
    static func elementSteps(_ place: [PathStep], _ container: RecordLeaf.Container) -> [PathStep] {
        switch container {
        case .single: place
        case .array: place + [.index(0)]
        case .members: place + [.key("0")]
        }
    }

    /// Whether a line writes each record as one plain object of one entity, which records of
    /// another line can be written inside.
    static func holdsOneObject(_ leaf: RecordLeaf, entities: [ExportEntity]) -> Bool {
        guard leaf.elements.count == 1, let element = leaf.elements.first, element.objectShape == nil,
            case .member(.element) = element.elementShape, case .object = entities[element.target].shape
        else { return false }
        return true
    }

    /// The relationships that write, at `rest` inside each of an outer line's objects, the objects
    /// of the entity an inner line reads there, each element being the object itself and nested:
    /// one of the outer entity (`Repo.issues`), or one reaching an owned object that is always
    /// nested where its owner is, then one of that owned entity, and so on
    /// (`Issue.history`, `Change.author`); nil when none does.
    static func hops(writing inner: RecordLeaf, at rest: [PathStep], in outer: RecordLeaf, entities: [ExportEntity]) -> [RecordLeaf.Holder.Hop]? {
        guard inner.elements.count == 1, outer.elements.count == 1, let target = inner.elements.first?.target,
            let owner = outer.elements.first?.target
        else { return nil }
        return hops(to: target, inner.container, from: owner, at: rest[...], entities: entities)
    }

    private static func hops(
        to target: Int, _ container: RecordLeaf.Container, from owner: Int, at rest: ArraySlice<PathStep>, entities: [ExportEntity]
    ) -> [RecordLeaf.Holder.Hop]? {
        let entity = entities[owner]
        let plan = entity.plan
        func nested(_ relationship: ExportRelationship) -> Bool { !entity.element(relationship).byKey }
        // The last hop: the relationship reads the inner line's objects where the line does.
        switch container {
        case .single:
            if let index = plan.toOne.firstIndex(where: { $0.path[...] == rest && $0.target == target && $0.elementPath.isEmpty }),
                nested(.toOne(index))
            {
                return [.init(entity: owner, relationship: .toOne(index))]
            }
        case .array, .members:
            let keyed = container == .members
            if let index = plan.toMany.firstIndex(where: {
                $0.path[...] == rest && $0.target == target && $0.isKeyed == keyed && $0.elementPath.isEmpty
            }), nested(.toMany(index)) {
                return [.init(entity: owner, relationship: .toMany(index))]
            }
        }
        // A hop through an owned object: written inside each object of the owner, the first
        // element standing for each of a to-many's.
        for (index, relationship) in plan.toOne.enumerated()
        where entities[relationship.target].plan.isOwned && relationship.elementPath.isEmpty && rest.starts(with: relationship.path)
            && nested(.toOne(index))
        {
            if let more = hops(to: target, container, from: relationship.target, at: rest.dropFirst(relationship.path.count), entities: entities) {
                return [.init(entity: owner, relationship: .toOne(index))] + more
            }
        }
        for (index, relationship) in plan.toMany.enumerated()
        where entities[relationship.target].plan.isOwned && relationship.elementPath.isEmpty && nested(.toMany(index)) {
            let element = relationship.path + [relationship.isKeyed ? .key("0") : .index(0)]
            guard rest.starts(with: element),
                let more = hops(to: target, container, from: relationship.target, at: rest.dropFirst(element.count), entities: entities)
            else { continue }
            return [.init(entity: owner, relationship: .toMany(index))] + more
        }
        return nil
    }

    /// Whether the objects of a line write the member `key` themselves.
    static func writes(_ key: String, leaf: RecordLeaf, entities: [ExportEntity]) -> Bool {
        guard let element = leaf.elements.first, case .object(let members) = entities[element.target].shape else { return true }
        return members.contains { $0.key == key } || entities[element.target].plan.extrasAttribute != nil
    }

    /// How a records path holds its records    /// How a records path holds its records: `[*]` an array, `{*}` an object's members, else one object.
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
            case .memberName, .elementIndex, .parent, .root: break
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
