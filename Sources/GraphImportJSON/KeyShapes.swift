#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The key orders ("shapes") of objects `parseSlots` has read at each node of a projection, so
/// that the next object of the same shape is read without looking its keys up or checking them
/// for duplicates.
///
/// A feed's objects at one place mostly repeat a few shapes (every tweet's keys come in the same
/// order). Each shape is the complete list of an object's keys, which passed the duplicate check,
/// so its keys are distinct: an object whose first `n` keys are a shape's first `n` has no
/// duplicate among them, and each one's projection member is the one recorded. A key that is not
/// the shape's next one leaves the shape: the keys matched so far are then checked as if read
/// one by one (`JSONScanner.leaveShape`) and the object goes on the ordinary way.
///
/// Shapes are learnt from objects read the ordinary way from their first key, one object at a
/// time, and never change once learnt: an object inside another of the same node may follow the
/// shape its parent follows. They hold for one projection (its member numbers).
struct KeyShapes {
    /// One key of a shape: its words, its UTF-8 in `bytes`, and its member (-1: skipped).
    struct Key {
        let words: KeyWords
        let start: Int
        let member: Int
    }

    /// How many shapes a node keeps (a user and a mention read at one node are two).
    static let shapesPerNode = 4
    /// An object with more keys than this is not learnt (its duplicate check goes by text).
    static let maxKeys = 64

    /// The projection the shapes were learnt with (its storage's identity).
    let projection: ObjectIdentifier?
    private var keys: [Key] = []
    /// The keys' UTF-8 back to back, padded at the end for `KeyWords`' eight-byte loads.
    private(set) var bytes: [UInt8] = Array(repeating: 0, count: JSONByteBuffer.padding)
    /// Per node, its shapes: ranges of `keys`.
    private var shapesByNode: [[Range<Int>]]

    /// The keys of the object being learnt, by the frame that learns it.
    private var learning: [(words: KeyWords, bytes: [UInt8], member: Int)] = []

    init(for projection: JSONProjection?, nodeCount: Int) {
        self.projection = projection?.identity
        shapesByNode = Array(repeating: [], count: nodeCount)
    }

    /// The shape of `node` whose first key is `bytes` (`words`): where its keys start and end.
    func shape(of node: Int, startingWith words: KeyWords, _ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        for shape in shapesByNode[node] where matches(shape.lowerBound, words, bytes) { return shape }
        return nil
    }

    /// Whether `node` may learn another shape.
    func hasRoom(_ node: Int) -> Bool { shapesByNode[node].count < Self.shapesPerNode }

    /// Whether key `index` is `bytes` (`words`).
    @inline(__always)
    func matches(_ index: Int, _ words: KeyWords, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let key = keys[index]
        guard key.words == words else { return false }
        // Up to 16 bytes a key is all in its words; a longer one is compared whole.
        return words.count <= 16
            || self.bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + key.start, bytes.baseAddress!, words.count) == 0 }
    }

    /// Whether key `index` stands in `bytes` from `start`, followed by its closing quote before
    /// `end`: the key a scan from `start` would read in place, found without looking for its
    /// quote first. A shape's keys were read in place (plain ASCII, no quote or backslash), so
    /// equal bytes and the quote after them are that key. At least eight bytes from `start`
    /// must be readable (the scanner's buffer is padded for it).
    @inline(__always)
    func isAt(_ index: Int, in bytes: UnsafePointer<UInt8>, from start: Int, end: Int) -> Bool {
        let key = keys[index]
        let count = key.words.count
        guard start + count < end && bytes[start + count] == ASCII.quote else { return false }
        let raw = UnsafeRawPointer(bytes + start)
        let head = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        if count < 8 { return head & (UInt64(1) << (count * 8) &- 1) == key.words.head }
        guard head == key.words.head else { return false }
        if count == 8 { return true }
        if count <= 16 { return UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) == key.words.tail }
        return self.bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + key.start, bytes + start, count) == 0 }
    }

    /// The member of key `index` (-1 when the projection skips it).
    @inline(__always)
    func member(at index: Int) -> Int { keys[index].member }

    /// Where key `index`'s UTF-8 is in `bytes` (at least eight bytes are readable from its start).
    func range(of index: Int) -> Range<Int> {
        let key = keys[index]
        return key.start..<key.start + key.words.count
    }

    /// Starts learning an object's keys (nothing else is being learnt).
    mutating func beginLearning() { learning.removeAll(keepingCapacity: true) }

    /// One more key of the object being learnt.
    mutating func learn(_ words: KeyWords, _ bytes: UnsafeBufferPointer<UInt8>, member: Int) {
        learning.append((words, Array(bytes), member))
    }

    /// How many keys the object being learnt has so far.
    var learntCount: Int { learning.count }

    /// The object being learnt is complete and passed the duplicate check: its keys are a shape of `node`.
    mutating func endLearning(node: Int) {
        guard hasRoom(node), !learning.isEmpty else { return }
        let first = keys.count
        bytes.removeLast(JSONByteBuffer.padding)
        for key in learning {
            keys.append(Key(words: key.words, start: bytes.count, member: key.member))
            bytes.append(contentsOf: key.bytes)
        }
        bytes.append(contentsOf: repeatElement(0, count: JSONByteBuffer.padding))
        shapesByNode[node].append(first..<keys.count)
        learning.removeAll(keepingCapacity: true)
    }
}
