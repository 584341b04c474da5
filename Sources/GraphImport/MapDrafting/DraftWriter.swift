import GraphImportMapping

/// Turns the planner's groups into a draft: names each entity, walks each one's members (inlining
/// nested objects without an identity, relating to those with one) and types each attribute.
struct DraftWriter {
    let planner: DraftPlanner
    let groups: [Int: [ShapeNode]]
    let identity: [Int: DraftKey]
    let find: (Int) -> Int

    private var names: [Int: String] = [:]
    private var usedEntityNames: Set<String> = []
    private var queue: [Int] = []
    private var valueEntities: [String: String] = [:]
    private var model = DraftModel()
    /// Entity names in the order they were first met, the order the draft lists them.
    private var order: [String] = []
    /// Whether an owned entity's members are being walked: lists inside them stay whole.
    private var writingOwned = false

    /// Names that the store's own columns take.
    private static let reservedColumns: Set<String> = ["pk", "inserted_run", "changed_run"]

    init(planner: DraftPlanner, groups: [Int: [ShapeNode]], identity: [Int: DraftKey], find: @escaping (Int) -> Int) {
        self.planner = planner
        self.groups = groups
        self.identity = identity
        self.find = find
    }

    /// The key of a group: the first of its nodes' keys, in survey order.
    private func key(ofGroup group: Int) -> DraftKey? {
        groups[group]?.lazy.compactMap { identity[$0.index] }.first
    }

    /// The entity of the objects at `node`, when they have an identity.
    private func entityGroup(of node: ShapeNode) -> Int? {
        let group = find(node.index)
        return key(ofGroup: group) != nil ? group : nil
    }

    private mutating func uniqueEntityName(_ base: String) -> String {
        var name = base
        var suffix = 2
        while usedEntityNames.contains(name.lowercased()) {
            name = base + String(suffix)
            suffix += 1
        }
        usedEntityNames.insert(name.lowercased())
        return name
    }

    /// The records' entity name: the user's, else the innermost key of the path that says what
    /// the records are (`statuses`, not `data`), else the sample's name.
    private func recordsName(for node: ShapeNode, first: Bool) -> String {
        if first, planner.userNamedRecords, let name = planner.recordsName { return name }
        for step in node.path.reversed() {
            if case .key(let key) = step, !DraftNames.genericKeys.contains(key.lowercased()) {
                return DraftNames.entity(DraftNames.singular(key))
            }
        }
        return planner.recordsName ?? "Record"
    }

    /// The entity name of a group, given when it is first met; the group is then queued to be written.
    private mutating func name(forGroup group: Int, recordsName: String? = nil) -> String {
        if let name = names[group] { return name }
        var base = recordsName
        if base == nil {
            // A vote of the objects met at each place: a to-one's key names the thing (`user`), an
            // array's often names the role (`user_mentions`), so a to-one's objects weigh more.
            var votes: [String: Double] = [:]
            var order: [String] = []
            for node in groups[group] ?? [] {
                guard let (key, plural) = node.namingKey else { continue }
                let candidate = DraftNames.entity(plural ? DraftNames.singular(key) : key)
                if votes[candidate] == nil { order.append(candidate) }
                votes[candidate, default: 0] += Double(node.tally.objects) * (node.isElement ? 1 : 1.5)
            }
            base = order.enumerated().max { (votes[$0.element]!, -$0.offset) < (votes[$1.element]!, -$1.offset) }?.element
        }
        let name = uniqueEntityName(base ?? "Record")
        order.append(name)
        names[group] = name
        queue.append(group)
        return name
    }

    mutating func write(recordRoots: [ShapeNode], guessedKey: DraftKey?) -> DraftModel {
        for (position, root) in recordRoots.enumerated() {
            if DraftPlanner.holdsValueRecords(root) {
                writeValueRecords(root, first: position == 0)
                continue
            }
            let group = find(root.index)
            let entity = name(forGroup: group, recordsName: recordsName(for: root.isKeyedMember ? root.parent! : root, first: position == 0))
            let key = key(ofGroup: group)!
            let holding = key.presence(in: root)
            model.records.append(
                .init(
                    path: planner.recordsPath(root), entity: entity, requiredKey: holding < root.tally.values ? key.path : nil,
                    count: recordCount(root)))
        }
        var next = 0
        while next < queue.count {
            writeEntity(queue[next], guessedKey: guessedKey)
            next += 1
        }
        model.entities.sort { order.firstIndex(of: $0.name)! < order.firstIndex(of: $1.name)! }
        return model
    }

    /// The records at `root`: its values, or for a member of an object keyed by data, every member's.
    private func recordCount(_ root: ShapeNode) -> Int {
        guard root.isKeyedMember, let parent = root.parent else { return root.tally.values }
        return parent.memberKeys.reduce(parent.droppedKeys) { $0 + (parent.member($1)?.tally.values ?? 0) }
    }

    /// Records that are values (`items[*]` of `[2130, 2131]`; `watts{*}` of `{"2024-04-27T06:30": 47}`):
    /// an entity whose objects are the values (`value <- $`), keyed by the value itself, or by the
    /// member name where the object is keyed by data.
    private mutating func writeValueRecords(_ root: ShapeNode, first: Bool) {
        let keyed = root.isKeyedMember
        let nodes = keyed ? root.parent!.memberKeys.compactMap { root.parent!.member($0) } : [root]
        let tally = merged(nodes)
        var base = planner.recordsName ?? "Value"
        if !(first && planner.userNamedRecords), let (key, plural) = root.namingKey {
            base = DraftNames.entity(plural ? DraftNames.singular(key) : key)
        }
        let name = uniqueEntityName(base)
        order.append(name)
        model.records.append(.init(path: planner.recordsPath(root), entity: name, requiredKey: nil, count: recordCount(root)))
        if keyed {
            let (type, comment) = attributeType(tally, key: root.parent?.lastKey ?? "value", optional: false)
            model.entities.append(
                .init(
                    name: name, key: "id", comments: ["values keyed by data: one object per member of \(placeText(root.parent!))"],
                    members: [.init(name: "id", path: "$key", type: "String"), .init(name: "value", path: "$", type: type, comment: comment)]))
        } else {
            model.entities.append(
                .init(
                    name: name, key: "value", comments: ["bare values: each record is its own key"],
                    members: [keyMember("value", path: "$", tally: tally)]))
        }
    }

    // MARK: One entity

    private mutating func writeEntity(_ group: Int, guessedKey: DraftKey?) {
        let nodes = groups[group] ?? []
        let key = key(ofGroup: group)!
        var entity = DraftModel.Entity(name: names[group]!, key: key.isMemberName ? "id" : key.attributeName)
        var places: [String] = []
        for node in nodes {
            let place = node.path.isEmpty ? "the records" : placeText(node)
            if !places.contains(place) { places.append(place) }
        }
        if places.count > 1 {
            let shown = places.prefix(4).joined(separator: ", ") + (places.count > 4 ? " and \(places.count - 4) more places" : "")
            entity.comments.append("one shape met at \(shown), keyed by `\(key.path)`")
        }
        let lower = key.steps.last!.lowercased()
        let wrappers = planner.wrappers
        let wrapperFields = nodes.lazy.compactMap { wrappers[$0.index] }.first
        if key.isMemberName {
            // Said below, with the key member.
        } else if key == guessedKey {
            entity.comments.append(
                "guess: no field identifies these objects; `\(key.path)` is the first that every one holds, so objects with the same \(key.path) become one"
            )
        } else if key.member == nil, DraftPlanner.idObjectNames.contains(key.steps[0].lowercased()) {
            entity.comments.append("keyed by `\(key.path)`, read from inside its object-valued id")
        } else if let fields = wrapperFields {
            entity.comments.append(
                "keyed by the `\(key.steps[0])` each wraps (`\(key.path)`) and its own \(fields.map { "`\($0)`" }.joined(separator: ", ")): "
                    + "no keyed object holds the list to scope it by, and by `\(key.path)` alone two elements of one \(key.steps[0]) would be one row")
        } else if DraftPlanner.isMetadataKey(key) {
            entity.comments.append("keyed by `\(key.path)`, the id in its `\(key.steps[0])`: the object holding it is the thing identified")
        } else if key.member == nil {
            entity.comments.append("guess: keyed by `\(key.path)`, unique across the sample; it has no id")
        } else if DraftPlanner.addressNames.contains(lower) {
            entity.comments.append("keyed by its address `\(key.path)`: the sample has no id for it")
        } else if DraftPlanner.naturalNames.contains(lower) {
            entity.comments.append("guess: keyed by `\(key.path)`: the sample has no id for it")
        } else if !DraftPlanner.idNames.contains(lower), lower.hasSuffix("id") {
            entity.comments.append("keyed by `\(key.path)`: an id by its name, unique to each object of the sample")
        } else if !DraftPlanner.idNames.contains(lower) {
            entity.comments.append("guess: keyed by `\(key.path)`, unique across the sample; it has no id")
        }
        for apart in planner.keptApart {
            let (mine, other) = find(apart.a.index) == group ? (apart.a, apart.b) : (apart.b, apart.a)
            guard find(mine.index) == group, find(other.index) != group else { continue }
            entity.comments.append("not merged with the objects at \(placeText(other)), alike in shape: \(apart.why)")
        }
        if key.isMemberName {
            entity.comments.append("keyed by the member names of \(places.first ?? "its object")")
            entity.members.append(.init(name: "id", path: "$key", type: "String"))
        }
        var used: Set<String> = DraftWriter.reservedColumns
        used.insert(Naming.snakeCase(entity.key).lowercased())
        var skipped: [String] = []
        walk(
            nodes, prefix: [], optionalAbove: false, depth: 0, group: group, key: key, entity: &entity, used: &used,
            skipped: &skipped)
        // A key read through a linked object (`movie.ids.tmdb`) is not met by the walk, which
        // links that object rather than inlining it.
        if !key.isMemberName, !entity.members.contains(where: { $0.name == entity.key }) {
            let keyNodes = nodes.compactMap { key.node(below: $0) }
            entity.members.insert(keyMember(entity.key, path: key.path, tally: merged(keyNodes)), at: 0)
        }
        if let wrapperFields {
            let names = wrapperFields.compactMap { field in entity.members.first { ($0.path ?? $0.name) == DraftNames.path([field]) }?.name }
            entity.key = ([entity.key] + names).joined(separator: ", ")
        }
        if !skipped.isEmpty {
            entity.comments.append("left out: \(skipped.joined(separator: ", ")), held only by objects without \(key.path)")
        }
        model.entities.append(entity)
    }

    private func placeText(_ node: ShapeNode) -> String {
        var text = ""
        if node.isKeyedMember, let parent = node.parent { return placeText(parent) + "{*}" }
        for step in node.path {
            switch step {
            case .key(let key): text += DraftNames.component(key, first: text.isEmpty)
            case .element: text += "[]"
            }
        }
        return text
    }

    private func merged(_ nodes: [ShapeNode]) -> ValueTally {
        nodes.dropFirst().reduce(nodes.first?.tally ?? ValueTally()) { $0.merged(with: $1.tally) }
    }

    /// A member name not yet taken in the entity (ignoring case, as the map's columns do).
    private func memberName(_ keys: [String], used: inout Set<String>, toOne: Bool = false) -> String {
        // An inlined field keeps its parent's name (`coordinatesType`), unless the parent only
        // groups fields (`entities.hashtags`, `properties.mag`).
        let short = DraftNames.member(keys.last!)
        let long = DraftNames.member(keys.joined(separator: "_"))
        let grouped = keys.dropLast().allSatisfy { DraftNames.groupingKeys.contains($0.lowercased()) }
        let candidates = grouped ? [short, long] : [long, short]
        var chosen: String?
        for candidate in candidates where !used.contains(Naming.snakeCase(candidate).lowercased()) {
            if toOne && used.contains(Naming.foreignKey(relationship: candidate).lowercased()) { continue }
            chosen = candidate
            break
        }
        var name = chosen ?? candidates[1]
        if chosen == nil {
            var suffix = 2
            while used.contains(Naming.snakeCase(name + String(suffix)).lowercased()) { suffix += 1 }
            name += String(suffix)
        }
        used.insert(Naming.snakeCase(name).lowercased())
        if toOne { used.insert(Naming.foreignKey(relationship: name).lowercased()) }
        return name
    }

    private mutating func walk(
        _ nodes: [ShapeNode], prefix: [String], optionalAbove: Bool, depth: Int, group: Int, key: DraftKey?,
        entity: inout DraftModel.Entity, used: inout Set<String>, skipped: inout [String]
    ) {
        let total = nodes.reduce(0) { $0 + $1.tally.objects }
        var keys: [String] = []
        var seen: Set<String> = []
        for node in nodes { for key in node.memberKeys where seen.insert(key).inserted { keys.append(key) } }
        for memberKey in keys {
            let children = nodes.compactMap { $0.member(memberKey) }
            // Objects without their key are passed over (`where KEY is present`): a field only
            // they hold would be a field no imported object has.
            if prefix.isEmpty, let keyMember = key?.member, ShapeSurvey.identityNames.contains(keyMember.lowercased()),
                children.allSatisfy({ $0.presentBesideIdentity == 0 })
            {
                skipped.append(memberKey)
                continue
            }
            let tally = merged(children)
            let keys = prefix + [memberKey]
            let path = DraftNames.path(keys)
            let optional = optionalAbove || tally.present < total
            if let key, keys == key.steps {
                entity.members.append(keyMember(entity.key, path: path, tally: tally))
                continue
            }
            if tally.objects > 0 {
                let objects = children.filter { $0.tally.objects > 0 }
                if writingOwned, entityGroup(of: objects[0]) != nil {
                    entity.members.append(.init(name: memberName(keys, used: &used), path: path, type: "JSON?", comment: DraftWriter.keyedInOwned))
                    continue
                }
                if let target = entityGroup(of: objects[0]), tally.arrays == 0, tally.bools == 0, tally.doubles == 0 {
                    let targetKey = self.key(ofGroup: target)!
                    let keyed = objects.reduce(0) { $0 + targetKey.presence(in: $1) }
                    let name = memberName(keys, used: &used, toOne: true)
                    let targetName = self.name(forGroup: target)
                    var source = path
                    var comment: String?
                    if keyed < tally.objects {
                        source += " where \(targetKey.path) is present"
                        comment = "\(tally.objects - keyed) of \(counted(tally.objects, "object")) here have no \(targetKey.path): not linked"
                    }
                    if tally.scalars > 0 { comment = "an object, or the key of one (a link)" }
                    let needsOptional = optional || keyed < tally.objects || tally.nulls > 0
                    entity.members.append(.init(name: name, path: source, type: targetName + (needsOptional ? "?" : ""), comment: comment))
                    continue
                }
                if let keyedObject = objects.first(where: DraftPlanner.isKeyedByData), tally.kindCount == 1,
                    let member = keyedObject.memberKeys.first.flatMap(keyedObject.member), let target = entityGroup(of: member)
                {
                    let name = memberName(keys, used: &used)
                    let targetName = self.name(forGroup: target)
                    entity.members.append(
                        .init(
                            name: name, path: path + "{*}", type: "[\(targetName)]\(optional || tally.nulls > 0 ? "?" : "")",
                            comment: "an object keyed by data: one \(targetName) per member"))
                    continue
                }
                if objects.contains(where: DraftPlanner.isKeyedByData) {
                    entity.members.append(
                        .init(
                            name: memberName(keys, used: &used), path: path, type: "JSON\(optional || tally.nulls > 0 ? "?" : "")",
                            comment: "an object whose keys look like data (ids, names), kept whole: `<- \(path){*} : [Entity]` reads each member"))
                    continue
                }
                if tally.kindCount == 1, depth < DraftPlanner.maxInlineDepth, objects.contains(where: { !$0.memberKeys.isEmpty }) {
                    walk(
                        objects, prefix: keys, optionalAbove: optional || tally.nulls > 0, depth: depth + 1, group: group, key: key,
                        entity: &entity, used: &used, skipped: &skipped)
                    continue
                }
                let why = tally.kindCount > 1 ? "objects here, and other values elsewhere" : "nested objects without an id, kept whole"
                entity.members.append(.init(name: memberName(keys, used: &used), path: path, type: "JSON?", comment: why))
                continue
            }
            if tally.arrays > 0 {
                entity.members.append(arrayMember(children, keys: keys, tally: tally, optional: optional, used: &used))
                continue
            }
            if !writingOwned, let target = referencedEntity(children, key: memberKey, tally: tally) {
                let name = memberName(keys, used: &used, toOne: true)
                let targetName = self.name(forGroup: target.group)
                entity.members.append(
                    .init(
                        name: name, path: path, type: targetName + (optional || tally.nulls > 0 ? "?" : ""),
                        comment: "\(counted(target.matched, "value")) here \(target.matched == 1 ? "is a key" : "are keys") of \(targetName) "
                            + "in the sample: a link"))
                continue
            }
            let (type, comment) = attributeType(tally, key: memberKey, optional: optional)
            entity.members.append(.init(name: memberName(keys, used: &used), path: path, type: type, comment: comment))
        }
    }

    /// The entity an id-like field (`in_reply_to_id`, `author_id`) refers to: the one entity of
    /// the sample whose key values include the field's, at least two of them (or its only one),
    /// read as the same kind (strings or integers). Without such evidence, or with two entities
    /// alike, the field stays a value: a link to the wrong entity would be worse than none.
    private func referencedEntity(_ children: [ShapeNode], key: String, tally: ValueTally) -> (group: Int, matched: Int)? {
        guard DraftPlanner.idLike(key), tally.present > 0, tally.objects == 0, tally.arrays == 0, tally.bools == 0, tally.doubles == 0,
            (tally.strings == 0) != (tally.integers == 0)
        else { return nil }
        var values: Set<Int> = []
        for child in children {
            guard let all = child.distinct.all else { return nil }
            values.formUnion(all)
        }
        var found: [(group: Int, matched: Int)] = []
        for (group, nodes) in groups.sorted(by: { $0.key < $1.key }) {
            guard let targetKey = self.key(ofGroup: group), targetKey.member != nil else { continue }
            var keys: Set<Int> = []
            for node in nodes { if let all = targetKey.node(below: node)?.distinct.all { keys.formUnion(all) } }
            let matched = values.intersection(keys).count
            if matched >= min(2, values.count) { found.append((group, matched)) }
        }
        return found.count == 1 ? found[0] : nil
    }

    private func keyMember(_ name: String, path: String, tally: ValueTally) -> DraftModel.Member {
        if tally.strings > 0 && tally.integers > 0 {
            return .init(name: name, path: path, type: "String | string", comment: "numbers in some places, text in others")
        }
        if tally.strings > 0 { return .init(name: name, path: path, type: "String") }
        return .init(
            name: name, path: path, type: "Int", comment: tally.wideIntegers > 0 ? "beyond 2^53: Int keeps every digit" : nil)
    }

    private mutating func arrayMember(
        _ children: [ShapeNode], keys: [String], tally: ValueTally, optional: Bool, used: inout Set<String>
    ) -> DraftModel.Member {
        let path = DraftNames.path(keys)
        let elements = children.compactMap(\.element)
        let elementTally = merged(elements)
        let q = optional || tally.nulls > 0 ? "?" : ""
        if tally.kindCount > 1 {
            return .init(name: memberName(keys, used: &used), path: path, type: "JSON?", comment: "arrays here, other values elsewhere")
        }
        if elements.isEmpty {
            return .init(name: memberName(keys, used: &used), path: path, type: "JSON?", comment: "always an empty array in the sample")
        }
        let objects = elements.filter { $0.tally.objects > 0 }
        if writingOwned, elementTally.objects > 0, objects.contains(where: { entityGroup(of: $0) != nil || wraps($0) }) {
            return .init(name: memberName(keys, used: &used), path: path, type: "JSON\(q)", comment: DraftWriter.keyedInOwned)
        }
        if elementTally.objects > 0, elementTally.kindCount == 1, elementTally.nulls == 0, let target = entityGroup(of: objects[0]) {
            let targetKey = self.key(ofGroup: target)!
            let keyed = objects.reduce(0) { $0 + targetKey.presence(in: $1) }
            let name = memberName(keys, used: &used)
            let targetName = self.name(forGroup: target)
            if keyed < elementTally.objects {
                return .init(
                    name: name, path: path + " where \(targetKey.path) is present", type: "[\(targetName)]\(q)",
                    comment:
                        "\(elementTally.objects - keyed) of \(counted(elementTally.objects, "element")) have no \(targetKey.path): not linked")
            }
            return .init(name: name, path: path, type: "[\(targetName)]\(q)")
        }
        if elementTally.objects > 0, elementTally.kindCount == 1, elementTally.nulls == 0,
            let wrapper = wrappedMember(objects, count: elementTally.objects)
        {
            let name = memberName(keys, used: &used)
            let targetName = self.name(forGroup: wrapper.target)
            return .init(
                name: name, path: path, type: "[\(targetName)]\(q) each \(DraftNames.path([wrapper.key]))",
                comment: "each element wraps a \(targetName); its other fields describe the link", links: wrapper.links)
        }
        if elementTally.strings > 0, elementTally.kindCount == 1, elementTally.nulls == 0, !writingOwned {
            let name = memberName(keys, used: &used)
            let target = valueEntity(for: keys.last!)
            return .init(name: name, path: path, type: "[\(target)]\(q)", comment: "strings: one \(target) per value")
        }
        if elementTally.objects > 0, elementTally.kindCount == 1, elementTally.nulls == 0, !writingOwned,
            objects.contains(where: { !$0.memberKeys.isEmpty }), !objects.contains(where: DraftPlanner.isKeyedByData),
            let target = ownedEntity(objects, key: keys.last!)
        {
            return .init(
                name: memberName(keys, used: &used), path: path, type: "[\(target)]\(q)",
                comment: "objects without an id: each owned by the object that holds it, at its position")
        }
        let why =
            elementTally.objects > 0 && elementTally.kindCount == 1
            ? "objects without an id, kept whole" : elementTally.arrays > 0 ? "arrays of arrays, kept whole" : "a list of values, kept whole"
        return .init(name: memberName(keys, used: &used), path: path, type: "JSON\(q)", comment: why)
    }

    /// Why a keyed object inside an owned entity's objects is kept whole.
    static let keyedInOwned = "keyed objects inside an owned object, kept whole: `init` links no owned object (a map may: `name : Entity`)"

    /// Whether the objects at `node` hold a keyed object (a wrapper of it).
    private func wraps(_ node: ShapeNode) -> Bool {
        node.memberKeys.contains { key in node.member(key).map { $0.tally.objects > 0 && entityGroup(of: $0) != nil } ?? false }
    }

    /// An owned entity for the elements at `nodes` (`entity Container owned`): objects without an
    /// identity, in a list of an entity's objects, belong to the object that holds them and are
    /// told apart by their position; keyed by a field of theirs, elements of different owners
    /// alike in that field would be one row (a `tmp` volume of two pods). Elements inside an
    /// owned entity's own elements stay whole, and so do keyed objects inside them (an author's
    /// `affiliation` list keyed by name): `init` drafts no relationship of an owned entity (a map
    /// may declare one), and keeping the keyed part whole keeps the rest of it in columns. Nil (the list kept whole) when a field
    /// would take a column the owned table needs (`position`, `owner_…`).
    private mutating func ownedEntity(_ nodes: [ShapeNode], key: String) -> String? {
        var entity = DraftModel.Entity(name: "", key: "", isOwned: true)
        entity.comments.append("owned: no id; each belongs to the object that holds it, at its position in the list")
        var used: Set<String> = DraftWriter.reservedColumns.union([Naming.position])
        var skipped: [String] = []
        writingOwned = true
        let saved = (names, usedEntityNames, queue, valueEntities, model, order)
        walk(nodes, prefix: [], optionalAbove: false, depth: 0, group: -1, key: nil, entity: &entity, used: &used, skipped: &skipped)
        writingOwned = false
        // A drafted owned entity holds attributes only (keyed objects inside it are kept whole by
        // `walk` and `arrayMember`). A field read through a key a bare path
        // cannot hold (`fieldsV1["f:metadata"]["k:{\"uid\": …}"]`): such keys are more often
        // data than field names, and kept whole no data value becomes a column.
        let attributeTypes = Set(ValueType.allCases.map(\.rawValue))
        let holdsOnlyAttributes = entity.members.allSatisfy { member in
            let type = member.type.prefix { $0.isLetter || $0.isNumber }
            return attributeTypes.contains(String(type)) && !Naming.snakeCase(member.name).lowercased().hasPrefix("owner_")
                && member.path?.contains("[\"") != true
        }
        // Elements that are only keyed objects (`{"domain": {…}, "entity": {…}}`) gain nothing
        // from a table of JSON columns: the list is kept whole.
        let holdsOwnFields = entity.members.contains { $0.comment != DraftWriter.keyedInOwned }
        guard holdsOnlyAttributes, holdsOwnFields else {
            (names, usedEntityNames, queue, valueEntities, model, order) = saved
            return nil
        }
        entity.name = uniqueEntityName(DraftNames.entity(DraftNames.singular(key)))
        order.append(entity.name)
        model.entities.append(entity)
        return entity.name
    }

    /// Elements that wrap one keyed object (`{"added_at": …, "track": {"id": …}}`,
    /// `{"slot": 1, "ability": {"name": …}}`): the member every element holds an object of an
    /// entity at, keyed in each, and the element's other scalars as link attributes. Nil when no
    /// single such member exists; then the elements are kept whole.
    private mutating func wrappedMember(_ elements: [ShapeNode], count: Int) -> (key: String, target: Int, links: [DraftModel.Member])? {
        var keys: [String] = []
        var seen: Set<String> = []
        for node in elements { for key in node.memberKeys where seen.insert(key).inserted { keys.append(key) } }
        // The one member that holds, in every element, an object of one entity with its key.
        let candidates: [(key: String, target: Int)] = keys.compactMap { key in
            let children = elements.compactMap { $0.member(key) }
            let tally = merged(children)
            guard tally.objects == count, tally.values == count, let target = entityGroup(of: children[0]),
                children.allSatisfy({ entityGroup(of: $0) == target }),
                children.reduce(0, { $0 + self.key(ofGroup: target)!.presence(in: $1) }) == count
            else { return nil }
            return (key, target)
        }
        guard candidates.count == 1, let wrapped = candidates.first else { return nil }
        var used: Set<String> = [Naming.position]
        var links: [DraftModel.Member] = []
        for key in keys where key != wrapped.key {
            let children = elements.compactMap { $0.member(key) }
            let tally = merged(children)
            guard tally.objects == 0, tally.arrays == 0 else {
                links.append(.init(name: memberName([key], used: &used), path: DraftNames.path([key]), type: "JSON?", comment: "not a scalar, kept whole"))
                continue
            }
            let (type, comment) = attributeType(tally, key: key, optional: tally.present < count)
            let name = memberName([key], used: &used)
            guard !name.lowercased().hasSuffix("_pk") else { continue }
            links.append(.init(name: name, path: DraftNames.path([key]), type: type, comment: comment))
        }
        return (wrapped.key, wrapped.target, links)
    }

    /// The entity of an array of strings: one object per value, keyed by the value (`$`).
    private mutating func valueEntity(for key: String) -> String {
        let base = DraftNames.entity(DraftNames.singular(key))
        if let name = valueEntities[base] { return name }
        let name = uniqueEntityName(base)
        order.append(name)
        valueEntities[base] = name
        model.entities.append(.init(name: name, key: "value", members: [.init(name: "value", path: "$", type: "String")]))
        return name
    }

    /// Epoch times by name: a number near today's in seconds, milliseconds or microseconds, under
    /// a name that says time.
    private static let timeWords = ["time", "date", "created", "updated", "modified", "timestamp", "_at", "_utc", "_ms", "since", "until", "expires", "edited"]

    private func attributeType(_ tally: ValueTally, key: String, optional: Bool) -> (String, String?) {
        let q = optional || tally.nulls > 0 ? "?" : ""
        if tally.present == 0 { return ("JSON?", "always null in the sample") }
        if tally.kindCount > 1 { return ("JSON\(q)", "values of several kinds (\(kinds(tally)))") }
        if tally.bools > 0 { return ("Bool\(q)", nil) }
        if tally.strings > 0 {
            if let format = tally.dateFormats.first {
                return ("Date\(q) | \(format.converter)", "guess: every value is a date in \(format.name) format")
            }
            return ("String\(q)", nil)
        }
        if tally.hugeIntegers > 0 { return ("String\(q) | string", "integers beyond 64 bits, kept as their digits") }
        let epoch = epochUnit(tally, key: key)
        if tally.doubles > 0 {
            return ("Double\(q)", epoch.map { "epoch \($0.unit)? `Date\(q) | \($0.converter)` stores a date" })
        }
        if let epoch { return ("Int\(q)", "epoch \(epoch.unit)? `Date\(q) | \(epoch.converter)` stores a date") }
        return ("Int\(q)", tally.wideIntegers > 0 ? "beyond 2^53: Int keeps every digit" : nil)
    }

    private func epochUnit(_ tally: ValueTally, key: String) -> (unit: String, converter: String)? {
        let lower = key.lowercased()
        guard DraftWriter.timeWords.contains(where: { lower.contains($0) }) else { return nil }
        // From 2000-01-01 to 2100-01-01.
        let (from, to) = (946_684_800.0, 4_102_444_800.0)
        for (unit, converter, scale) in [("seconds", "epochSeconds", 1.0), ("milliseconds", "epochMillis", 1e3), ("microseconds", "epochMicros", 1e6)] {
            if tally.smallest >= from * scale && tally.largest < to * scale { return (unit, converter) }
        }
        return nil
    }

    private func kinds(_ tally: ValueTally) -> String {
        var kinds: [String] = []
        if tally.bools > 0 { kinds.append("booleans") }
        if tally.numbers > 0 { kinds.append("numbers") }
        if tally.strings > 0 { kinds.append("strings") }
        if tally.objects > 0 { kinds.append("objects") }
        if tally.arrays > 0 { kinds.append("arrays") }
        return kinds.joined(separator: ", ")
    }
}
