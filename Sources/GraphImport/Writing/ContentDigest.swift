import GraphImportSchema

/// What the map read for one object, in 128 bits: equal digests mean equal drafts, so a stored
/// object whose `content_digest` equals its draft's is unchanged, and the writers skip reading
/// its values and lists back (docs/unchanged-objects-plan.md).
///
/// The digest is taken only for the objects of an entity that `ObjectDecisions.storesDigest`
/// allows (every input of its write is in the draft); every other object is stored with a null
/// digest and compared value by value. A row that anything but an import's own draft writes
/// loses its digest (the store's triggers), so that a row edited by another program is compared,
/// and restored, as before.
struct ContentDigest: Hashable, Sendable {
    let high: UInt64
    let low: UInt64

    /// What `content_digest` holds: the 16 bytes, high word first, big-endian.
    var storedValue: SQLValue {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for word in [high, low] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return .blob(bytes)
    }

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The digest a `content_digest` value holds; nil for null or anything not 16 bytes (a row
    /// written before digests, or by another program), which compares as a change.
    init?(stored value: SQLValue) {
        guard case .blob(let bytes) = value, bytes.count == 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 { high = high << 8 | UInt64(bytes[index]) }
        for index in 8..<16 { low = low << 8 | UInt64(bytes[index]) }
        self.init(high: high, low: low)
    }
}

/// Takes a `ContentDigest` of a sequence of words and byte runs, the same in every process.
///
/// Two 64-bit lanes, each updated by a bijection of its state for a given word, the second also
/// mixing in the first, then each folded with the length. Not cryptographic: accidental
/// collisions among 2^128 states are not a concern over any store's life; a feed crafted to make
/// two states of one object collide would leave that object's change unwritten, which is why
/// the digest covers only what the map read and a user can always compare everything
/// (`ImportOptions.comparesAll`).
struct ContentHasher: WordMixer {
    private var first: UInt64 = 0x6A09_E667_F3BC_C908
    private var second: UInt64 = 0xBB67_AE85_84CA_A73B
    private var words: UInt64 = 0

    init() {}

    /// Starts from `seed` (the map's fingerprint), so that another map's digests never match.
    init(seed: ContentDigest) {
        add(seed.high)
        add(seed.low)
    }

    @inline(__always)
    mutating func mix(_ word: UInt64) {
        first = (first ^ word) &* 0x9E37_79B9_7F4A_7C15
        first = first << 31 | first >> 33
        second = ((second &+ word) ^ first) &* 0xC2B2_AE3D_27D4_EB4F
        second ^= second >> 29
        words &+= 1
    }

    @inline(__always)
    mutating func add(_ word: UInt64) { mix(word) }

    /// A text's UTF-8 bytes.
    mutating func add(text: String) {
        var text = text
        text.withUTF8 { add(bytes: UnsafeRawBufferPointer($0)) }
    }

    var digest: ContentDigest {
        ContentDigest(high: Self.fold(first ^ words), low: Self.fold(second ^ (first << 17 | first >> 47) ^ words))
    }
}
