import GraphImportJSON

/// Whether a character echoed from input must be escaped in a message: C0 and C1 control
/// characters, DEL, and the Unicode line and paragraph separators, any of which could break a
/// message's one line or drive the terminal. The one rule for every message of graphimport.
package func mustEscapeInMessages(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
}

/// How values appear in conversion messages: quoted, escaped, and cut to a readable length.
enum MessageText {
    /// Longest part of a value shown in a message, in characters; the rest becomes "…".
    static let maximumLength = 60

    /// `'Sat Jan 3'`: the text in single quotes, control characters and quotes escaped, truncated.
    static func quoted(_ text: String) -> String {
        "'" + escaped(truncated(text)) + "'"
    }

    /// The text cut to `maximumLength` characters, with "…" when something was cut.
    static func truncated(_ text: String) -> String {
        var count = 0
        var end = text.startIndex
        while end < text.endIndex {
            if count == maximumLength { return String(text[..<end]) + "…" }
            end = text.index(after: end)
            count += 1
        }
        return text
    }

    /// Escapes what would make a message ambiguous or unreadable: quotes, backslashes, control characters.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "'" || $0 == "\\" || mustEscapeInMessages($0) }) else {
            return text
        }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "'": out += "\\'"
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where mustEscapeInMessages(scalar):
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension Value {
    /// The kind of value as a person says it: "a string", "a number", "an object".
    var kindName: String {
        switch self {
        case .json(let json): json.kindName
        case .string: "a string"
        case .int, .double: "a number"
        case .bool: "a boolean"
        case .date: "a date"
        case .data: "data"
        }
    }

    /// The kind and, for scalars, the value: "a number (42)", "a string ('abc')", "an object".
    var described: String {
        guard let shown else { return kindName }
        return "\(kindName) (\(shown))"
    }

    /// The value as shown in messages: strings quoted, numbers as written; nil for null, objects and arrays.
    var shown: String? {
        switch self {
        case .json(.string(let text)), .string(let text): MessageText.quoted(text)
        case .json(.number(let number)): MessageText.truncated(number.literal)
        case .json(.bool(let flag)), .bool(let flag): flag ? "true" : "false"
        case .json: nil
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .date(let timestamp): Coercion.isoText(timestamp)
        case .data(let bytes): bytes.count == 1 ? "1 byte" : "\(bytes.count) bytes"
        }
    }

    /// The value's text when it is a string, read or converted.
    var stringValue: String? {
        switch self {
        case .json(.string(let text)), .string(let text): text
        default: nil
        }
    }
}

extension ConversionError {
    /// "expected a string, found a number (42)"
    static func expected(_ expectation: String, found value: Value, hint: String? = nil) -> ConversionError {
        ConversionError("expected \(expectation), found \(value.described)", hint: hint)
    }
}
