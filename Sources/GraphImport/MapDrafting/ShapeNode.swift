import GraphImportJSON

/// One place in the sample's records (`user`, `entities.hashtags[]`), with what was met there:
/// the tally of its values, an object's members in the order first met, an array's elements.
///
/// Every record adds to one tree, so the draft reads what every record shows, not the first
/// one's keys only.
final class ShapeNode {
    /// A step from a node to its child.
    enum Step: Hashable {
        case key(String)
        case element
    }

    /// The node's number in the survey, in the order nodes were first met (outer before inner).
    let index: Int
    /// The steps from the records to here.
    let path: [Step]
    var tally = ValueTally()
    /// Which scalar values repeat, for choosing a key from the data.
    var distinct = DistinctValues()
    private(set) var memberKeys: [String] = []
    private(set) var members: [String: ShapeNode] = [:]
    private(set) var element: ShapeNode?
    /// The node this one is a member or the elements of (nil for the records).
    private(set) weak var parent: ShapeNode?
    /// Values met here in objects that hold an id-like key (`DraftPlanner.idNames`, `addressNames`):
    /// a field met only in objects without one is left out where those objects are passed over.
    var presentBesideIdentity = 0
    /// Keys met past `ShapeSurvey.maxKeysPerObject`: counted, not walked.
    var droppedKeys = 0
    /// The first few of them, for the draft to name what it leaves out.
    var droppedKeyExamples: [String] = []
    /// Keys longer than `ShapeSurvey.maxKeyBytes`, of which no map name is made: counted, not walked.
    var longKeys = 0
    /// The longest of them, in bytes.
    var longestKeyBytes = 0
    /// For objects with an id and a name (`{"id": 3, "name": "Task"}`), the digest of each id's
    /// name: two places where one id names different things hold different kinds of objects.
    private(set) var namesById: [Int: Int] = [:]
    private(set) var namesByIdComplete = true

    /// For a field that could name its object (`title`, `name`): the digest of the other scalars
    /// of the object each value was met in. One value met with different content (a `VAT` tax
    /// line of 1.20 in one order and of 3.40 in another) names no single object, so the field
    /// keys nothing: such objects belong to their owner.
    private var contentByValue: [Int: Int] = [:]
    private(set) var namesOneObject = true

    func noteContent(_ content: Int, forValue value: Int) {
        guard namesOneObject else { return }
        if let seen = contentByValue[value] {
            if seen != content { namesOneObject = false }
        } else if contentByValue.count < DistinctValues.capacity {
            contentByValue[value] = content
        }
    }

    func noteName(_ name: Int, forId id: Int) {
        if namesById[id] != nil || namesById.count < DistinctValues.capacity {
            namesById[id] = name
        } else {
            namesByIdComplete = false
        }
    }

    init(index: Int, path: [Step]) {
        self.index = index
        self.path = path
    }

    /// The last key on the way here (`hashtags` for `entities.hashtags[]`), if any.
    var lastKey: String? {
        for step in path.reversed() { if case .key(let key) = step { return key } }
        return nil
    }

    /// The node's place below the records, as the draft's comments name it (`user.entities[*]`,
    /// `the records` for the records themselves); keys are cut to 40 characters.
    var placeText: String {
        guard !path.isEmpty else { return "the records" }
        var text = ""
        for step in path {
            switch step {
            case .element: text += "[*]"
            case .key(let key):
                let shown = key.count > 40 ? String(key.prefix(40)) + "…" : key
                text += (text.isEmpty ? "" : ".") + DraftNames.component(shown, first: true)
            }
        }
        return text
    }

    /// Whether the last step into this node is into an array.
    var isElement: Bool { path.last == .element }

    func member(_ key: String) -> ShapeNode? { members[key] }

    func addMember(_ key: String, _ node: ShapeNode) {
        memberKeys.append(key)
        members[key] = node
        node.parent = self
    }

    func setElement(_ node: ShapeNode) {
        element = node
        node.parent = self
    }

    /// Whether this node is one member of an object keyed by data (`users.alice` of `users{*}`).
    var isKeyedMember: Bool { !isElement && parent.map(DraftPlanner.isKeyedByData) == true }

    /// The key that names what this node holds: its own, or for a member of an object keyed by
    /// data, that object's (`users`, not `alice`). Plural when it names a collection.
    var namingKey: (key: String, plural: Bool)? {
        if isKeyedMember, let key = parent?.lastKey { return (key, true) }
        return lastKey.map { ($0, isElement) }
    }
}

/// A bounded set of digests of the scalar values met at one place: enough to say whether a
/// field's values repeat, without keeping the values.
///
/// A digest is a 64-bit hash of the value's kind and text; two different values may share one,
/// which can only make a unique field look repeated (and the draft choose another key), never the
/// reverse. Past `capacity` digests the set stops growing and `isComplete` turns false: then
/// "unique" means unique over the values it holds.
struct DistinctValues {
    static let capacity = 10_000
    private var digests: Set<Int> = []
    private(set) var repeats = false
    private(set) var isComplete = true

    var count: Int { digests.count }

    /// The digests met, when every value met was kept.
    var all: Set<Int>? { isComplete ? digests : nil }

    /// A 64-bit digest of a scalar's kind and text; nil for null, objects and arrays.
    static func digest(of value: JSONValue) -> Int? {
        var hasher = Hasher()
        switch value {
        case .string(let text):
            hasher.combine(0)
            hasher.combine(text)
        case .number(let number):
            hasher.combine(1)
            hasher.combine(number.exactInt64.map(String.init) ?? number.literal)
        case .bool(let flag):
            hasher.combine(2)
            hasher.combine(flag)
        default: return nil
        }
        return hasher.finalize()
    }

    mutating func insert(_ value: JSONValue) {
        guard let digest = DistinctValues.digest(of: value) else { return }
        if digests.contains(digest) {
            repeats = true
        } else if digests.count < DistinctValues.capacity {
            digests.insert(digest)
        } else {
            isComplete = false
        }
    }
}
