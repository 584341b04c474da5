/// The keys a first import into an empty store has written so far, per entity, as a Bloom filter:
/// a key it says was not written is not in the store (the tables were empty when the run began,
/// under the store's lock), so a batch reads back only the objects the filter may hold. A false
/// "may hold" costs a read that finds nothing; a written key is never missed. The filter has a
/// fixed size, so memory stays flat however long the feed: past a few million keys of one entity
/// it says "may hold" more often, and the batch reads what it would read without it.
struct PostgresWrittenKeys {
    /// 2^24 bits per entity: under 1% false "may hold" up to about 2.5 million keys.
    private static let bitCount = 1 << 24
    private static let probes = 4
    private var bits: [[UInt64]]

    init(entities: Int) { bits = Array(repeating: [], count: entities) }

    /// Notes that the object with `key` of `entity` is in the store now.
    mutating func insert(_ key: ObjectKey, of entity: Int) {
        if bits[entity].isEmpty { bits[entity] = Array(repeating: 0, count: Self.bitCount / 64) }
        let (first, second) = Self.hashes(key)
        for probe in 0..<Self.probes {
            let bit = Self.place(probe, first, second)
            bits[entity][bit >> 6] |= 1 << UInt64(bit & 63)
        }
    }

    /// False when the object with `key` of `entity` was certainly not written in the run.
    func mayHold(_ key: ObjectKey, of entity: Int) -> Bool {
        guard !bits[entity].isEmpty else { return false }
        let (first, second) = Self.hashes(key)
        for probe in 0..<Self.probes {
            let bit = Self.place(probe, first, second)
            if bits[entity][bit >> 6] & (1 << UInt64(bit & 63)) == 0 { return false }
        }
        return true
    }

    /// Two independent hashes of `key` (the second odd), for double hashing.
    private static func hashes(_ key: ObjectKey) -> (UInt64, UInt64) {
        var hasher = Hasher()
        hasher.combine(0x6769)
        hasher.combine(key)
        return (UInt64(bitPattern: Int64(key.hashValue)), UInt64(bitPattern: Int64(hasher.finalize())) | 1)
    }

    /// The filter's bit of probe `probe`.
    private static func place(_ probe: Int, _ first: UInt64, _ second: UInt64) -> Int {
        Int((first &+ UInt64(probe) &* second) & UInt64(bitCount - 1))
    }
}
