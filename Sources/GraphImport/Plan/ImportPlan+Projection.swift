import GraphImportJSON

extension ImportPlan {
    /// What the reader must build of the records of each route: the keys the map (and the key
    /// handlers of `hooks`) read, along every path and into every nested entity; the rest of a
    /// record is checked and skipped. One projection per route, in `routes` order.
    package func projections(hooks: ImportHooks = ImportHooks()) -> [JSONProjection] {
        var builder = ProjectionBuilder(plan: self, hooks: hooks)
        let needs = routes.map { route in
            var need = ProjectionNeed()
            if let filter = route.filter { need.add(filter.field, leaf: ProjectionNeed(keepsAll: true)) }
            switch route.target {
            case .entity(let entity):
                need.entities.insert(entity)
            case .choice(let discriminator, _, let cases):
                need.add(discriminator, leaf: ProjectionNeed(keepsAll: true))
                for choice in cases {
                    guard let entity = choice.entity else { continue }
                    need.add(choice.subpath, leaf: ProjectionNeed(entities: [entity]))
                }
            }
            return need
        }
        // A record goes to a later route of its path when a `where` passes it on: it is built for all of them.
        let roots = routes.indices.map { index in
            var need = needs[index]
            for other in routes[index].alternatives { need.merge(needs[other]) }
            return builder.node(need)
        }
        return roots.map { JSONProjection(nodes: builder.nodes, root: $0) }
    }
}

/// What a map reads of one JSON value, before entity references are followed: the whole value,
/// the needs of whole entities (a nested object read as a User), and needs by member key.
struct ProjectionNeed: Hashable {
    var keepsAll = false
    var entities: Set<Int> = []
    var members: [String: ProjectionNeed] = [:]

    /// Adds `leaf` at the end of `path`; an index step reads inside an array, which a projection
    /// sees through, so it adds nothing.
    mutating func add(_ path: some Collection<PathStep>, leaf: ProjectionNeed) {
        guard let step = path.first else { return merge(leaf) }
        guard case .key(let key) = step else { return add(path.dropFirst(), leaf: leaf) }
        members[key, default: ProjectionNeed()].add(path.dropFirst(), leaf: leaf)
    }

    mutating func merge(_ other: ProjectionNeed) {
        keepsAll = keepsAll || other.keepsAll
        entities.formUnion(other.entities)
        for (key, need) in other.members { members[key, default: ProjectionNeed()].merge(need) }
    }
}

/// Turns needs into the nodes of the reader's projection. A need that names entities takes in
/// what each entity reads; since entities nest into themselves (a tweet's retweet is a tweet),
/// the node made for a need is remembered and reused, which closes the cycles.
struct ProjectionBuilder {
    /// What each entity reads of its own object.
    private let entityNeeds: [ProjectionNeed]
    private var made: [ProjectionNeed: Int] = [:]
    private(set) var nodes: [JSONProjection.Node] = []

    init(plan: ImportPlan, hooks: ImportHooks) {
        var needs = plan.entities.map { entity in
            var need = ProjectionNeed()
            // `extras` keeps every unmapped member as JSON, so the object is read whole.
            need.keepsAll = entity.extrasAttribute != nil
            for attribute in entity.attributes {
                // `$key` reads the member's name, nothing of the object.
                guard let path = attribute.path, path != [.memberName], path != [.elementIndex], !path.isAnchored else { continue }
                need.add(path, leaf: ProjectionNeed(keepsAll: true))
            }
            for attribute in entity.attributes {
                for path in attribute.fallbacks where path != [.memberName] && path != [.elementIndex] && !path.isAnchored {
                    need.add(path, leaf: ProjectionNeed(keepsAll: true))
                }
            }
            for relationship in entity.toOne {
                // An array below a to-one with a `where` is seen through, as an index step is.
                var leaf = ProjectionNeed()
                leaf.add(relationship.elementPath, leaf: ProjectionNeed(entities: [relationship.target]))
                if let filter = relationship.filter { leaf.add(filter.field, leaf: ProjectionNeed(keepsAll: true)) }
                for path in [relationship.path] + relationship.fallbacks where !path.isAnchored { need.add(path, leaf: leaf) }
            }
            for relationship in entity.toMany {
                // `{*}`: every member is an element; the projection has no node for "every
                // member", so the object is built whole.
                if relationship.isKeyed {
                    need.add(relationship.path, leaf: ProjectionNeed(keepsAll: true))
                    continue
                }
                var element = ProjectionNeed()
                element.add(relationship.elementPath, leaf: ProjectionNeed(entities: [relationship.target]))
                // `link` attributes read the element itself (beside the target, or around it).
                for attribute in relationship.linkAttributes {
                    guard let path = attribute.path else { continue }
                    element.add(path, leaf: ProjectionNeed(keepsAll: true))
                }
                if let filter = relationship.filter { element.add(filter.field, leaf: ProjectionNeed(keepsAll: true)) }
                for path in [relationship.path] + relationship.fallbacks { need.add(path, leaf: element) }
            }
            for key in (hooks.keyHandlers[entity.name] ?? [:]).keys {
                need.add([PathStep.key(key)], leaf: ProjectionNeed(keepsAll: true))
            }
            return need
        }
        if plan.readsParent { Self.addParentNeeds(plan: plan, to: &needs) }
        entityNeeds = needs
    }

    /// `@parent.PATH` reads `PATH` in the object whose relationship reached this one: in each
    /// entity with a relationship into it (for `@parent.@parent`, one more level up).
    private static func addParentNeeds(plan: ImportPlan, to needs: inout [ProjectionNeed]) {
        // Per entity, the entities with a relationship into it.
        var owners = Array(repeating: Set<Int>(), count: plan.entities.count)
        for (index, entity) in plan.entities.enumerated() {
            for target in entity.toOne.map(\.target) + entity.toMany.map(\.target) { owners[target].insert(index) }
        }
        for (index, entity) in plan.entities.enumerated() where entity.readsParent {
            var reads: [(path: [PathStep], leaf: ProjectionNeed)] = []
            for attribute in entity.attributes {
                for path in (attribute.path.map { [$0] } ?? []) + attribute.fallbacks { reads.append((path, ProjectionNeed(keepsAll: true))) }
            }
            for relationship in entity.toOne {
                for path in [relationship.path] + relationship.fallbacks { reads.append((path, ProjectionNeed(entities: [relationship.target]))) }
            }
            // `@parent.$key` reads no member of the parent.
            for (path, leaf) in reads where path.readsParent && path.last != .memberName {
                let levels = path.prefix { $0 == .parent }.count
                var above: Set<Int> = [index]
                for _ in 0..<levels { above = Set(above.flatMap { owners[$0] }) }
                for owner in above { needs[owner].add(path.dropFirst(levels), leaf: leaf) }
            }
        }
    }

    mutating func node(_ need: ProjectionNeed) -> Int {
        if let index = made[need] { return index }
        // Take in the needs of the named entities, and of the entities those name at this level.
        var whole = need
        var taken = Set<Int>()
        while let entity = whole.entities.subtracting(taken).min() {
            taken.insert(entity)
            whole.merge(entityNeeds[entity])
        }
        let index = nodes.count
        made[need] = index
        nodes.append(JSONProjection.Node(keepsAll: whole.keepsAll))
        if whole.keepsAll { return index }
        for (key, member) in whole.members {
            let child = node(member)
            nodes[index].members[key] = child
        }
        return index
    }
}
