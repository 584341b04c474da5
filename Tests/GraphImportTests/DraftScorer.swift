@testable import GraphImport
import GraphImportJSON
import GraphImportMapping

/// What an expert models in one response: the entities (the places whose objects each one holds,
/// and its key) and the relationships between them. Written from the API's documentation as
/// path patterns and field names only; no value of a payload is copied into it.
///
/// An entity is written `Name = PATTERN | PATTERN ; KEY[,KEY]` and a relationship
/// `Owner.PATH -> Target`. A pattern starts at the document (`$`) and takes the steps `.name`,
/// `[*]` (every element), `{*}` (every member of an object keyed by data), `..name` (a member
/// `name` at any depth below) and `[field=value]` / `[field]` (only objects whose `field` holds
/// that value, or holds one at all: a discriminator the API documents). An empty key (`Name =
/// PATTERN ;`) is an entity owned by the object that holds it, identified by its place. A
/// relationship's PATH is a pattern relative to each owner object; what it reaches is either
/// the target's object or the target's key value (an id-only reference).
struct ExpertModel {
    struct EntitySpec {
        var name: String
        var patterns: [[PatternStep]]
        var key: [[String]]
    }

    struct RelationshipSpec {
        var owner: String
        var path: [PatternStep]
        var target: String
        var text: String
    }

    var entities: [EntitySpec]
    var relationships: [RelationshipSpec]

    init(entities: [String], relationships: [String] = []) {
        self.entities = entities.map { line in
            let halves = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let rest = halves[1].split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            let patterns = rest[0].split(separator: "|").map { PatternStep.parse($0.trimmingCharacters(in: .whitespaces)) }
            let key = rest.count > 1 ? rest[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } : []
            return EntitySpec(name: halves[0], patterns: patterns, key: key.map { $0.split(separator: ".").map(String.init) })
        }
        self.relationships = relationships.map { line in
            let sides = line.split(separator: "->").map { $0.trimmingCharacters(in: .whitespaces) }
            let dot = sides[0].firstIndex(of: ".")!
            return RelationshipSpec(
                owner: String(sides[0][..<dot]), path: PatternStep.parse("$" + sides[0][dot...]), target: sides[1], text: line)
        }
    }
}

/// One step of an expert model's pattern.
enum PatternStep: Equatable {
    case key(String)
    case anyIndex
    case anyMember
    case descendant(String)
    case filter(field: [String], value: String?)

    /// `$.data[*]..user[type=person]` -> its steps (`$` alone is no step).
    static func parse(_ text: String) -> [PatternStep] {
        var steps: [PatternStep] = []
        var chars = Array(text)
        if chars.first == "$" { chars.removeFirst() }
        var index = 0
        func name() -> String {
            var out = ""
            while index < chars.count, !".[{".contains(chars[index]) {
                out.append(chars[index])
                index += 1
            }
            return out
        }
        while index < chars.count {
            switch chars[index] {
            case ".":
                if index + 1 < chars.count, chars[index + 1] == "." {
                    index += 2
                    steps.append(.descendant(name()))
                } else {
                    index += 1
                    steps.append(.key(name()))
                }
            case "{":
                index += 3
                steps.append(.anyMember)
            case "[":
                let close = chars[index...].firstIndex(of: "]")!
                let inner = String(chars[(index + 1)..<close])
                index = close + 1
                if inner == "*" {
                    steps.append(.anyIndex)
                } else {
                    let parts = inner.split(separator: "=", maxSplits: 1).map(String.init)
                    steps.append(.filter(field: parts[0].split(separator: ".").map(String.init), value: parts.count > 1 ? parts[1] : nil))
                }
            default:
                steps.append(.key(name()))
            }
        }
        return steps
    }
}

/// A JSON value met at a place of the document (`$[3].user`).
final class Visit {
    let place: String
    let value: JSONValue
    let memberName: String?
    let index: Int?
    let parent: Visit?

    init(place: String, value: JSONValue, memberName: String? = nil, index: Int? = nil, parent: Visit? = nil) {
        self.place = place
        self.value = value
        self.memberName = memberName
        self.index = index
        self.parent = parent
    }

    func child(_ key: String) -> Visit? {
        guard case .object(let object) = value, let value = object[key] else { return nil }
        return Visit(place: place + "." + key, value: value, memberName: key, parent: self)
    }

    var children: [Visit] {
        switch value {
        case .object(let object): object.members.map { Visit(place: place + "." + $0.key, value: $0.value, memberName: $0.key, parent: self) }
        case .array(let elements): elements.enumerated().map { Visit(place: place + "[\($0.offset)]", value: $0.element, index: $0.offset, parent: self) }
        default: []
        }
    }

    var elements: [Visit] {
        guard case .array = value else { return [] }
        return children
    }

    var members: [Visit] {
        guard case .object = value else { return [] }
        return children
    }

    var isObject: Bool {
        if case .object = value { return true }
        return false
    }
}

/// Scores a draft against an expert model: the share of the model's entities and relationships
/// the draft recovers, and the rows where the draft merges objects the model keeps apart.
struct DraftScorer {
    struct Score {
        var entities = 0
        var entitiesFound = 0
        var relationships = 0
        var relationshipsFound = 0
        var mergedRows = 0
        var missedEntities: [String] = []
        var missedRelationships: [String] = []
        var merges: [String] = []
    }

    /// A canonical text of a scalar (`12` and `"12"` alike); nil for null.
    static func text(_ value: JSONValue) -> String? {
        switch value {
        case .null: nil
        case .bool(let flag): String(flag)
        case .number(let number): number.exactInt64.map { String($0) } ?? number.literal
        case .string(let string): string
        case .array, .object: String(describing: value)
        }
    }

    static func select(_ steps: ArraySlice<PatternStep>, from visit: Visit) -> [Visit] {
        guard let step = steps.first else { return [visit] }
        let rest = steps.dropFirst()
        switch step {
        case .key(let key):
            return visit.child(key).map { select(rest, from: $0) } ?? []
        case .anyIndex:
            return visit.elements.flatMap { select(rest, from: $0) }
        case .anyMember:
            return visit.members.flatMap { select(rest, from: $0) }
        case .descendant(let key):
            var found: [Visit] = []
            func walk(_ node: Visit) {
                if let hit = node.child(key) { found.append(contentsOf: select(rest, from: hit)) }
                for child in node.children { walk(child) }
            }
            walk(visit)
            return found
        case .filter(let field, let value):
            var node: Visit? = visit
            for key in field { node = node?.child(key) }
            guard let node, let text = text(node.value) else { return [] }
            return value == nil || value == text ? select(rest, from: visit) : []
        }
    }

    /// What the draft makes of the document: which entity holds the object at each place, its
    /// key there, and what each object links to (`place:…` an object, `value:…` a key).
    struct DraftView {
        var holders: [String: Set<String>] = [:]
        var keys: [String: [String: String]] = [:]
        var links: [String: Set<String>] = [:]
        var visited: Set<String> = []
    }

    static func view(_ mapping: Mapping, document: JSONValue) -> DraftView {
        var view = DraftView()
        let root = Visit(place: "$", value: document)
        let entities = Dictionary(mapping.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

        func resolve(_ path: KeyPath, from visit: Visit) -> [Visit] {
            var current: [Visit] = [visit]
            for component in path.components {
                current = current.flatMap { node -> [Visit] in
                    switch component {
                    case .key(let key): return node.child(key).map { [$0] } ?? []
                    case .index(let index): return node.elements.indices.contains(index) ? [node.elements[index]] : []
                    case .anyIndex: return node.elements
                    case .anyIndexOrOne: return node.isObject ? [node] : node.elements
                    case .anyMember: return node.members
                    case .parent: return node.parent.map { [$0] } ?? []
                    case .root: return [root]
                    case .memberName: return node.memberName.map { [Visit(place: node.place + "#key", value: .string($0))] } ?? []
                    case .elementIndex: return node.index.map { [Visit(place: node.place + "#index", value: .number(JSONNumber(integer: Int64($0))))] } ?? []
                    }
                }
            }
            return current
        }

        func holds(_ filter: ElementFilter?, _ visit: Visit) -> Bool {
            guard let filter else { return true }
            let found = resolve(filter.field, from: visit).first
            switch filter.test {
            case .isPresent: return found != nil
            case .isAbsent: return found == nil
            case .isNull: return found?.value == .null
            case .equals(let literals):
                guard let found, let text = text(found.value) else { return false }
                return literals.contains { literal in
                    switch literal {
                    case .string(let string): string == text
                    default: literal.description == text
                    }
                }
            case .hasPrefix(let prefix): return found.flatMap { text($0.value) }?.hasPrefix(prefix) ?? false
            case .hasSuffix(let suffix): return found.flatMap { text($0.value) }?.hasSuffix(suffix) ?? false
            case .matches: return true
            }
        }

        func key(of entity: Entity, at visit: Visit) -> String? {
            if entity.isOwned { return visit.place }
            var parts: [String] = []
            for name in entity.key {
                if let attribute = entity.attribute(named: name) {
                    let value = attribute.sources.lazy.compactMap { resolve($0, from: visit).first.flatMap { text($0.value) } }.first
                    guard let value else { return nil }
                    parts.append(value)
                } else if let relationship = entity.relationship(named: name) {
                    guard let target = resolve(relationship.source, from: visit).first else { return nil }
                    parts.append(target.place)
                } else {
                    return nil
                }
            }
            return parts.joined(separator: "\u{1}")
        }

        /// `stubKey`: a bare key value linked to the entity (a stub of it until its object arrives).
        func take(_ visit: Visit, as name: String, stubKey: String? = nil) {
            guard let entity = entities[name], view.visited.insert(name + "\u{1}" + visit.place).inserted else { return }
            view.holders[visit.place, default: []].insert(name)
            if let key = stubKey ?? key(of: entity, at: visit) { view.keys[name, default: [:]][visit.place] = key }
            guard visit.isObject else { return }
            for relationship in entity.relationships {
                guard let value = relationship.sources.lazy.compactMap({ source in resolveSource(source, relationship, visit) }).first else { continue }
                var elements = value
                if let filter = relationship.filter { elements = elements.filter { holds(filter, $0) } }
                if !relationship.isToMany { elements = Array(elements.prefix(1)) }
                for element in elements {
                    var target: Visit? = element
                    if let each = relationship.elementPath { target = resolve(each, from: element).first }
                    guard let target else { continue }
                    // Drafts write no `by` choice; one would be read as its first target.
                    let targetEntity = relationship.target
                    if target.isObject {
                        view.links[visit.place, default: []].insert("place:" + target.place)
                        take(target, as: targetEntity)
                        // Linked by its object or by its key alike: an id-only reference
                        // (`{"type": "quoted", "id": "12"}`) is a link to the key it holds.
                        if let key = view.keys[targetEntity]?[target.place] {
                            view.links[visit.place, default: []].insert("value:" + key)
                        }
                    } else if let text = text(target.value) {
                        view.links[visit.place, default: []].insert("value:" + text)
                        take(target, as: targetEntity, stubKey: text)
                    }
                }
            }
        }

        /// The elements a relationship's source reaches (nil when it holds nothing there).
        func resolveSource(_ source: KeyPath, _ relationship: Relationship, _ visit: Visit) -> [Visit]? {
            let found = resolve(source, from: visit)
            if source.components.last == .anyMember { return found.isEmpty ? nil : found }
            guard let first = found.first, first.value != .null else { return nil }
            if relationship.isToMany || relationship.elementPath != nil, case .array = first.value { return first.elements }
            return [first]
        }

        for records in mapping.records {
            for path in records.paths {
                // `$[*]` takes a lone top-level object as the one record, as the engine does.
                var path = path
                if root.isObject, path.components.first == .anyIndex { path.components[0] = .anyIndexOrOne }
                for visit in resolve(path, from: root) where holds(records.filter, visit) {
                    if let choice = records.choice {
                        let found = resolve(choice.discriminator, from: visit).first.flatMap { text($0.value) }
                        let chosen =
                            choice.cases.first { recordCase in
                                guard let value = recordCase.value else { return false }
                                if case .string(let string) = value { return string == found }
                                return value.description == found
                            } ?? choice.cases.first { $0.value == nil }
                        guard let chosen, let entity = chosen.entity, let object = resolve(chosen.subpath, from: visit).first else { continue }
                        take(object, as: entity)
                    } else {
                        take(visit, as: records.entity)
                    }
                }
            }
        }
        return view
    }

    static func score(_ model: ExpertModel, mapping: Mapping, document: JSONValue) -> Score {
        let root = Visit(place: "$", value: document)
        let view = view(mapping, document: document)
        var score = Score()
        // The objects of each expert entity that have its key, and their key there.
        var expertKeys: [String: [String: String]] = [:]
        var expertVisits: [String: [Visit]] = [:]
        for entity in model.entities {
            var keys: [String: String] = [:]
            var visits: [Visit] = []
            for pattern in entity.patterns {
                for visit in select(pattern[...], from: root) where keys[visit.place] == nil && visit.value != .null {
                    let key: String?
                    if entity.key.isEmpty {
                        key = visit.place
                    } else if entity.key == [["$"]] {
                        key = text(visit.value)
                    } else if entity.key == [["$key"]] {
                        key = visit.memberName
                    } else if !visit.isObject {
                        key = nil
                    } else {
                        let parts = entity.key.map { path -> String? in
                            var node: Visit? = visit
                            for step in path { node = node?.child(step) }
                            return node.flatMap { text($0.value) }
                        }
                        key = parts.contains(nil) ? nil : parts.map { $0! }.joined(separator: "\u{1}")
                    }
                    if let key {
                        keys[visit.place] = key
                        visits.append(visit)
                    }
                }
            }
            expertKeys[entity.name, default: [:]].merge(keys) { first, _ in first }
            expertVisits[entity.name, default: []].append(contentsOf: visits)
        }
        for entity in model.entities {
            let objects = expertKeys[entity.name] ?? [:]
            guard !objects.isEmpty else { continue }
            score.entities += 1
            let candidates = Set(objects.keys.flatMap { view.holders[$0] ?? [] })
            let found = candidates.contains { draftEntity in
                let draftKeys = view.keys[draftEntity] ?? [:]
                let covered = objects.filter { draftKeys[$0.key] != nil }
                guard Double(covered.count) >= 0.9 * Double(objects.count) else { return false }
                var forward: [String: String] = [:]
                var backward: [String: String] = [:]
                for (place, expertKey) in covered {
                    let draftKey = draftKeys[place]!
                    if forward[expertKey, default: draftKey] != draftKey || backward[draftKey, default: expertKey] != expertKey { return false }
                    forward[expertKey] = draftKey
                    backward[draftKey] = expertKey
                }
                return true
            }
            if found { score.entitiesFound += 1 } else { score.missedEntities.append(entity.name) }
        }
        for relationship in model.relationships {
            var instances = 0
            var linked = 0
            for owner in expertVisits[relationship.owner] ?? [] {
                for target in select(relationship.path[...], from: owner) {
                    let wanted = target.isObject ? "place:" + target.place : text(target.value).map { "value:" + $0 }
                    guard let wanted else { continue }
                    instances += 1
                    if view.links[owner.place]?.contains(wanted) == true { linked += 1 }
                }
            }
            guard instances > 0 else { continue }
            score.relationships += 1
            if Double(linked) >= 0.8 * Double(instances) {
                score.relationshipsFound += 1
            } else {
                score.missedRelationships.append(relationship.text)
            }
        }
        // Merged rows: one draft row (entity and key) holding objects of two expert entities, or
        // objects one expert entity keeps apart whose contents differ (one overwrites the other).
        // Equal objects the model keeps apart (a volume `tmp` alike in two pods) in one row lose
        // nothing: the entity then counts as not found (its keys are not the model's), not as merged.
        var identity: [String: (entity: String, key: String)] = [:]
        var contents: [String: String] = [:]
        for (name, objects) in expertKeys { for (place, key) in objects { identity[place] = (name, key) } }
        for visits in expertVisits.values { for visit in visits { contents[visit.place] = String(describing: visit.value) } }
        for (draftEntity, keys) in view.keys {
            var rows: [String: [String: Set<String>]] = [:]
            for (place, key) in keys {
                guard let known = identity[place] else { continue }
                rows[key, default: [:]][known.entity + ":" + known.key, default: []].insert(contents[place] ?? "")
            }
            for (key, found) in rows {
                let entities = Set(found.keys.map { $0.prefix { $0 != ":" } })
                guard entities.count > 1 || (found.count > 1 && Set(found.values.flatMap { $0 }).count > 1) else { continue }
                let identities = Array(found.keys)
                score.mergedRows += 1
                if score.merges.count < 5 {
                    score.merges.append("\(draftEntity) \(key.prefix(40)): \(identities.sorted().map { String($0.prefix(60)) }.joined(separator: " + "))")
                }
            }
        }
        return score
    }
}
