import CJSONBlocks

/// Finds where a string scan must stop: the first quote, backslash, control byte or non-ASCII
/// byte of a range of the scanner's window.
///
/// Two ways that must always agree (the fuzzers check it): 16 bytes at a time with vector
/// compares where the build has them (SSE2 on x86-64, see CJSONBlocks), or the portable way,
/// eight bytes at a time with bit tricks and then byte by byte. Everything else a string needs
/// (escapes, UTF-8, the closing quote) stays with the byte-level code the stop hands over to.
struct JSONBlockScan {
    /// Whether `stop` compares blocks of 16 bytes; false runs the portable loop.
    let usesBlocks: Bool

    /// Bytes past the end of the data that `stop` may read: the scanner's buffer keeps this much padding.
    static let overread = 16

    /// Blocks where the build has them, unless `portable`.
    init(portable: Bool) {
        usesBlocks = !portable && graphimport_json_blocks_available() != 0
    }

    /// The index of the first byte of `bytes[from..<to]` that is `"`, `\`, below 0x20 or above
    /// 0x7F, or `to` when there is none. Up to `overread` bytes past `to` must be readable.
    @inline(__always)
    func stop(in bytes: UnsafeMutablePointer<UInt8>, from: Int, to: Int) -> Int {
        if usesBlocks { return graphimport_json_string_stop(bytes, from, to) }
        var index = from
        while index + 8 <= to && !needsAttention(UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)) {
            index += 8
        }
        while index < to {
            let byte = bytes[index]
            if byte == ASCII.quote || byte == ASCII.backslash || byte < ASCII.space || byte >= 0x80 { break }
            index += 1
        }
        return index
    }
}

/// Whether any of eight bytes is `"`, `\\`, below 0x20 or above 0x7F (bit tricks from "Bit Twiddling Hacks").
@inline(__always)
private func needsAttention(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quotes = word ^ (ones &* UInt64(ASCII.quote))
    let backslashes = word ^ (ones &* UInt64(ASCII.backslash))
    let hasQuote = (quotes &- ones) & ~quotes
    let hasBackslash = (backslashes &- ones) & ~backslashes
    let hasControl = word &- (ones &* UInt64(ASCII.space))
    return (hasQuote | hasBackslash | hasControl | word) & highs != 0
}
