/// A content digest as PostgreSQL's `bytea` reads and writes it in text: `\x` and 32 hex digits.
extension ContentDigest {
    /// The digest of a `bytea` value as the server sent it in text (`\x…`); nil for NULL
    /// (empty) or anything but 16 bytes.
    init?(byteaText text: UnsafeRawBufferPointer) {
        guard text.count == 34, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x") else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        for index in 0..<32 {
            let byte = text[2 + index]
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            if index < 16 { words.0 = words.0 << 4 | UInt64(nibble) } else { words.1 = words.1 << 4 | UInt64(nibble) }
        }
        self.init(high: words.0, low: words.1)
    }

    /// The 32 hex digits of the digest's bytes, for `decode(…, 'hex')`.
    var hexText: String {
        func hex(_ word: UInt64) -> String {
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return hex(high) + hex(low)
    }
}
