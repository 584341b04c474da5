/// Why the input could not be read as JSON, and exactly where: `line 3, column 14: <message>`.
public struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, broadly, so callers can react without parsing the message.
    public enum Kind: Sendable, Equatable {
        /// The bytes break the JSON grammar.
        case syntax
        /// The bytes are not UTF-8, or an escape names no Unicode scalar (a lone surrogate).
        case encoding
        /// The input goes past a configured limit (nesting depth, string length).
        case limit
        /// The source could not be read.
        case io
    }

    public var kind: Kind
    /// What was wrong, saying what was expected and what was found.
    public var message: String
    public var position: JSONPosition
    /// How to fix the input, when there is a known remedy.
    public var hint: String?

    /// An error at `position`; readers build these, tests and byte sources may too.
    public init(kind: Kind, message: String, position: JSONPosition, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.position = position
        self.hint = hint
    }

    /// `line 3, column 14: expected ',' or ']' after an array element, found '}'`; the hint is left
    /// to the caller, which may show it on a line of its own.
    public var description: String { "\(position): \(message)" }
}

/// The wording of every reader error, in one voice.
enum JSONMessage {
    static func expectedValue(found: String) -> String { "expected a value, found \(found)" }
    static func expectedKey(found: String) -> String { "expected a string key, found \(found)" }
    static func expectedColon(found: String) -> String { "expected ':' after an object key, found \(found)" }
    static func expectedArraySeparator(found: String) -> String {
        "expected ',' or ']' after an array element, found \(found)"
    }
    static func expectedObjectSeparator(found: String) -> String {
        "expected ',' or '}' after an object member, found \(found)"
    }
    static func endInside(isObject: Bool) -> String {
        "unexpected end of input inside \(isObject ? "an object" : "an array")"
    }
    static func trailing(found: String) -> String { "unexpected \(found) after the end of the JSON text" }
    static func expectedLineBreak(found: String) -> String {
        "expected a line break after the JSON text, found \(found)"
    }
    static let unterminatedString = "unterminated string"
    static func controlCharacter(_ found: String) -> String { "unescaped control character \(found) in a string" }
    static func invalidEscape(_ found: String) -> String { "invalid escape '\\' followed by \(found) in a string" }
    static func expectedHexDigit(found: String) -> String {
        "expected 4 hexadecimal digits after '\\u', found \(found)"
    }
    static func loneSurrogate(_ value: UInt32) -> String {
        "lone surrogate '\\u\(hex4(value))' in a string: a surrogate escape must be a high-low pair"
    }
    static func invalidUTF8(_ byte: UInt8) -> String {
        "invalid UTF-8 sequence starting with byte \(hexByte(byte)) in a string"
    }
    static func stringTooLong(limit: Int) -> String { "a string is longer than the limit of \(limit) bytes" }
    static func tooDeep(limit: Int) -> String { "nesting is deeper than the limit of \(limit) levels" }
    static func duplicateKey(_ key: String) -> String {
        var quoted = ""
        JSONValue.writeString(key, to: &quoted)
        return "duplicate key \(quoted) in an object"
    }
    static func expectedDigit(after what: String, found: String) -> String {
        "expected a digit \(what), found \(found)"
    }
    static let leadingZero = "a number cannot have leading zeros"
    static func invalidLiteral(_ word: String) -> String { "invalid literal, expected '\(word)'" }
    static func wideEncoding(_ name: String) -> String { "the input is \(name), not UTF-8" }
    static func convertHint(_ name: String) -> String { "convert it with `iconv -f \(name) -t UTF-8`" }
    static func readFailed(_ reason: String) -> String { "cannot read the input: \(reason)" }

    static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }

    static func hex4(_ value: UInt32) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }

    /// A found character as a message shows it: `'x'`, `'\n'`, `U+0000`, `byte 0xFF`, `end of input`.
    static func describe(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let first = bytes.first else { return "end of input" }
        switch first {
        case ASCII.lineFeed: return "'\\n'"
        case ASCII.carriageReturn: return "'\\r'"
        case ASCII.tab: return "'\\t'"
        case ASCII.apostrophe: return "\"'\""
        case 0x20..<0x7F: return "'\(Character(Unicode.Scalar(first)))'"
        case 0..<0x80: return "U+" + hex4(UInt32(first))
        default: break
        }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .privateUse,
                .surrogate, .unassigned:
                return "U+" + hex4(scalar.value)
            default: return "'\(Character(scalar))'"
            }
        }
        return "byte \(hexByte(first))"
    }
}
