/// A Bloom filter over the keys of the objects a run inserted into a table that was empty when
/// the run began: a key it has never seen is certainly not in the table, so a first import
/// inserts new objects without first asking SQLite whether they exist (a query per object).
///
/// 2^23 bits, made only for an entity that starts empty and gets an insert, probed at
/// three places per key: about 5% false positives at a million keys, each costing only the
/// query the filter saves otherwise. Keys leave memory with their objects; the filter keeps them.
struct KeyFilter {
    private static let bitCount = 1 << 23
    private var words = [UInt64](repeating: 0, count: KeyFilter.bitCount / 64)

    mutating func insert(_ key: ObjectKey) {
        let (first, step) = Self.probe(key)
        for index in 0..<3 {
            let bit = Self.bit(first, step, index)
            words[bit >> 6] |= 1 << UInt64(bit & 63)
        }
    }

    /// False only for a key that was never inserted.
    func mightContain(_ key: ObjectKey) -> Bool {
        let (first, step) = Self.probe(key)
        for index in 0..<3 {
            let bit = Self.bit(first, step, index)
            if words[bit >> 6] & (1 << UInt64(bit & 63)) == 0 { return false }
        }
        return true
    }

    /// Three bit positions from one 64-bit hash (double hashing: h1, h1 + h2, h1 + 2·h2).
    private static func probe(_ key: ObjectKey) -> (first: UInt64, step: UInt64) {
        let hash = UInt64(bitPattern: Int64(key.hashValue))
        return (hash, (hash >> 32) | 1)
    }

    private static func bit(_ first: UInt64, _ step: UInt64, _ index: Int) -> Int {
        Int((first &+ UInt64(index) &* step) & UInt64(bitCount - 1))
    }
}
