/// A random schema for the model-based test over random schemas (`GeneratedSchemaTests`): 2 to 5
/// entities keyed by an integer (past 2^53 and below zero too), a string, two attributes, or their
/// parent's key and a number of their own (`@parent`), or owned; relationships between them
/// (to-ones, optional or required, to-manys, self-references, owned and parent-scoped targets,
/// from owned objects too);
/// scalar attributes of each type, optional or not. `GeneratedGraph` is the fixed family beside it.
struct GeneratedSchema {
    enum ScalarType: CaseIterable {
        case int, string, bool, double, date

        var name: String {
            switch self {
            case .int: "Int"
            case .string: "String"
            case .bool: "Bool"
            case .double: "Double"
            case .date: "Date"
            }
        }
    }

    enum KeyKind: Equatable {
        case int, string, compound
        /// The parent's key, read with `@parent`, and a number of its own.
        case scoped
        /// A member of the parent's object whose value is an array (`{"2.18.4": [file, …]}`, read
        /// by `{*}`): the parent's key and the member's name (`$key`), its one to-many reading
        /// the array (`r0 <- $ : [E1]`).
        case group

        /// Keyed through the object that holds it.
        var isScoped: Bool { self == .scoped || self == .group }
    }

    struct Attribute {
        var name: String
        var type: ScalarType
        var optional: Bool
    }

    struct Relationship {
        var name: String
        var target: Int
        var toMany: Bool
        var optional: Bool
        /// A polymorphic relationship's second target: its elements are wrappers that name their
        /// entity (`{"kind": "E2", "ref": …}`, `by kind each ref`).
        var alternative: Int? = nil
    }

    /// One part of a key: its attribute's name and type, and the paths it is read from, in order.
    struct KeyPart {
        var name: String
        var type: ScalarType
        var paths: [String]
        /// Read from the parent (`@parent.id`), not from a field of the object's own.
        var inherited: Bool
    }

    struct Entity {
        var name: String
        /// `nil`: an owned entity.
        var key: KeyKind?
        /// A scoped or owned entity's objects are held by this relationship of an earlier entity.
        var holder: (entity: Int, relationship: Int)?
        var attributes: [Attribute]
        var relationships: [Relationship] = []
        /// A scoped entity whose objects carry their parent's key in fields of their own
        /// (`up_id <- up_id, @parent.id`), so that a records line may take them.
        var carriesParentKey = false

        /// Keyed and found by its key alone: a target other relationships may reference.
        var isReferenced: Bool { key != nil && key?.isScoped != true }
    }

    var entities: [Entity]

    /// A scoped entity's parts read each part of its parent's key through `@parent`, every way the
    /// parent reads it (`@parent.up_id, @parent.@parent.id` where the parent carries its own
    /// parent's key): an object taken by a records line has no `@parent` of its own, so its
    /// children read the key it carries.
    func keyParts(_ entity: Int) -> [KeyPart] {
        switch entities[entity].key {
        case nil: []
        case .int?: [KeyPart(name: "id", type: .int, paths: ["id"], inherited: false)]
        case .string?: [KeyPart(name: "code", type: .string, paths: ["code"], inherited: false)]
        case .compound?:
            [KeyPart(name: "ka", type: .string, paths: ["ka"], inherited: false), KeyPart(name: "kb", type: .int, paths: ["kb"], inherited: false)]
        case let kind?:
            keyParts(entities[entity].holder!.entity).map { part in
                let name = "up_" + part.name
                let inherited = part.paths.map { "@parent." + $0 }
                return KeyPart(name: name, type: part.type, paths: entities[entity].carriesParentKey ? [name] + inherited : inherited, inherited: true)
            }
                + [
                    kind == .group
                        ? KeyPart(name: "name", type: .string, paths: ["$key"], inherited: false)
                        : KeyPart(name: "number", type: .int, paths: ["number"], inherited: false)
                ]
        }
    }

    /// What a generated schema may hold; the test widens it step by step.
    struct Features: OptionSet {
        let rawValue: Int
        static let scoped = Features(rawValue: 1 << 0)
        static let owned = Features(rawValue: 1 << 1)
        static let compound = Features(rawValue: 1 << 2)
        static let stringKeys = Features(rawValue: 1 << 3)
        static let allTypes = Features(rawValue: 1 << 4)
        static let groups = Features(rawValue: 1 << 5)
        static let polymorphic = Features(rawValue: 1 << 6)
        static let all: Features = [.scoped, .owned, .compound, .stringKeys, .allTypes, .groups, .polymorphic]
    }

    static func random(_ random: inout GraphRandom, entities count: Int, relationships extra: Int, features: Features) -> GeneratedSchema {
        var schema = GeneratedSchema(entities: [])
        var keys: [KeyKind] = [.int]
        if features.contains(.stringKeys) { keys.append(.string) }
        if features.contains(.compound) { keys.append(.compound) }
        let types: [ScalarType] = features.contains(.allTypes) ? ScalarType.allCases : [.int, .string]
        for index in 0..<count {
            let holders = schema.entities.indices.filter { schema.entities[$0].key != nil && schema.entities[$0].key != .group }
            // A group's elements: an earlier referenced entity (one keyed by two attributes is
            // written whole, so relationships into it point forward).
            let members = schema.entities.indices.filter { schema.entities[$0].isReferenced && schema.entities[$0].key != .compound }
            var kind: KeyKind? = random.pick(keys)
            var holder: Int?
            if !holders.isEmpty {
                switch random.next(5) {
                case 0 where features.contains(.scoped): (kind, holder) = (.scoped, random.pick(holders))
                case 1 where features.contains(.owned): (kind, holder) = (nil, random.pick(holders))
                case 2 where features.contains(.groups) && !members.isEmpty: (kind, holder) = (.group, random.pick(holders))
                default: break
                }
            }
            // A group is an array, which has no members to read.
            let attributes = (0..<(kind == .group ? 0 : random.next(3) + (kind == nil ? 1 : 0))).map { number in
                Attribute(name: "a\(number)", type: random.pick(types), optional: random.chance(1, in: 2))
            }
            var entity = Entity(name: "E\(index)", key: kind, attributes: attributes)
            if let holder {
                let relationship = schema.entities[holder].relationships.count
                schema.entities[holder].relationships.append(
                    Relationship(name: "r\(relationship)", target: index, toMany: kind?.isScoped == true || random.chance(2, in: 3), optional: true))
                entity.holder = (holder, relationship)
            }
            if kind == .group { entity.relationships = [Relationship(name: "r0", target: random.pick(members), toMany: true, optional: true)] }
            schema.entities.append(entity)
        }
        // Relationships into referenced entities. A target keyed by two attributes is always
        // written whole (no scalar names it), so such relationships point forward: whole objects
        // then never nest without end.
        // Owned entities too: an owned object may hold relationships to keyed entities.
        let sources = schema.entities.indices.filter { schema.entities[$0].key != .group }
        let targets = schema.entities.indices.filter { schema.entities[$0].isReferenced }
        for _ in 0..<extra {
            let source = random.pick(sources)
            let target = random.pick(targets)
            if schema.entities[target].key == .compound && source >= target { continue }
            let relationship = schema.entities[source].relationships.count
            var alternative: Int?
            if features.contains(.polymorphic) && random.chance(1, in: 3) {
                let others = targets.filter { $0 != target && (schema.entities[$0].key != .compound || source < $0) }
                if !others.isEmpty { alternative = random.pick(others) }
            }
            schema.entities[source].relationships.append(
                Relationship(
                    name: "r\(relationship)", target: target, toMany: random.chance(1, in: 2), optional: !random.chance(1, in: 3), alternative: alternative))
        }
        return schema
    }
}

/// A value of a generated attribute.
enum SchemaScalar: Equatable {
    case int(Int64)
    case string(String)
    case bool(Bool)
    case double(Double)
    /// Year, month, day, hour, minute, second.
    case date([Int])

    static let datePattern = "yyyy-MM-dd HH:mm:ss"

    static func random(_ type: GeneratedSchema.ScalarType, _ random: inout GraphRandom) -> SchemaScalar {
        switch type {
        case .int: .int(GeneratedGraph.id(&random))
        case .string: .string(GeneratedGraph.text(&random, empty: true))
        case .bool: .bool(random.chance(1, in: 2))
        // Eighths: exact in binary, so both stores print them alike.
        case .double: .double(Double(random.next(4001) - 2000) / 8)
        case .date:
            .date([random.next(10_000), random.next(12) + 1, random.next(28) + 1, random.next(24), random.next(60), random.next(60)])
        }
    }

    var json: RenderedJSON {
        switch self {
        case .int(let number): .int(number)
        case .string(let text): .string(text)
        case .bool(let value): .bool(value)
        case .double(let number): .double(number)
        case .date(let parts): .string(Self.digits(parts, "-", " "))
        }
    }

    /// As `StoredGraph` reads it back.
    var stored: String {
        switch self {
        case .int(let number): String(number)
        case .string(let text): text
        case .bool(let value): value ? "true" : "false"
        case .double(let number): "\(number)"
        case .date(let parts): Self.digits(parts, "-", "T") + ".000Z"
        }
    }

    private static func digits(_ parts: [Int], _ dash: String, _ middle: String) -> String {
        func padded(_ number: Int, _ width: Int) -> String {
            let text = String(number)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return padded(parts[0], 4) + dash + padded(parts[1], 2) + dash + padded(parts[2], 2) + middle + padded(parts[3], 2) + ":"
            + padded(parts[4], 2) + ":" + padded(parts[5], 2)
    }
}

/// A random object graph that conforms to a `GeneratedSchema`.
struct SchemaGraph {
    struct Object {
        var key: [SchemaScalar]
        var values: [SchemaScalar?]
        /// Per relationship: the indices of its targets in their entity, in order (a to-one: at most one).
        var links: [[Int]]
    }

    var schema: GeneratedSchema
    /// Per entity, its objects.
    var objects: [[Object]]

    static func random(_ schema: GeneratedSchema, _ random: inout GraphRandom) -> SchemaGraph {
        var graph = SchemaGraph(schema: schema, objects: Array(repeating: [], count: schema.entities.count))
        func values(_ entity: GeneratedSchema.Entity) -> [SchemaScalar?] {
            entity.attributes.map { $0.optional && random.chance(1, in: 3) ? nil : SchemaScalar.random($0.type, &random) }
        }
        for (index, entity) in schema.entities.enumerated() {
            let empty = Array(repeating: [Int](), count: entity.relationships.count)
            if let holder = entity.holder {
                // Scoped and owned objects: each held by one object of the holder.
                for owner in graph.objects[holder.entity].indices {
                    let toMany = schema.entities[holder.entity].relationships[holder.relationship].toMany
                    // Numbers from a small range, so that two parents' children share numbers.
                    let numbers = random.distinct(toMany ? random.next(4) : random.next(2), below: 4)
                    var held: [Int] = []
                    for number in numbers {
                        let own: SchemaScalar = entity.key == .group ? .string(["2.18.4", "P31", "x y", "ü\"1"][number]) : .int(Int64(number + 1))
                        let key = entity.key == nil ? [] : graph.objects[holder.entity][owner].key + [own]
                        held.append(graph.objects[index].count)
                        graph.objects[index].append(Object(key: key, values: values(entity), links: empty))
                    }
                    graph.objects[holder.entity][owner].links[holder.relationship] = held
                }
                continue
            }
            var seen: [[SchemaScalar]] = []
            for _ in 0..<(random.next(4) + 1) {
                var key: [SchemaScalar]
                repeat {
                    switch entity.key {
                    case .int?: key = [.int(GeneratedGraph.id(&random))]
                    case .string?: key = [.string(GeneratedGraph.text(&random) + String(random.next(9)))]
                    default: key = [.string(random.pick(["octo", "Ünï", "a\"b", "big corp"])), .int(Int64(random.next(3)) - 1)]
                    }
                } while seen.contains(key)
                seen.append(key)
                graph.objects[index].append(Object(key: key, values: values(entity), links: empty))
            }
        }
        for (index, entity) in schema.entities.enumerated() {
            for (number, relationship) in entity.relationships.enumerated() where schema.entities[relationship.target].isReferenced {
                let count = graph.objects[relationship.target].count + (relationship.alternative.map { graph.objects[$0].count } ?? 0)
                for object in graph.objects[index].indices {
                    graph.objects[index][object].links[number] =
                        relationship.toMany
                        ? random.distinct(random.next(4), below: count)
                        : (relationship.optional && random.chance(1, in: 3) ? [] : [random.next(count)])
                }
            }
        }
        return graph
    }

    /// The entity and object a link of `relationship` names: past the target's objects, the alternative's.
    func resolve(_ relationship: GeneratedSchema.Relationship, _ link: Int) -> (entity: Int, object: Int) {
        let count = objects[relationship.target].count
        return link < count ? (relationship.target, link) : (relationship.alternative!, link - count)
    }

    /// The link value of the element at `position` of a to-many of the object `object`.
    static func role(_ object: Int, _ position: Int) -> String { ["admin", "member", "ö\"wner"][(object + position) % 3] }

    /// `E1(octo,2)`, as `StoredGraph` names a keyed object, or an owned object's values.
    func name(_ entity: Int, _ object: Int) -> String {
        let item = objects[entity][object]
        let model = schema.entities[entity]
        if model.key == nil {
            return "{" + zip(model.attributes, item.values).map { "\($0.name)=\($1?.stored ?? "NULL")" }.joined(separator: ",") + "}"
        }
        return "\(model.name)(" + item.key.map(\.stored).joined(separator: ",") + ")"
    }

    /// The graph in `StoredGraph.lines`' form.
    /// `wrapped`: the to-manys (`[entity, relationship]`) whose elements are wrappers with a link
    /// value (`{"ref": …, "role": …}`), stored with each link.
    func lines(wrapped: Set<[Int]> = []) -> [String] {
        var result: [String] = []
        for (index, entity) in schema.entities.enumerated() {
            if entity.key == nil {
                result.append("\(entity.name) rows: \(objects[index].count)")
                continue
            }
            let parts = schema.keyParts(index)
            for (number, object) in objects[index].enumerated() {
                var fields: [String: String] = [:]
                for (part, value) in zip(parts, object.key) { fields[part.name] = value.stored }
                for (attribute, value) in zip(entity.attributes, object.values) { fields[attribute.name] = value?.stored ?? "NULL" }
                for (offset, (relationship, targets)) in zip(entity.relationships, object.links).enumerated() {
                    // A polymorphic relationship: a field per target entity, as `StoredGraph` reads it.
                    for entity in [relationship.target] + (relationship.alternative.map { [$0] } ?? []) {
                        let names = targets.enumerated().compactMap { position, target -> String? in
                            let resolved = resolve(relationship, target)
                            guard resolved.entity == entity else { return nil }
                            return name(entity, resolved.object) + (wrapped.contains([index, offset]) ? "{role=\(Self.role(number, position))}" : "")
                        }
                        fields["\(relationship.name)->\(schema.entities[entity].name)"] =
                            relationship.toMany ? "[" + names.joined(separator: ", ") + "]" : names.first ?? "NULL"
                    }
                }
                result.append(StoredGraph.line(name(index, number), fields))
            }
        }
        return result.sorted()
    }
}
