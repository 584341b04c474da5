internal import CSHA256

/// SHA-256 (FIPS 180-4), streaming: feed bytes in any pieces, then `finalize`. Written here
/// because the package takes no third-party code and CryptoKit is not on Linux; it fingerprints
/// inputs and maps so an unchanged input can be skipped.
///
/// - Complexity: O(n); whole 64-byte blocks are compressed straight from the caller's buffer,
///   only a partial block is copied. Where the CPU has SHA extensions (x86 SHA-NI), whole
///   blocks go to them (target `CSHA256`), several times faster than the Swift rounds here.
package struct SHA256: Sendable {
    private var state: [UInt32] = initialState
    /// The bytes of a block not yet complete (fewer than 64), with room for 64.
    private var pending: [UInt8]
    private var byteCount: UInt64 = 0
    /// Whether whole blocks go to the CPU's SHA extensions rather than the Swift rounds.
    private let accelerated: Bool

    /// A hasher with nothing fed yet, using the CPU's SHA extensions if it has them.
    package init() {
        self.init(accelerated: SHA256.accelerationAvailable)
    }

    /// A hasher with nothing fed yet that uses the CPU's SHA extensions only if `accelerated`
    /// and the CPU has them. Per hasher, not a global switch, so tests running in parallel can
    /// compare both paths on the same machine.
    init(accelerated: Bool) {
        self.accelerated = accelerated && SHA256.accelerationAvailable
        pending = []
        pending.reserveCapacity(SHA256.blockSize)
    }

    /// Whether this CPU has the SHA extensions (always false off x86-64).
    static let accelerationAvailable = graphimport_sha256_accelerated() != 0

    private static let blockSize = 64

    /// Feeds `bytes`; pieces of any size give the same digest as one whole.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        byteCount &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            offset = min(SHA256.blockSize - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<offset])
            guard pending.count == SHA256.blockSize else { return }
            pending.withUnsafeBytes { SHA256.compress(&state, blocks: $0, accelerated: accelerated) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = (bytes.count - offset) / SHA256.blockSize * SHA256.blockSize
        if whole > 0 {
            SHA256.compress(&state, blocks: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + whole]), accelerated: accelerated)
            offset += whole
        }
        if offset < bytes.count {
            pending.append(contentsOf: bytes[offset...])
        }
    }

    /// Feeds `bytes`.
    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest of everything fed; the hasher then starts over, empty.
    package mutating func finalize() -> [UInt8] {
        let bitCount = byteCount &* 8
        // Padding: 0x80, zeros up to 56 bytes into a block, then the bit length big-endian.
        var tail: [UInt8] = [0x80]
        let used = (pending.count + 1) % SHA256.blockSize
        tail += repeatElement(0, count: (56 - used + SHA256.blockSize) % SHA256.blockSize)
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift)))
        }
        update(tail)
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in state {
            digest += [UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
        }
        self = SHA256(accelerated: accelerated)
        return digest
    }

    /// `bytes` as lowercase hexadecimal, two digits a byte.
    package static func hex(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The digest of `bytes` as lowercase hexadecimal.
    package static func hash(_ bytes: [UInt8]) -> String {
        var hasher = SHA256()
        hasher.update(bytes)
        return hex(hasher.finalize())
    }

    /// Runs the compression function over each 64-byte block of `blocks` (a multiple of 64 bytes),
    /// on the CPU's SHA extensions if `accelerated`.
    private static func compress(_ state: inout [UInt32], blocks: UnsafeRawBufferPointer, accelerated: Bool) {
        if accelerated {
            guard let base = blocks.baseAddress else { return }
            let blockCount = blocks.count / blockSize
            state.withUnsafeMutableBufferPointer { words in
                graphimport_sha256_compress_blocks(words.baseAddress!, base, blockCount)
            }
            return
        }
        var h0 = state[0], h1 = state[1], h2 = state[2], h3 = state[3]
        var h4 = state[4], h5 = state[5], h6 = state[6], h7 = state[7]
        roundConstants.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                var blockStart = 0
                while blockStart < blocks.count {
                    for t in 0..<16 {
                        w[t] = blocks.loadUnaligned(fromByteOffset: blockStart + t * 4, as: UInt32.self).bigEndian
                    }
                    for t in 16..<64 {
                        let s0 = rotateRight(w[t - 15], 7) ^ rotateRight(w[t - 15], 18) ^ (w[t - 15] >> 3)
                        let s1 = rotateRight(w[t - 2], 17) ^ rotateRight(w[t - 2], 19) ^ (w[t - 2] >> 10)
                        w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                    }
                    var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
                    for t in 0..<64 {
                        let sum1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
                        let choice = (e & f) ^ (~e & g)
                        let temp1 = h &+ sum1 &+ choice &+ k[t] &+ w[t]
                        let sum0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        let temp2 = sum0 &+ majority
                        h = g
                        g = f
                        f = e
                        e = d &+ temp1
                        d = c
                        c = b
                        b = a
                        a = temp1 &+ temp2
                    }
                    h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d
                    h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                    blockStart += blockSize
                }
            }
        }
        state[0] = h0; state[1] = h1; state[2] = h2; state[3] = h3
        state[4] = h4; state[5] = h5; state[6] = h6; state[7] = h7
    }
}

@inline(__always)
private func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value &>> count) | (value &<< (32 &- count))
}

/// The first 32 bits of the fractional parts of the square roots of the first 8 primes.
private let initialState: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
]

/// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
private let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
]

/// Lowercase hexadecimal digits in ASCII.
private let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
