import GraphImportSchema

/// A fast, unseeded digest of stored values: for telling whether an object ended a run as it
/// began (`KnownObject.digest`), and as the hash of an object's key (`ObjectKey`).
///
/// Not Swift's `Hasher`: that one is seeded per process, SipHash, and normalises every text to NFC
/// before hashing it, which was a sixth of a re-import's writing thread. This mixes the bytes as
/// SQLite stores them, eight at a time, and gives the same digest in every process. Not
/// cryptographic: digests count objects and pick a key's bucket, never decide a write or whether
/// two keys are equal (`ObjectKey` compares the values). Keys crafted to share a digest would
/// only share a bucket of a generation table, which holds at most `objectsInMemory` objects.
struct ValueDigest: WordMixer {
    private var state: UInt64 = 0x243F_6A88_85A3_08D3

    /// The digest, folded to 32 bits.
    var value: UInt32 { UInt32(truncatingIfNeeded: wide) }

    /// The digest, all 64 bits.
    var wide: UInt64 { Self.fold(state) }

    @inline(__always)
    mutating func mix(_ word: UInt64) {
        state = ((state << 23 | state >> 41) ^ word) &* 0x9E37_79B9_7F4A_7C15
    }
}

/// A hash that takes words one at a time (`ValueDigest`, `ContentHasher`): values and byte runs
/// go into it the one way written here, so that the two never read a value differently.
protocol WordMixer {
    mutating func mix(_ word: UInt64)
}

extension WordMixer {
    /// Spreads every bit of `value` over the whole word (a 64-bit finaliser), so that states
    /// that differ in a few bits give digests that differ in about half.
    static func fold(_ value: UInt64) -> UInt64 {
        var folded = value
        folded ^= folded >> 33
        folded &*= 0xFF51_AFD7_ED55_8CCD
        folded ^= folded >> 33
        folded &*= 0xC4CE_B9FE_1A85_EC53
        folded ^= folded >> 33
        return folded
    }

    /// A value as a store holds it: its kind, then its bytes (a real's zero as one zero).
    mutating func add(_ value: SQLValue) {
        switch value {
        case .null: mix(0)
        case .integer(let number):
            mix(1)
            mix(UInt64(bitPattern: number))
        case .real(let number):
            mix(2)
            mix(number == 0 ? 0 : number.bitPattern)
        case .text(var text):
            mix(3)
            text.withUTF8 { add(bytes: UnsafeRawBufferPointer($0)) }
        case .blob(let bytes):
            mix(4)
            bytes.withUnsafeBytes { add(bytes: $0) }
        }
    }

    /// Bytes, eight at a time, then the tail and the count, so that runs of different lengths
    /// (or trailing zero bytes and the next value's) never blur into each other.
    mutating func add(bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset + 8 <= bytes.count {
            mix(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        while offset < bytes.count {
            tail = tail << 8 | UInt64(bytes[offset])
            offset += 1
        }
        mix(tail)
        mix(UInt64(bytes.count))
    }
}
