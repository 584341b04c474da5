import GraphImportJSON
import GraphImportMapping
import GraphImportSchema

/// The strict final check of a converted value against its attribute's type.
///
/// A JSON string never silently becomes a number or a date, nor a number a string or a boolean:
/// a converter opts in (`| int`, `| iso8601`, `| string`), and each refusal's hint names it.
package enum Coercion {
    /// The value as stored for an attribute of `type`; the only place a value becomes an `SQLValue`.
    /// JSON null becomes NULL for every type (whether null is allowed is the caller's rule).
    package static func sqlValue(_ value: Value, as type: ValueType) throws(ConversionError) -> SQLValue {
        if case .json(.null) = value { return .null }
        switch type {
        case .string: return try text(value)
        case .int: return try integer(value)
        case .double: return try real(value)
        case .bool: return try boolean(value)
        case .date: return try date(value)
        case .url: return try url(value)
        case .data: return try data(value)
        case .json: return try json(value)
        }
    }

    /// `sqlValue(.json(raw), as: type)`, with the commonest cases (a string stored as text, an
    /// integer as an integer, null) answered without wrapping the value: most attributes have no
    /// converter, and the wrapping and unwrapping were a twentieth of the reading thread.
    @inline(__always)
    package static func sqlValue(json raw: JSONValue, as type: ValueType) throws(ConversionError) -> SQLValue {
        switch (raw, type) {
        case (.null, _): return .null
        case (.string(let text), .string): return .text(text)
        case (.number(let number), .int): if let exact = number.exactInt64 { return .integer(exact) }
        default: break
        }
        return try sqlValue(.json(raw), as: type)
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ`, always three fraction digits: text that SQLite's date functions
    /// read and that sorts in time order. Years outside 0000–9999 (which no converter produces)
    /// are written ISO 8601's expanded way, `+10000-01-01…`, `-0001-12-31…`.
    package static func isoText(_ timestamp: Timestamp) -> String {
        let civil = CivilTime(timestamp)
        guard (0...9999).contains(civil.year) else {
            let year = civil.year > 9999 ? "+" + String(civil.year) : "-" + CivilTime.pad(-civil.year, 4)
            return year + "-" + CivilTime.pad(civil.month, 2) + "-" + CivilTime.pad(civil.day, 2)
                + "T" + CivilTime.pad(civil.hour, 2) + ":" + CivilTime.pad(civil.minute, 2) + ":" + CivilTime.pad(civil.second, 2)
                + "." + CivilTime.pad(civil.millisecond, 3) + "Z"
        }
        // Every stored date goes through here: each field's digits written straight into the
        // 24 bytes (joining padded pieces, then a writer closure per field, cost more than
        // parsing the date did).
        return String(unsafeUninitializedCapacity: 24) { buffer in
            let text = buffer.baseAddress!
            let year = UInt32(truncatingIfNeeded: civil.year)
            writeTwoDigits(year / 100, at: text)
            writeTwoDigits(year % 100, at: text + 2)
            text[4] = ASCII.minus
            writeTwoDigits(UInt32(truncatingIfNeeded: civil.month), at: text + 5)
            text[7] = ASCII.minus
            writeTwoDigits(UInt32(truncatingIfNeeded: civil.day), at: text + 8)
            text[10] = ASCII.upperT
            writeTwoDigits(UInt32(truncatingIfNeeded: civil.hour), at: text + 11)
            text[13] = ASCII.colon
            writeTwoDigits(UInt32(truncatingIfNeeded: civil.minute), at: text + 14)
            text[16] = ASCII.colon
            writeTwoDigits(UInt32(truncatingIfNeeded: civil.second), at: text + 17)
            text[19] = ASCII.period
            let millisecond = UInt32(truncatingIfNeeded: civil.millisecond)
            text[20] = ASCII.zero &+ UInt8(truncatingIfNeeded: millisecond / 100)
            writeTwoDigits(millisecond % 100, at: text + 21)
            text[23] = ASCII.upperZ
            return 24
        }
    }

    /// Writes `value`, 0 to 99, as two decimal digits at `text`.
    @inline(__always)
    private static func writeTwoDigits(_ value: UInt32, at text: UnsafeMutablePointer<UInt8>) {
        let tens = value / 10
        text[0] = ASCII.zero &+ UInt8(truncatingIfNeeded: tens)
        text[1] = ASCII.zero &+ UInt8(truncatingIfNeeded: value &- tens &* 10)
    }

    private static func text(_ value: Value) throws(ConversionError) -> SQLValue {
        guard let text = value.stringValue else {
            throw ConversionError.expected("a string", found: value, hint: "add `| string` to store numbers or booleans as text")
        }
        return .text(text)
    }

    /// Exact: `1`, `1.0` and `1e0` are the same integer (so the same key); nothing is rounded.
    private static func integer(_ value: Value) throws(ConversionError) -> SQLValue {
        switch value {
        case .int(let number):
            return .integer(number)
        case .json(.number(let number)):
            if let exact = number.exactInt64 { return .integer(exact) }
            if DecimalText.scaled(number.literal, byPowerOfTen: 0) == .outOfRange { throw StandardConverters.outOfRangeForInt(value) }
            throw ConversionError("\(value.shown!) is not an integer")
        case .double(let number):
            guard number.rounded(.towardZero) == number else { throw ConversionError("\(value.shown!) is not an integer") }
            guard let exact = Int64(exactly: number) else { throw StandardConverters.outOfRangeForInt(value) }
            return .integer(exact)
        case .json(.string), .string:
            throw ConversionError.expected("an integer", found: value, hint: "add `| int` to read numbers written as text")
        default:
            throw ConversionError.expected("an integer", found: value)
        }
    }

    private static func real(_ value: Value) throws(ConversionError) -> SQLValue {
        switch value {
        case .int(let number): return .real(Double(number))
        case .double(let number):
            guard number.isFinite else { throw ConversionError("\(value.shown!) is out of range for Double") }
            return .real(number)
        case .json(.number(let number)):
            guard number.double.isFinite else { throw ConversionError("\(value.shown!) is out of range for Double") }
            return .real(number.double)
        case .json(.string), .string:
            throw ConversionError.expected("a number", found: value, hint: "add `| double` to read numbers written as text")
        default:
            throw ConversionError.expected("a number", found: value)
        }
    }

    /// Stored as 0 or 1, SQLite's booleans.
    private static func boolean(_ value: Value) throws(ConversionError) -> SQLValue {
        switch value {
        case .bool(let flag), .json(.bool(let flag)): return .integer(flag ? 1 : 0)
        case .json(.number), .int, .double, .json(.string), .string:
            throw ConversionError.expected("a boolean", found: value, hint: "add `| bool` to read 1/0 or \"true\"/\"false\" as booleans")
        default:
            throw ConversionError.expected("a boolean", found: value)
        }
    }

    private static func date(_ value: Value) throws(ConversionError) -> SQLValue {
        switch value {
        case .date(let timestamp): return .text(isoText(timestamp))
        case .json(.string), .string:
            throw ConversionError.expected(
                "a date", found: value, hint: "add `| iso8601`, `| date(\"…\")`, `| epochSeconds` or `| epochMillis` to read dates written as text")
        case .json(.number), .int, .double:
            throw ConversionError.expected("a date", found: value, hint: "add `| epochSeconds` or `| epochMillis` to read numbers as dates")
        default:
            throw ConversionError.expected("a date", found: value)
        }
    }

    /// A string that starts with a scheme, RFC 3986 `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`,
    /// and has something after it. Nothing else is checked: APIs send URLs that strict parsers refuse.
    private static func url(_ value: Value) throws(ConversionError) -> SQLValue {
        guard let text = value.stringValue else { throw ConversionError.expected("a URL", found: value) }
        guard hasScheme(text) else { throw ConversionError("\(value.shown!) is not a URL (it has no scheme)") }
        return .text(text)
    }

    static func hasScheme(_ text: String) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, ASCII.isLetter(first) else { return false }
        for (offset, byte) in bytes.enumerated().dropFirst() {
            if byte == ASCII.colon { return offset + 1 < bytes.count }
            guard ASCII.isLetter(byte) || ASCII.isDigit(byte) || byte == ASCII.plus || byte == ASCII.minus || byte == ASCII.period else { return false }
        }
        return false
    }

    /// Bytes as they are, or text read as strict base64, as `| base64` reads it (see `Base64`).
    private static func data(_ value: Value) throws(ConversionError) -> SQLValue {
        switch value {
        case .data(let bytes): return .blob(bytes)
        case .json(.string(let text)), .string(let text): return .blob(try Base64.bytes(of: text, shown: value.shown!))
        default:
            throw ConversionError.expected("base64 text", found: value)
        }
    }

    /// Any value as compact JSON text; converted values as the JSON they stand for.
    private static func json(_ value: Value) throws(ConversionError) -> SQLValue {
        switch value {
        case .json(let json): return .text(json.jsonText)
        case .string(let text): return .text(JSONValue.string(text).jsonText)
        case .int(let number): return .text(String(number))
        case .double(let number):
            guard number.isFinite else { throw ConversionError("\(value.shown!) cannot be written as JSON") }
            return .text(String(number))
        case .bool(let flag): return .text(flag ? "true" : "false")
        case .date(let timestamp): return .text(JSONValue.string(isoText(timestamp)).jsonText)
        case .data:
            throw ConversionError.expected("a JSON value", found: value)
        }
    }
}
