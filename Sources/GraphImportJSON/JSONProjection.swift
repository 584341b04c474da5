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
        /// Per member: its key's UTF-8 as a range of `keyBytes`, its first and last eight bytes
        /// and its length (`KeyWords`), the key, and the member's node.
        let keyBytes: [UInt8]
        let keyRanges: [Range<Int>]
        let keyWords: [KeyWords]
        let keys: [String]
        let children: [Int]
        /// Per member: its bit in a set of one object's kept members (`1 << its place among its
        /// node's members`), or 0 past the 64th. A kept key's duplicate check is this bit.
        let bits: [UInt64]
        /// Per node, an open-addressing table of its members by `KeyWords.slot`: where it starts in
        /// `slots` and its size less one (a power of two). A member's number, or -1 for an empty
        /// slot. A tweet has two dozen keys and a map reads half of them: searching the kept keys
        /// one by one for every key read was a fifteenth of the reading thread.
        let tablesByNode: [(start: Int, mask: Int)]
        let slots: [Int32]

        init(
            keepsAllByNode: [Bool], membersByNode: [Range<Int>], keyBytes: [UInt8], keyRanges: [Range<Int>], keyWords: [KeyWords], keys: [String],
            children: [Int], bits: [UInt64], tablesByNode: [(start: Int, mask: Int)], slots: [Int32]
        ) {
            self.keepsAllByNode = keepsAllByNode
            self.membersByNode = membersByNode
            self.keyBytes = keyBytes
            self.keyRanges = keyRanges
            self.keyWords = keyWords
            self.keys = keys
            self.children = children
            self.bits = bits
            self.tablesByNode = tablesByNode
            self.slots = slots
        }

        /// Whether member `member`'s key is `bytes`, byte for byte.
        func keyMatches(_ member: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let range = keyRanges[member]
            return range.count == bytes.count
                && keyBytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + range.lowerBound, bytes.baseAddress!, range.count) == 0 }
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
        var keyWords: [KeyWords] = []
        var keys: [String] = []
        var children: [Int] = []
        var bits: [UInt64] = []
        for node in nodes {
            keepsAll.append(node.keepsAll)
            let first = keys.count
            // Sorted so that the same map always gives the same projection.
            for (key, child) in node.members.sorted(by: { $0.key < $1.key }) {
                precondition(nodes.indices.contains(child), "a member's node must be one of the nodes")
                let start = bytes.count
                bytes.append(contentsOf: key.utf8)
                keyRanges.append(start..<bytes.count)
                // Padded, as the scanner's buffer is, for the words' eight-byte loads.
                let padded = Array(key.utf8) + Array(repeating: 0, count: 8)
                keyWords.append(padded.withUnsafeBufferPointer { KeyWords(UnsafeBufferPointer(rebasing: $0[..<key.utf8.count])) })
                keys.append(key)
                children.append(child)
                let place = keys.count - 1 - first
                bits.append(place < 64 ? 1 << place : 0)
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
                var slot = keyWords[member].slot
                while slots[start + (slot & (size - 1))] >= 0 { slot += 1 }
                slots[start + (slot & (size - 1))] = Int32(member)
            }
            tables.append((start, size - 1))
        }
        storage = Storage(
            keepsAllByNode: keepsAll, membersByNode: ranges, keyBytes: bytes, keyRanges: keyRanges, keyWords: keyWords, keys: keys,
            children: children, bits: bits, tablesByNode: tables, slots: slots)
    }

    /// The projection's identity: copies share it.
    var identity: ObjectIdentifier { ObjectIdentifier(storage) }

    /// How many nodes the projection has.
    var nodeCount: Int { storage.keepsAllByNode.count }

    /// How many members of an object at `node` may be kept (nil: any number, the node keeps all).
    func memberLimit(_ node: Int) -> Int? { storage.keepsAllByNode[node] ? nil : storage.membersByNode[node].count }

    /// Whether the value at `node` is kept whole.
    public func keepsAll(_ node: Int) -> Bool { storage.keepsAllByNode[node] }

    /// The members kept of an object at `node`, each with its node.
    public func members(of node: Int) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: storage.membersByNode[node].map { (storage.keys[$0], storage.children[$0]) })
    }

    /// The number of the member of an object at `node` whose key is `key`, or nil when the node
    /// does not keep it (or keeps everything): what `JSONSlots.member(_:of:)` finds a member by.
    /// Numbers are fixed for the projection, so a caller looks them up once, not per record.
    public func memberNumber(of node: Int, key: String) -> Int? {
        guard !keepsAll(node) else { return nil }
        var bytes = Array(key.utf8)
        let count = bytes.count
        // Padded for the key's eight-byte loads.
        bytes.append(contentsOf: repeatElement(0, count: 8))
        return bytes.withUnsafeBufferPointer { member(of: node, matching: UnsafeBufferPointer(rebasing: $0[..<count])) }
    }

    /// The number of the first member of `node`: its members are numbered from here, in their
    /// keys' order, as an object's directory in `JSONSlots` lists them.
    @inline(__always)
    func memberBase(_ node: Int) -> Int { storage.membersByNode[node].lowerBound }

    /// The key of member `member` (a number `member(of:matching:)` gave).
    @inline(__always)
    public func key(of member: Int) -> String { storage.keys[member] }

    /// Member `member`'s bit in a set of the kept members of one object (its node's first 64
    /// members each have one), or 0 when it has none.
    @inline(__always)
    func bit(of member: Int) -> UInt64 { storage.bits[member] }

    /// The node of member `member`'s value.
    @inline(__always)
    public func child(of member: Int) -> Int { storage.children[member] }

    /// The member of an object at `node` whose key is `bytes` (UTF-8), or nil to skip it.
    /// At least 8 bytes from the key's start must be readable (their values past the key do not
    /// matter): the scanner's buffer is padded for it, and keys read another way are copied with padding.
    @inline(__always)
    func member(of node: Int, matching bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let storage = storage
        let (start, mask) = storage.tablesByNode[node]
        let words = KeyWords(bytes)
        var slot = words.slot
        while true {
            let found = Int(storage.slots[start + (slot & mask)])
            guard found >= 0 else { return nil }
            // A key of up to 16 bytes is all in its two words; a longer one is compared whole.
            if storage.keyWords[found] == words && (words.count <= 16 || storage.keyMatches(found, bytes)) { return found }
            slot += 1
        }
    }
}

/// A key as two words and its length, so that a key met in the input is compared with a
/// projection's keys without a call to `memcmp`: its first eight bytes (zero past its end) and
/// its last eight (0 for a key of eight bytes or fewer). Equal words and lengths mean equal keys
/// of up to 16 bytes.
struct KeyWords: Equatable {
    let head: UInt64
    let tail: UInt64
    let count: Int

    /// The words of `bytes`; at least 8 bytes from its start must be readable.
    @inline(__always)
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        count = bytes.count
        guard let base = bytes.baseAddress, count > 0 else {
            head = 0
            tail = 0
            return
        }
        let raw = UnsafeRawPointer(base)
        let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        head = count >= 8 ? first : first & (UInt64(1) << (count * 8) &- 1)
        tail = count > 8 ? UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) : 0
    }

    /// Where the key's search starts in its node's table: the words and the length, mixed.
    @inline(__always)
    var slot: Int {
        let mixed = (head ^ (tail << 29 | tail >> 35) ^ UInt64(count)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 40)
    }
}
