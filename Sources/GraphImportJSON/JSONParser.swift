/// Whole-document parsing, for small inputs such as a test fixture or a config value.
public enum JSONParser {
    /// Exactly one JSON text (strict RFC 8259, UTF-8 byte order mark allowed), whole.
    public static func parse(_ bytes: [UInt8], options: JSONReaderOptions = .init()) throws(JSONError) -> JSONValue {
        var options = options
        options.bufferSize = max(1, bytes.count)
        var scanner = JSONScanner(source: BytesSource(bytes), options: options)
        try scanner.skipByteOrderMark()
        guard try scanner.skipWhitespace() != nil else {
            throw scanner.syntaxError(JSONMessage.expectedValue(found: "end of input"))
        }
        let value = try scanner.parseValue(depth: 0)
        if try scanner.skipWhitespace() != nil {
            throw scanner.syntaxError(JSONMessage.trailing(found: scanner.describeCurrent()))
        }
        return value
    }

    /// Exactly one JSON text given as a string.
    public static func parse(_ text: String, options: JSONReaderOptions = .init()) throws(JSONError) -> JSONValue {
        try parse(Array(text.utf8), options: options)
    }
}
