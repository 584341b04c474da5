#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which parts of a record the reader must build; everything else is checked against the grammar
/// and stepped over without building anything.
///
/// A map reads a fraction of each record (no line of a tweets map reads `id_str`, `geo` or
/// `user.profile_image_url`), and building values nobody reads was most of the parsing cost.
/// A projection is a graph of nodes, not a tree: a tweet's `retweeted_status` is read as a tweet
/// again, so its node is the tweet's node. Arrays are transparent: the node of an array applies
/// to each of its elements, and a node says nothing about scalars, which are always kept.
///
/// Duplicate keys are still found in every object the projection walks into, skipped members
/// included; inside a skipped value they are not looked for (nothing reads it).
///
/// Stored flat (arrays of plain values indexed by node and member number), so that the reader
/// follows it without reference counting.
public struct JSONProjection: Sendable {
    /// One node as a builder gives it: keep the whole value, or these members of an object, each
    /// with the index of its own node.
    public struct Node: Sendable {
        public var keepsAll: Bool
        public var members: [String: Int]

        public init(keepsAll: Bool = false, members: [String: Int] = [:]) {
            self.keepsAll = keepsAll
            self.members = members
        }
    }

    /// The node a record starts at.
    public let root: Int
    private let keepsAllByNode: [Bool]
    /// Each node's members: a range of the member arrays below.
    private let membersByNode: [Range<Int>]
    /// Per member: its key's UTF-8 as a range of `keyBytes`, the key, and the member's node.
    private let keyBytes: [UInt8]
    private let keyRanges: [Range<Int>]
    let keys: [String]
    let children: [Int]

    /// Keep everything.
    public static let all = JSONProjection(nodes: [Node(keepsAll: true)], root: 0)

    /// A projection of `nodes`, starting at `nodes[root]`; every member's node index must be valid.
    public init(nodes: [Node], root: Int) {
        precondition(nodes.indices.contains(root), "the root must be one of the nodes")
        self.root = root
        var keepsAll: [Bool] = []
        var ranges: [Range<Int>] = []
        var bytes: [UInt8] = []
        var keyRanges: [Range<Int>] = []
        var keys: [String] = []
        var children: [Int] = []
        for node in nodes {
            keepsAll.append(node.keepsAll)
            let first = keys.count
            // Sorted so that the same map always gives the same projection.
            for (key, child) in node.members.sorted(by: { $0.key < $1.key }) {
                precondition(nodes.indices.contains(child), "a member's node must be one of the nodes")
                let start = bytes.count
                bytes.append(contentsOf: key.utf8)
                keyRanges.append(start..<bytes.count)
                keys.append(key)
                children.append(child)
            }
            ranges.append(first..<keys.count)
        }
        keepsAllByNode = keepsAll
        membersByNode = ranges
        keyBytes = bytes
        self.keyRanges = keyRanges
        self.keys = keys
        self.children = children
    }

    /// How many members of an object at `node` may be kept (nil: any number, the node keeps all).
    func memberLimit(_ node: Int) -> Int? { keepsAllByNode[node] ? nil : membersByNode[node].count }

    /// Whether the value at `node` is kept whole.
    public func keepsAll(_ node: Int) -> Bool { keepsAllByNode[node] }

    /// The members kept of an object at `node`, each with its node.
    public func members(of node: Int) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: membersByNode[node].map { (keys[$0], children[$0]) })
    }

    /// The member of an object at `node` whose key is `bytes` (UTF-8), or nil to skip it. A linear
    /// search comparing lengths first: a map reads a few keys of each object.
    @inline(__always)
    func member(of node: Int, matching bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        keyBytes.withUnsafeBufferPointer { flat in
            for member in membersByNode[node] {
                let range = keyRanges[member]
                guard range.count == bytes.count else { continue }
                if range.isEmpty || memcmp(flat.baseAddress! + range.lowerBound, bytes.baseAddress!, range.count) == 0 { return member }
            }
            return nil
        }
    }
}
