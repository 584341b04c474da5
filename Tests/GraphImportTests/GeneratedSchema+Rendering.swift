/// One way of writing a `SchemaGraph` as JSON, with the map that reads it: an envelope whose
/// members are the referenced entities' roots (`{"e0": [...], "e2": {...}}`), each a records line,
/// objects whole there and whole or by key where they are referenced; scoped and owned objects
/// nested in the object that holds them.
struct SchemaRendering: CustomStringConvertible {
    /// One document, JSON Lines of envelopes, or several inputs imported one after another.
    var documents: GraphRendering.Documents
    /// Entities whose root is an object keyed by their key (`e1{*}`, `id <- id, $key`).
    var keyedRoots: Set<Int>
    /// Relationships (entity, relationship) whose targets a records line of their own takes too
    /// (`records at e0[*].r1[*] as E2`), inside the root's records; or inside the owned objects
    /// nested in them (`records at e0[*].r1[*].r0 as E3`, E2 owned by E0), which export writes
    /// where it writes the owned objects.
    var overlapping: [(entity: Int, relationship: Int)]
    /// Entities whose objects are whole where they are first referenced (nested in other records),
    /// their root, after the others, holding only those that no reference wrote whole (JSON:API's
    /// `included`), and left out when it has none.
    var nestedFirst: Set<Int> = []
    /// To-manys written as objects keyed by their targets' keys (`rN <- rN{*} : [E1]`), as
    /// `[entity, relationship]`; into a parent-scoped entity, keyed by the child's own number,
    /// which the child reads as `number <- number, $key`.
    var keyedToManys: Set<[Int]> = []
    /// To-manys whose elements are wrappers, the target at `ref` and a link value beside it
    /// (`rN : [E1] each ref` with `link role : String`), as `[entity, relationship]`.
    var wrapped: Set<[Int]> = []
    /// Wrapped to-manys read with a filter (`rN <- rN where live = true : [E1] each ref`): each
    /// element says `"live": true`, and decoys among them (`live` false, `"true"`, `null` or
    /// absent, naming a target no graph holds) must be passed over. To-ones too
    /// (`rN <- rN where live = true : E1? each ref`), an array whose first element that says
    /// `"live": true` is the target (decoys before it, and one after it that qualifies too), or
    /// that wrapper alone.
    var filtered: Set<[Int]> = []
    /// The one referenced entity whose records are a top-level array (`records at $[*]`, or a
    /// record per line of JSON Lines), not a member of an envelope.
    var bareRoot: Int?
    var escapeAll: Bool

    var description: String {
        var parts: [String]
        switch documents {
        case .one: parts = ["one document"]
        case .lines(let count): parts = ["JSON Lines of \(count) envelopes"]
        case .pages(let count): parts = ["\(count) pages"]
        }
        if !keyedRoots.isEmpty { parts.append("keyed roots \(keyedRoots.sorted().map { "e\($0){*}" })") }
        if !overlapping.isEmpty { parts.append("overlapping records \(overlapping.map { "E\($0.entity).r\($0.relationship)" })") }
        if !nestedFirst.isEmpty { parts.append("nested first \(nestedFirst.sorted().map { "E\($0)" })") }
        if !keyedToManys.isEmpty { parts.append("keyed to-manys \(keyedToManys.sorted { $0.lexicographicallyPrecedes($1) }.map { "E\($0[0]).r\($0[1]){*}" })") }
        if !wrapped.isEmpty { parts.append("wrapped \(wrapped.sorted { $0.lexicographicallyPrecedes($1) }.map { "E\($0[0]).r\($0[1])" })") }
        if !filtered.isEmpty { parts.append("filtered \(filtered.sorted { $0.lexicographicallyPrecedes($1) }.map { "E\($0[0]).r\($0[1])" })") }
        if let bareRoot { parts.append("bare root E\(bareRoot) at $[*]") }
        if escapeAll { parts.append("\\u escapes") }
        return parts.joined(separator: ", ")
    }

    /// What a rendering may use; the test widens it step by step.
    struct Shapes: OptionSet {
        let rawValue: Int
        static let documents = Shapes(rawValue: 1 << 0)
        static let keyedRoots = Shapes(rawValue: 1 << 1)
        static let overlapping = Shapes(rawValue: 1 << 2)
        static let escapes = Shapes(rawValue: 1 << 3)
        static let nestedFirst = Shapes(rawValue: 1 << 4)
        static let keyedToManys = Shapes(rawValue: 1 << 5)
        static let wrapped = Shapes(rawValue: 1 << 6)
        static let filters = Shapes(rawValue: 1 << 7)
        static let bareRoot = Shapes(rawValue: 1 << 8)
        static let all: Shapes = [.documents, .keyedRoots, .overlapping, .escapes, .nestedFirst, .keyedToManys, .wrapped, .filters, .bareRoot]
    }

    /// A rendering of `schema`, which it may change where a shape needs it (a scoped entity taken
    /// by a records line carries its parent's key).
    static func random(_ schema: inout GeneratedSchema, _ random: inout GraphRandom, shapes: Shapes) -> SchemaRendering {
        var documents = GraphRendering.Documents.one
        if shapes.contains(.documents) {
            switch random.next(3) {
            case 0: documents = .lines(random.next(3) + 1)
            case 1: documents = .pages(random.next(3) + 2)
            default: break
            }
        }
        // A top-level array holds one entity's records: where that is the only entity other
        // objects can reference (the rest are scoped, owned or groups, nested in it).
        let referenced = schema.entities.indices.filter { schema.entities[$0].isReferenced }
        let bareRoot = shapes.contains(.bareRoot) && referenced.count == 1 && random.chance(1, in: 2) ? referenced[0] : nil
        var keyed = Set<Int>()
        var overlapping: [(entity: Int, relationship: Int)] = []
        for (index, entity) in schema.entities.enumerated() where entity.isReferenced {
            if shapes.contains(.keyedRoots) && index != bareRoot && entity.key != .compound && random.chance(1, in: 3) { keyed.insert(index) }
            guard shapes.contains(.overlapping) else { continue }
            // Over optional to-ones too: a records line that meets `null` or `""` there takes no
            // object (`RecordRoute.nullIsNoRecord`; it refused the record before).
            for (number, relationship) in entity.relationships.enumerated()
            where relationship.target > index && relationship.alternative == nil && random.chance(1, in: 3) {
                let target = schema.entities[relationship.target]
                if target.isReferenced || (target.key == .scoped && target.holder?.entity == index) {
                    overlapping.append((index, number))
                    if target.key == .scoped { schema.entities[relationship.target].carriesParentKey = true }
                }
            }
        }
        // Below an owned object that a root's object holds: the owned entity's relationships, into
        // entities after the holder (its targets are written whole, which must not lead back).
        for (index, entity) in schema.entities.enumerated() where shapes.contains(.overlapping) && entity.key == nil {
            guard let holder = entity.holder, schema.entities[holder.entity].isReferenced else { continue }
            for (number, relationship) in entity.relationships.enumerated()
            where relationship.target > holder.entity && relationship.alternative == nil && schema.entities[relationship.target].isReferenced
                && random.chance(1, in: 2)
            {
                overlapping.append((index, number))
            }
        }
        let nestedFirst =
            shapes.contains(.nestedFirst) ? Set(schema.entities.indices.filter { $0 > 0 && schema.entities[$0].isReferenced && random.chance(1, in: 2) }) : []
        // Not into an entity that reads `$key` (a keyed root): a scalar member's value there is that
        // entity's object, named by the member (Mappings/README.md, Limits). Into a parent-scoped
        // entity, each member is a child named by its number (`{"1": {…}, "2": {…}}`).
        var keyedToManys = Set<[Int]>()
        for (index, entity) in schema.entities.enumerated() where shapes.contains(.keyedToManys) {
            for (number, relationship) in entity.relationships.enumerated()
            // Polymorphic too (`r <- r{*} : [A | B] by kind each ref`), where no key of one target
            // can name one of the other, as members are named by their targets' keys (`names`
            // below resolves each link, and export names them so): targets keyed by an integer, a
            // text (never only digits, never a slash) and two attributes (`octo/2`) differ.
            where relationship.toMany
                && relationship.alternative.map({ schema.entities[$0].key != schema.entities[relationship.target].key && !keyed.contains($0) }) ?? true
                && (schema.entities[relationship.target].isReferenced || schema.entities[relationship.target].key == .scoped)
                && !keyed.contains(relationship.target)
                && random.chance(1, in: 3)
            {
                keyedToManys.insert([index, number])
            }
        }
        var wrapped = Set<[Int]>()
        for (index, entity) in schema.entities.enumerated() where shapes.contains(.wrapped) && entity.key != .group {
            for (number, relationship) in entity.relationships.enumerated()
            where relationship.toMany && relationship.alternative == nil && schema.entities[relationship.target].isReferenced && random.chance(1, in: 4) {
                wrapped.insert([index, number])
            }
        }
        // Not under a records line of its own: it would take the decoys too.
        func taken(_ pair: [Int]) -> Bool { overlapping.contains { $0.entity == pair[0] && $0.relationship == pair[1] } }
        var filtered = Set<[Int]>()
        if shapes.contains(.filters) {
            for pair in wrapped.sorted(by: { $0.lexicographicallyPrecedes($1) }) where !taken(pair) && random.chance(1, in: 2) { filtered.insert(pair) }
            for (index, entity) in schema.entities.enumerated() {
                for (number, relationship) in entity.relationships.enumerated()
                where !relationship.toMany && relationship.alternative == nil && schema.entities[relationship.target].isReferenced
                    && !taken([index, number]) && random.chance(1, in: 4)
                {
                    filtered.insert([index, number])
                }
            }
        }
        return SchemaRendering(
            documents: documents, keyedRoots: keyed, overlapping: overlapping, nestedFirst: nestedFirst, keyedToManys: keyedToManys, wrapped: wrapped,
            filtered: filtered, bareRoot: bareRoot, escapeAll: shapes.contains(.escapes) && random.chance(1, in: 4))
    }

    func root(_ entity: Int) -> String { entity == bareRoot ? "$[*]" : keyedRoots.contains(entity) ? "e\(entity){*}" : "e\(entity)[*]" }

    /// Where `entity`'s objects are read: a referenced entity's root, or inside the objects that
    /// hold an owned entity's.
    func place(_ entity: Int, _ schema: GeneratedSchema) -> String {
        guard schema.entities[entity].key == nil, let holder = schema.entities[entity].holder else { return root(entity) }
        let relationship = schema.entities[holder.entity].relationships[holder.relationship]
        return place(holder.entity, schema) + ".\(relationship.name)" + (relationship.toMany ? "[*]" : "")
    }

    /// Whether `entity`'s objects are members of a `{*}` named by their own key (their last key
    /// part), which they read as `$key` where the object leaves it out.
    func readsKey(_ entity: Int, _ schema: GeneratedSchema) -> Bool {
        if keyedRoots.contains(entity) { return true }
        guard schema.entities[entity].key == .scoped, let holder = schema.entities[entity].holder else { return false }
        return keyedToManys.contains([holder.entity, holder.relationship])
    }

    func map(_ schema: GeneratedSchema) -> String {
        var lines: [String] = []
        for (index, entity) in schema.entities.enumerated() where entity.isReferenced {
            lines.append("records at \(root(index)) as \(entity.name)")
        }
        for (entity, number) in overlapping {
            let relationship = schema.entities[entity].relationships[number]
            let path =
                place(entity, schema) + ".\(relationship.name)" + (keyedToManys.contains([entity, number]) ? "{*}" : relationship.toMany ? "[*]" : "")
                + (wrapped.contains([entity, number]) ? ".ref" : "")
            lines.append("records at \(path) as \(schema.entities[relationship.target].name)")
        }
        for (index, entity) in schema.entities.enumerated() {
            lines.append("entity \(entity.name)" + (entity.key == nil ? " owned" : ""))
            let parts = schema.keyParts(index)
            if !parts.isEmpty { lines.append("  key " + parts.map(\.name).joined(separator: ", ")) }
            for part in parts {
                var paths = part.paths
                let readsKey = readsKey(index, schema) && !part.inherited
                if readsKey { paths.append("$key") }
                let converter = readsKey && part.type == .int ? " | int" : ""
                let source = paths == [part.name] ? "" : " <- " + paths.joined(separator: ", ")
                lines.append("  \(part.name)\(source) : \(part.type.name)\(converter)")
            }
            for attribute in entity.attributes {
                let converter = attribute.type == .date ? " | date(\"\(SchemaScalar.datePattern)\")" : ""
                lines.append("  \(attribute.name) : \(attribute.type.name)\(attribute.optional ? "?" : "")\(converter)")
            }
            for (number, relationship) in entity.relationships.enumerated() {
                let target = schema.entities[relationship.target].name
                let keyedMembers = schema.entities[relationship.target].key == .group || keyedToManys.contains([index, number])
                let filter = filtered.contains([index, number]) ? " where live = true" : ""
                let source =
                    entity.key == .group
                    ? " <- $" : keyedMembers ? " <- \(relationship.name){*}\(filter)" : filter.isEmpty ? "" : " <- \(relationship.name)\(filter)"
                let each = wrapped.contains([index, number]) || filtered.contains([index, number]) ? " each ref" : ""
                if let alternative = relationship.alternative {
                    let other = schema.entities[alternative].name
                    let type = relationship.toMany ? "[\(target) | \(other)]" : "(\(target) | \(other))" + (relationship.optional ? "?" : "")
                    lines += ["  \(relationship.name)\(source) : \(type) by kind each ref", "    \"\(target)\" -> \(target)", "    \"\(other)\" -> \(other)"]
                    continue
                }
                lines.append("  \(relationship.name)\(source) : " + (relationship.toMany ? "[\(target)]" : target + (relationship.optional ? "?" : "")) + each)
                if wrapped.contains([index, number]) { lines.append("    link role : String") }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The inputs, imported in this order.
    func inputs(of graph: SchemaGraph, random: inout GraphRandom) -> [String] {
        var writer = Writer(graph: graph, rendering: self, random: random)
        let count: Int =
            switch documents {
            case .one: 1
            case .lines(let count), .pages(let count): count
            }
        let referenced = graph.schema.entities.indices.filter { graph.schema.entities[$0].isReferenced }
        let roots =
            referenced.filter { !nestedFirst.contains($0) }.shuffled(using: &writer.random)
            + referenced.filter { nestedFirst.contains($0) }.shuffled(using: &writer.random)
        var envelopes: [RenderedJSON] = []
        for page in 0..<count {
            var members: [(String, RenderedJSON)] = []
            if let bareRoot {
                // The only root: the page is its array, JSON Lines a record per line.
                let records = GraphRendering.chunks(graph.objects[bareRoot].count, count)[page].map { writer.whole(bareRoot, $0, depth: 0) }
                if case .lines = documents { envelopes += records } else { envelopes.append(.array(records)) }
                continue
            }
            for entity in roots {
                var chunk = Array(GraphRendering.chunks(graph.objects[entity].count, count)[page])
                if nestedFirst.contains(entity) {
                    chunk = chunk.filter { !writer.written.contains([entity, $0]) }
                    if chunk.isEmpty && writer.random.chance(1, in: 2) { continue }
                }
                if keyedRoots.contains(entity) {
                    members.append(
                        ("e\(entity)", .object(chunk.map { (graph.objects[entity][$0].key[0].stored, writer.whole(entity, $0, depth: 0, keyed: true)) })))
                } else {
                    members.append(("e\(entity)", .array(chunk.map { writer.whole(entity, $0, depth: 0) })))
                }
            }
            envelopes.append(.object(members))
        }
        let texts = envelopes.map { $0.text(escapeAll: escapeAll) }
        if case .lines = documents { return [texts.joined(separator: "\n") + (bareRoot == nil ? "" : "\n")] }
        return texts
    }

    struct Writer {
        let graph: SchemaGraph
        let rendering: SchemaRendering
        var random: GraphRandom
        /// The objects written whole so far, as `[entity, object]`.
        var written = Set<[Int]>()

        /// A group's object: the array of its one to-many's elements.
        mutating func group(_ entity: Int, _ object: Int, depth: Int) -> RenderedJSON {
            let relationship = graph.schema.entities[entity].relationships[0]
            return .array(graph.objects[entity][object].links[0].map { element(relationship.target, $0, whole: false, depth: depth) })
        }

        /// `keyed`: a member of a `{*}` named by its own key (`whole`).
        mutating func element(_ entity: Int, _ object: Int, whole always: Bool, depth: Int, keyed: Bool = false) -> RenderedJSON {
            let first = rendering.nestedFirst.contains(entity) && !written.contains([entity, object])
            return always || first || (depth < 2 && random.chance(1, in: 2))
                ? whole(entity, object, depth: depth + 1, keyed: keyed) : graph.objects[entity][object].key[0].json
        }

        /// An element a filtered to-many must pass over: its `live` is not `true`, and its `ref`
        /// names an object of `entity` the graph does not hold.
        mutating func decoy(_ entity: Int) -> RenderedJSON {
            var members: [(String, RenderedJSON)] = [("ref", decoyKey(entity)), ("role", .string("decoy"))]
            switch random.next(4) {
            case 0: members.append(("live", .bool(false)))
            case 1: members.append(("live", .string("true")))
            case 2: members.append(("live", .null))
            default: break
            }
            return .object(members.shuffled(using: &random))
        }

        /// A key of `entity` that no object of the graph has, but for an unlucky integer.
        mutating func decoyKey(_ entity: Int) -> RenderedJSON {
            switch graph.schema.entities[entity].key {
            case .int?: .int(GeneratedGraph.id(&random))
            case .compound?: .object([("ka", .string("decoy")), ("kb", .int(7))])
            default: .string("decoy")
            }
        }

        /// An absent value: `null`, or no key at all.
        mutating func absent(_ key: String, into members: inout [(String, RenderedJSON)]) {
            if random.chance(1, in: 2) { members.append((key, .null)) }
        }

        /// An object whole; `keyed`: a member of a `{*}` named by its own key (a root's member, or a
        /// parent-scoped child's named by its number), which it may also hold.
        mutating func whole(_ entity: Int, _ object: Int, depth: Int, keyed: Bool = false) -> RenderedJSON {
            let schema = graph.schema
            let model = schema.entities[entity]
            let item = graph.objects[entity][object]
            written.insert([entity, object])
            var members: [(String, RenderedJSON)] = []
            for (part, value) in zip(schema.keyParts(entity), item.key) {
                if part.inherited && !model.carriesParentKey { continue }
                // A parent-scoped child reads its parent's key with `@parent`, which reads the
                // parent's members: its member name (`$key`) is not one (Mappings/README.md, Limits).
                let holdsScoped = model.relationships.contains { schema.entities[$0.target].key?.isScoped == true }
                if keyed && !part.inherited && !holdsScoped && random.chance(2, in: 3) { continue }
                members.append((part.name, value.json))
            }
            for (attribute, value) in zip(model.attributes, item.values) {
                if let value { members.append((attribute.name, value.json)) } else { absent(attribute.name, into: &members) }
            }
            for (number, relationship) in model.relationships.enumerated() {
                let targets = item.links[number]
                let overlapping = rendering.overlapping.contains { $0.entity == entity && $0.relationship == number }
                if schema.entities[relationship.target].key == .group {
                    let groups = targets.map { (graph.objects[relationship.target][$0].key.last!.stored, group(relationship.target, $0, depth: depth + 1)) }
                    if !groups.isEmpty || random.chance(1, in: 2) {
                        members.append((relationship.name, .object(groups)))
                    } else {
                        absent(relationship.name, into: &members)
                    }
                    continue
                }
                let keyedToMany = rendering.keyedToManys.contains([entity, number])
                var elements = targets.map { link in
                    let (target, object) = graph.resolve(relationship, link)
                    // Whole as its own entity needs: a polymorphic relationship's two targets may differ.
                    let always = !schema.entities[target].isReferenced || schema.entities[target].key == .compound || overlapping
                    let inner = element(target, object, whole: always, depth: depth, keyed: keyedToMany && !schema.entities[target].isReferenced)
                    guard relationship.alternative != nil else { return inner }
                    return .object([("kind", .string(schema.entities[target].name)), ("ref", inner)].shuffled(using: &random))
                }
                // A parent-scoped child is named by its number, any other target by its whole key.
                let scoped = !schema.entities[relationship.target].isReferenced
                var names = (keyedToMany ? targets : []).map { link in
                    let (target, object) = graph.resolve(relationship, link)
                    let key = graph.objects[target][object].key.map(\.stored)
                    return (scoped ? Array(key.suffix(1)) : key).joined(separator: "/")
                }
                if rendering.wrapped.contains([entity, number]) {
                    let live: [(String, RenderedJSON)] = rendering.filtered.contains([entity, number]) ? [("live", .bool(true))] : []
                    elements = elements.enumerated().map {
                        .object(([("role", .string(SchemaGraph.role(object, $0))), ("ref", $1)] + live).shuffled(using: &random))
                    }
                }
                if relationship.toMany && rendering.filtered.contains([entity, number]) {
                    for count in 0..<random.next(3) {
                        let position = random.next(elements.count + 1)
                        elements.insert(decoy(relationship.target), at: position)
                        if keyedToMany { names.insert("~decoy \(count)", at: position) }
                    }
                }
                if !relationship.toMany && rendering.filtered.contains([entity, number]) {
                    var candidates = (0..<random.next(3)).map { _ in decoy(relationship.target) }
                    if let element = elements.first {
                        candidates.append(.object([("ref", element), ("live", .bool(true))].shuffled(using: &random)))
                        // One after it that qualifies too: the first one is the target.
                        if random.chance(1, in: 3) { candidates.append(.object([("live", .bool(true)), ("ref", decoyKey(relationship.target))])) }
                    }
                    if candidates.count == 1 && !elements.isEmpty && random.chance(1, in: 2) {
                        members.append((relationship.name, candidates[0]))
                    } else if !candidates.isEmpty || random.chance(1, in: 2) {
                        members.append((relationship.name, .array(candidates)))
                    } else {
                        absent(relationship.name, into: &members)
                    }
                } else if relationship.toMany {
                    if keyedToMany {
                        members.append((relationship.name, .object(Array(zip(names, elements)))))
                    } else if !elements.isEmpty || random.chance(1, in: 2) {
                        members.append((relationship.name, .array(elements)))
                    } else {
                        absent(relationship.name, into: &members)
                    }
                } else if let element = elements.first {
                    members.append((relationship.name, element))
                } else if random.chance(1, in: 3) {
                    members.append((relationship.name, .string("")))  // "no object", as some services write it
                } else {
                    absent(relationship.name, into: &members)
                }
            }
            return .object(members.shuffled(using: &random))
        }
    }
}
