@testable import GraphImport
import Testing

@Suite struct SHA256Tests {
    /// The FIPS 180-2 appendix B examples, plus the empty message.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func matchesTheStandardVectors(message: String, digest: String) {
        #expect(SHA256.hash(Array(message.utf8)) == digest)
    }

    @Test func hashesOneMillionLetterA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hash(message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every piece size from 1 to 130 bytes crosses the 64-byte block boundary at a different offset.
    @Test(arguments: 1...130)
    func anyChunkingGivesTheSameDigest(pieceSize: Int) {
        let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var hasher = SHA256()
        var start = 0
        while start < message.count {
            let end = min(start + pieceSize, message.count)
            message[start..<end].withUnsafeBytes { hasher.update($0) }
            start = end
        }
        #expect(SHA256.hex(hasher.finalize()) == SHA256.hash(message))
    }

    /// Zero-filled messages around the padding boundary, where the length needs a second block
    /// (digests from coreutils `head -c N /dev/zero | sha256sum`).
    @Test(arguments: [
        (55, "02779466cdec163811d078815c633f21901413081449002f24aa3e80f0b88ef7"),
        (56, "d4817aa5497628e7c77e6b606107042bbba3130888c5f47a375e6179be789fbb"),
        (63, "c7723fa1e0127975e49e62e753db53924c1bd84b8ac1ac08df78d09270f3d971"),
        (64, "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b"),
        (65, "98ce42deef51d40269d542f5314bef2c7468d401ad5d85168bfab4c0108f75f7"),
        (119, "f616b0d54e78571a9611f343c9f8e022e859e920381ab0e4d3da01e193a7bd7e"),
        (120, "6edd9f6f9cc92cded36e6c4a580933f9c9f1b90562b46903b806f21902a1a54f"),
    ])
    func padsLengthsAroundTheBlockBoundary(length: Int, digest: String) {
        #expect(SHA256.hash([UInt8](repeating: 0, count: length)) == digest)
    }

    @Test func finalizeStartsOver() {
        var hasher = SHA256()
        hasher.update(Array("abc".utf8))
        _ = hasher.finalize()
        #expect(SHA256.hex(hasher.finalize()) == SHA256.hash([]))
    }

    @Test func hexWritesTwoLowercaseDigitsPerByte() {
        #expect(SHA256.hex([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
        #expect(SHA256.hex([]) == "")
    }

    /// The digest of `message` fed in one piece, by the CPU's SHA instructions if `accelerated`
    /// (and the CPU has them), else by the Swift rounds.
    private static func digest(_ message: [UInt8], accelerated: Bool) -> String {
        var hasher = SHA256(accelerated: accelerated)
        hasher.update(message)
        return SHA256.hex(hasher.finalize())
    }

    /// Bytes from a fixed-seed xorshift generator, the same on every run.
    static func pseudoRandomBytes(count: Int, seed: UInt64) -> [UInt8] {
        var x = seed
        return (0..<count).map { _ in
            x ^= x << 13
            x ^= x >> 7
            x ^= x << 17
            return UInt8(truncatingIfNeeded: x >> 32)
        }
    }

    /// The standard vectors again through each path by name, so a wrong accelerated path fails
    /// here rather than only disagreeing with the Swift one.
    @Test(arguments: [false, true])
    func bothPathsMatchTheStandardVectors(accelerated: Bool) {
        #expect(Self.digest([], accelerated: accelerated) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.digest(Array("abc".utf8), accelerated: accelerated) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Self.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8), accelerated: accelerated)
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            Self.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000), accelerated: accelerated)
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every length from 0 to 300 bytes: 0 to 4 whole blocks and every partial-block remainder.
    @Test func acceleratedAndSwiftPathsAgreeOnEveryShortLength() {
        let bytes = Self.pseudoRandomBytes(count: 300, seed: 0x9e37_79b9_7f4a_7c15)
        for length in 0...300 {
            let message = Array(bytes[0..<length])
            #expect(Self.digest(message, accelerated: true) == Self.digest(message, accelerated: false), "length \(length)")
        }
    }

    /// A megabyte fed in pieces of pseudo-random sizes, so whole blocks reach the compression at
    /// every offset and in runs of every length.
    @Test func acceleratedAndSwiftPathsAgreeOnAMegabyteInRandomPieces() {
        let message = Self.pseudoRandomBytes(count: 1 << 20, seed: 42)
        let sizes = Self.pseudoRandomBytes(count: 1 << 16, seed: 7)
        var accelerated = SHA256(accelerated: true)
        var swift = SHA256(accelerated: false)
        var start = 0
        var piece = 0
        while start < message.count {
            // Mostly small pieces, with every eighth up to 64 KB so long runs of blocks occur too.
            let size = piece % 8 == 7 ? Int(sizes[piece % sizes.count]) << 8 : Int(sizes[piece % sizes.count])
            let end = min(start + size, message.count)
            message[start..<end].withUnsafeBytes {
                accelerated.update($0)
                swift.update($0)
            }
            start = end
            piece += 1
        }
        let digest = SHA256.hex(accelerated.finalize())
        #expect(digest == SHA256.hex(swift.finalize()))
        #expect(digest == Self.digest(message, accelerated: false))
    }
}

/// The background hasher copies each read into a chunk its thread hashes, and hands hashed chunks
/// back for later reads: the digest must be that of the bytes fed, whatever was in a reused chunk.
@Suite struct BackgroundHasherTests {
    /// Pieces that shrink and grow (64 KiB, then a few bytes, then 64 KiB again...), many more
    /// than the hasher's queue holds: a reused chunk that kept its old bytes would change the digest.
    @Test func digestIsTheInputsWhenChunksAreReused() {
        let message = SHA256Tests.pseudoRandomBytes(count: 3 << 20, seed: 11)
        let hasher = BackgroundHasher()
        var start = 0
        var piece = 0
        while start < message.count {
            let size = [65_536, 3, 40_000, 1, 65_536, 17][piece % 6]
            let end = min(start + size, message.count)
            message[start..<end].withUnsafeBytes { hasher.feed($0) }
            start = end
            piece += 1
        }
        var whole = SHA256()
        message.withUnsafeBytes { whole.update($0) }
        #expect(SHA256.hex(hasher.finish()) == SHA256.hex(whole.finalize()))
    }
}
