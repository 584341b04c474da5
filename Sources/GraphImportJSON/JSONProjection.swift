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
    /// The tables below, in one object: the reader consults them for every key it reads, and a
    /// struct of eight arrays cost eight retains and releases each time it was copied.
    private let storage: Storage

    private final class Storage: Sendable {
        let keepsAllByNode: [Bool]
        /// Each node's members: a range of the member arrays below.
        let membersByNode: [Range<Int>]
        /// Per member: its key's UTF-8 as a range of `keyBytes`, the key, and the member's node.
        let keyBytes: [UInt8]
        let keyRanges: [Range<Int>]
        let keys: [String]
        let children: [Int]
        /// Per node, an open-addressing table of its members by `slot(of:)`: where it starts in
        /// `slots` and its size less one (a power of two). A member's number, or -1 for an empty
        /// slot. A tweet has two dozen keys and a map reads half of them: searching the kept keys
        /// one by one for every key read was a fifteenth of the reading thread.
        let tablesByNode: [(start: Int, mask: Int)]
        let slots: [Int32]

        init(
            keepsAllByNode: [Bool], membersByNode: [Range<Int>], keyBytes: [UInt8], keyRanges: [Range<Int>], keys: [String], children: [Int],
            tablesByNode: [(start: Int, mask: Int)], slots: [Int32]
        ) {
            self.keepsAllByNode = keepsAllByNode
            self.membersByNode = membersByNode
            self.keyBytes = keyBytes
            self.keyRanges = keyRanges
            self.keys = keys
            self.children = children
            self.tablesByNode = tablesByNode
            self.slots = slots
        }
    }

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
        var tables: [(start: Int, mask: Int)] = []
        var slots: [Int32] = []
        for members in ranges {
            var size = 4
            while size < members.count * 2 { size *= 2 }
            let start = slots.count
            slots.append(contentsOf: repeatElement(-1, count: size))
            for member in members {
                var slot = bytes[keyRanges[member]].withContiguousStorageIfAvailable { Self.slot(of: $0) } ?? 0
                while slots[start + (slot & (size - 1))] >= 0 { slot += 1 }
                slots[start + (slot & (size - 1))] = Int32(member)
            }
            tables.append((start, size - 1))
        }
        storage = Storage(
            keepsAllByNode: keepsAll, membersByNode: ranges, keyBytes: bytes, keyRanges: keyRanges, keys: keys, children: children,
            tablesByNode: tables, slots: slots)
    }

    /// How many members of an object at `node` may be kept (nil: any number, the node keeps all).
    func memberLimit(_ node: Int) -> Int? { storage.keepsAllByNode[node] ? nil : storage.membersByNode[node].count }

    /// Whether the value at `node` is kept whole.
    public func keepsAll(_ node: Int) -> Bool { storage.keepsAllByNode[node] }

    /// The members kept of an object at `node`, each with its node.
    public func members(of node: Int) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: storage.membersByNode[node].map { (storage.keys[$0], storage.children[$0]) })
    }

    /// The key of member `member` (a number `member(of:matching:)` gave).
    @inline(__always)
    func key(of member: Int) -> String { storage.keys[member] }

    /// The node of member `member`'s value.
    @inline(__always)
    func child(of member: Int) -> Int { storage.children[member] }

    /// The member of an object at `node` whose key is `bytes` (UTF-8), or nil to skip it.
    @inline(__always)
    func member(of node: Int, matching bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let storage = storage
        let (start, mask) = storage.tablesByNode[node]
        var slot = Self.slot(of: bytes)
        return storage.keyBytes.withUnsafeBufferPointer { flat in
            while true {
                let found = Int(storage.slots[start + (slot & mask)])
                guard found >= 0 else { return nil }
                let range = storage.keyRanges[found]
                if range.count == bytes.count
                    && (range.isEmpty || memcmp(flat.baseAddress! + range.lowerBound, bytes.baseAddress!, range.count) == 0)
                {
                    return found
                }
                slot += 1
            }
        }
    }

    /// Where a key's search starts: its length and its first, middle and last bytes, mixed.
    @inline(__always)
    private static func slot(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let first = bytes.first, let last = bytes.last else { return 0 }
        var mixed = UInt(bytes.count)
        mixed = mixed &* 31 &+ UInt(first)
        mixed = mixed &* 31 &+ UInt(bytes[bytes.count / 2])
        mixed = mixed &* 31 &+ UInt(last)
        return Int(truncatingIfNeeded: mixed ^ mixed >> 5)
    }
}
