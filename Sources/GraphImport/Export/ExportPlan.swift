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
                layoutCaveats.append(ExportCaveat(member: "records at \(line.written)", reason: Self.clash(line.places[0], among: lines[..<index])))
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

    /// Why a records line that does not fit beside the earlier `lines` is not written: its objects
    /// sit inside those of an earlier line (export writes each line's objects in a place of
    /// their own, and cannot tell which outer object held an inner one), or its place is taken.
    static func clash(
        _ place: [PathStep], among lines: ArraySlice<(leaf: RecordLeaf, places: [[PathStep]], written: String)>
    ) -> String {
        for line in lines {
            let outer = line.places[0] + (line.leaf.container == .single ? [] : [line.leaf.container == .array ? .index(0) : .key("0")])
            if place.count > outer.count && Array(place.prefix(outer.count)) == outer {
                return "its objects sit inside those of `records at \(line.written)`, and export writes no records inside records; not written"
            }
        }
        return "its path is another records line's; not written"
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
            case .memberName, .parent, .root: break
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
