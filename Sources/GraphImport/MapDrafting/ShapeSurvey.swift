import GraphImportJSON

/// Walks every record of a sample into one tree of `ShapeNode`s: per place, the kinds of its
/// values and which scalars repeat, never the values, so that memory grows with the number of
/// distinct places (capped) and not with the sample.
final class ShapeSurvey {
    /// An object with more keys than this (a map keyed by ids) has the rest counted, not walked.
    static let maxKeysPerObject = 500
    /// Values nested deeper than this are counted, not walked: a draft goes no deeper.
    static let maxDepth = 24
    /// A key longer than this (in UTF-8 bytes) is counted, not walked: a member named after it
    /// would take a map line as long, and a few such keys a draft past `ImportLimits.maxMapBytes`.
    static let maxKeyBytes = 1_024
    /// How many left-out keys of one object the draft names.
    static let namedDroppedKeys = 5

    static let identityNames = Set(DraftPlanner.idNames + DraftPlanner.addressNames)

    /// The records: each value the survey was given.
    let root: ShapeNode
    private(set) var nodes: [ShapeNode]
    private(set) var records = 0
    /// Objects and arrays met deeper than `maxDepth`, whose contents were not walked.
    private(set) var tooDeep = 0

    init() {
        root = ShapeNode(index: 0, path: [])
        nodes = [root]
    }

    func add(_ record: JSONValue) {
        records += 1
        visit(record, at: root, depth: 0)
    }

    private func visit(_ value: JSONValue, at node: ShapeNode, depth: Int) {
        node.tally.count(value)
        switch value {
        case .object(let object):
            guard depth < ShapeSurvey.maxDepth else {
                if !object.members.isEmpty { tooDeep += 1 }
                return
            }
            let identified = object.members.contains { ShapeSurvey.identityNames.contains($0.key.lowercased()) }
            for member in object.members {
                guard let child = child(of: node, key: member.key) else { continue }
                if identified { child.presentBesideIdentity += 1 }
                visit(member.value, at: child, depth: depth + 1)
            }
            if identified { noteName(of: object, at: node) }
            // An object without an id may be keyed by its address or a name: whether each of
            // those always comes with the same content decides it.
            if !object.members.contains(where: { DraftPlanner.idNames.contains($0.key.lowercased()) }) { noteContent(of: object, at: node) }
        case .array(let elements):
            guard !elements.isEmpty else { return }
            guard depth < ShapeSurvey.maxDepth else {
                tooDeep += 1
                return
            }
            let child = node.element ?? makeNode(node.path + [.element])
            if node.element == nil { node.setElement(child) }
            for element in elements { visit(element, at: child, depth: depth + 1) }
        case .null: break
        default: node.distinct.insert(value)
        }
    }

    /// Names that say what an object is, for telling whether one id names one thing everywhere.
    static let nameFields: Set<String> = ["name", "login", "title", "slug", "username", "label", "display_name", "displayname"]

    private func noteName(of object: JSONObject, at node: ShapeNode) {
        var id: Int?
        var name: Int?
        for member in object.members {
            let key = member.key.lowercased()
            if id == nil, DraftPlanner.idNames.contains(key), case .string = member.value {
                id = DistinctValues.digest(of: member.value)
            } else if id == nil, DraftPlanner.idNames.contains(key), case .number = member.value {
                id = DistinctValues.digest(of: member.value)
            } else if name == nil, ShapeSurvey.nameFields.contains(key), case .string = member.value {
                name = DistinctValues.digest(of: member.value)
            }
        }
        if let id, let name { node.noteName(name, forId: id) }
    }

    /// For each field of `object` that could name it (`DraftPlanner.naturalNames`, and the
    /// addresses `DraftPlanner.addressNames`), the digest of the object's other content under
    /// that field's value (`ShapeNode.noteContent`): its scalars and what its nested objects and
    /// arrays hold, so that two containers named `helm` with different arguments, or two volumes
    /// `tmp` of different sources, are told apart.
    private func noteContent(of object: JSONObject, at node: ShapeNode) {
        var names: [(key: String, digest: Int)] = []
        for member in object.members {
            let lower = member.key.lowercased()
            guard DraftPlanner.naturalNames.contains(lower) || DraftPlanner.addressNames.contains(lower), case .string = member.value,
                let digest = DistinctValues.digest(of: member.value)
            else { continue }
            names.append((member.key, digest))
        }
        guard !names.isEmpty else { return }
        var hasher = Hasher()
        for member in object.members where !names.contains(where: { $0.key == member.key }) {
            guard let digest = ShapeSurvey.contentDigest(of: member.value) else { continue }
            hasher.combine(member.key)
            hasher.combine(digest)
        }
        let content = hasher.finalize()
        for name in names { node.member(name.key)?.noteContent(content, forValue: name.digest) }
    }

    /// The digest of a value and everything inside it; nil for null, and for an array of numbers
    /// only: beside a name, offsets or a position (`"indices": [4, 9]`) say where the name occurs
    /// in its owner, not what it names, so a hashtag met at different offsets is still one.
    static func contentDigest(of value: JSONValue) -> Int? {
        switch value {
        case .object(let object):
            var hasher = Hasher()
            hasher.combine(3)
            for member in object.members {
                hasher.combine(member.key)
                hasher.combine(contentDigest(of: member.value))
            }
            return hasher.finalize()
        case .array(let elements):
            if !elements.isEmpty, elements.allSatisfy({ if case .number = $0 { true } else { false } }) { return nil }
            var hasher = Hasher()
            hasher.combine(4)
            for element in elements { hasher.combine(contentDigest(of: element)) }
            return hasher.finalize()
        default:
            return DistinctValues.digest(of: value)
        }
    }

    private func child(of node: ShapeNode, key: String) -> ShapeNode? {
        if let child = node.member(key) { return child }
        guard key.utf8.count <= ShapeSurvey.maxKeyBytes else {
            node.longKeys += 1
            node.longestKeyBytes = max(node.longestKeyBytes, key.utf8.count)
            return nil
        }
        guard node.memberKeys.count < ShapeSurvey.maxKeysPerObject else {
            node.droppedKeys += 1
            if node.droppedKeyExamples.count < ShapeSurvey.namedDroppedKeys, !node.droppedKeyExamples.contains(key) {
                node.droppedKeyExamples.append(key)
            }
            return nil
        }
        let child = makeNode(node.path + [.key(key)])
        node.addMember(key, child)
        return child
    }

    private func makeNode(_ path: [ShapeNode.Step]) -> ShapeNode {
        let node = ShapeNode(index: nodes.count, path: path)
        nodes.append(node)
        return node
    }
}
