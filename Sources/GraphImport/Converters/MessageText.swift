import GraphImportJSON

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
        guard text.unicodeScalars.contains(where: { $0 == "'" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }) else {
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
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
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
