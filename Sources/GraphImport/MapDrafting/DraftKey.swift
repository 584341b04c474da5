/// What identifies the objects at one place of a draft: a member (`id`), a member inside an
/// object-valued id (`ids.trakt`, `id.videoId`), a member of an inlined object (`metric.instance`),
/// or the name each object was met under in an object keyed by data (`$key`).
struct DraftKey: Hashable {
    /// The keys from the object to the identifying value; `["$key"]` for the member name.
    let steps: [String]

    init(_ steps: [String]) {
        precondition(!steps.isEmpty)
        self.steps = steps
    }

    static let memberName = DraftKey(["$key"])

    var isMemberName: Bool { self == DraftKey.memberName }

    /// The one member that holds the key, when it is not read from inside another.
    var member: String? { steps.count == 1 ? steps[0] : nil }

    /// The key as a map path (`ids.trakt`).
    var path: String { DraftNames.path(steps) }

    /// The key attribute's name (`id`, `idsTrakt`).
    var attributeName: String { DraftNames.member(steps.joined(separator: "_")) }

    /// The node that holds the key's values below `node`, if the sample has one.
    func node(below node: ShapeNode) -> ShapeNode? {
        var current: ShapeNode? = node
        for step in steps { current = current?.member(step) }
        return current
    }

    /// How many objects at `node` hold a value for the key.
    func presence(in node: ShapeNode) -> Int {
        isMemberName ? node.tally.objects : (self.node(below: node)?.tally.present ?? 0)
    }
}
