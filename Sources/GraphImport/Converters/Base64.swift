/// Strict base64 (RFC 4648 §4): the standard alphabet, `=` padding to a multiple of four, nothing else.
///
/// No whitespace, no line breaks, no URL-safe `-`/`_`: a value that is not exactly base64 is more
/// likely a mapping mistake than data. Unused bits in the last group are ignored.
enum Base64 {
    /// Why text is not base64, as the end of "'…' is not base64 (…)".
    enum Failure: Error, Equatable {
        case length(Int)
        case character(UInt8, offset: Int)
        case padding
    }

    private static let invalid: UInt8 = 0xFF

    /// The 6-bit value of each byte, `invalid` for bytes outside the alphabet.
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()

    static func decode(_ text: String) throws(Failure) -> [UInt8] {
        let bytes = Array(text.utf8)
        // Characters first, so that a stray newline or `-` is named rather than reported as a bad length.
        var padding = 0
        for (offset, byte) in bytes.enumerated() {
            if byte == ASCII.equals {
                padding += 1
            } else if table[Int(byte)] == invalid {
                throw .character(byte, offset: offset)
            } else if padding > 0 {
                throw .padding
            }
        }
        guard bytes.count % 4 == 0 else { throw .length(bytes.count) }
        guard padding <= 2 else { throw .padding }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count / 4 * 3)
        var group: UInt32 = 0
        for (offset, byte) in bytes.enumerated() {
            group = group << 6 | UInt32(byte == ASCII.equals ? 0 : table[Int(byte)])
            if offset % 4 == 3 {
                output.append(UInt8(truncatingIfNeeded: group >> 16))
                output.append(UInt8(truncatingIfNeeded: group >> 8))
                output.append(UInt8(truncatingIfNeeded: group))
                group = 0
            }
        }
        output.removeLast(padding)
        return output
    }

    /// The bytes of base64 text, or "<shown> is not base64 (…)": the one reading of base64 for
    /// the `base64` converter and a `Data` attribute without one.
    static func bytes(of text: String, shown: String) throws(ConversionError) -> [UInt8] {
        do throws(Failure) {
            return try decode(text)
        } catch {
            throw ConversionError("\(shown) is not base64 (\(reason(error)))", hint: "add `| utf8` to store text as its UTF-8 bytes")
        }
    }

    /// The end of the message for a failure.
    static func reason(_ failure: Failure) -> String {
        switch failure {
        case .length(let count): "its length, \(count), is not a multiple of 4"
        case .character(let byte, let offset):
            byte < 0x80
                ? "\(MessageText.quoted(String(UnicodeScalar(byte)))) at offset \(offset) is not in the base64 alphabet"
                : "a non-ASCII character at offset \(offset) is not in the base64 alphabet"
        case .padding: "'=' may only end it, at most twice"
        }
    }
}
