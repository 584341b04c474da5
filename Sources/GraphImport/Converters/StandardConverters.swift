import GraphImportJSON
import GraphImportMapping

/// The built-in converters, a name-to-function table in the manner of Yams' `Constructor`.
///
/// Each is documented with what it accepts; anything else is a `ConversionError` naming the value.
/// JSON `null` never reaches them: `ConverterCatalog.compile` passes it through unchanged.
enum StandardConverters {
    static let all: [Converter] = [
        epochSeconds, epochMillis, epochMicros, epochNanos, iso8601, date, rfc1123,
        int, double, bool, yesNo, string,
        trim, lowercase, uppercase, nullIfEmpty, nullIfFalse,
        base64, utf8,
    ]

    /// `int`: integer text (`"42"`, `"-7"`, `"+3"`; not `"4.0"`, `" 4"` or `"1e3"`), or a number that is
    /// exactly an integer (`1`, `1.0`, `1e0`) -> Int. Exact to 64 bits: a fraction or a value outside
    /// Int64 is an error, never rounded.
    static let int = Converter(name: "int", summary: "integer text or a whole number -> Int (exact, 64-bit)") { value throws(ConversionError) in
        switch value {
        case .int:
            return value
        case .json(.number(let number)):
            if let exact = number.exactInt64 { return .int(exact) }
            // Not an exact Int64: either a fraction or too large; flooring tells them apart.
            if DecimalText.scaled(number.literal, byPowerOfTen: 0) == .outOfRange { throw outOfRangeForInt(value) }
            throw ConversionError("\(value.shown!) is not an integer")
        case .double(let number):
            guard number.rounded(.towardZero) == number else { throw ConversionError("\(value.shown!) is not an integer") }
            guard let exact = Int64(exactly: number) else { throw outOfRangeForInt(value) }
            return .int(exact)
        case .json(.string(let text)), .string(let text):
            switch DecimalText.integer(text) {
            case .value(let exact): return .int(exact)
            case .outOfRange: throw outOfRangeForInt(value)
            case .invalid: throw ConversionError("\(value.shown!) is not an integer")
            }
        default:
            throw ConversionError.expected("a string or a number", found: value)
        }
    }

    static func outOfRangeForInt(_ value: Value) -> ConversionError {
        ConversionError("\(value.shown!) is out of range for Int (64-bit)")
    }

    /// `double`: a number, or numeric text (`"3.25"`, `"-1e-3"`, `"+2"`; no spaces, `nan` or `inf`)
    /// -> Double, the nearest one. A value too large for a Double is an error, not infinity.
    static let double = Converter(name: "double", summary: "numeric text or a number -> Double") { value throws(ConversionError) in
        let result: Double
        switch value {
        case .double: return value
        case .int(let number): return .double(Double(number))
        case .json(.number(let number)): result = number.double
        case .json(.string(let text)), .string(let text):
            guard DecimalText.isNumber(text), let parsed = Double(text) else {
                throw ConversionError("\(value.shown!) is not a number")
            }
            result = parsed
        default:
            throw ConversionError.expected("a string or a number", found: value)
        }
        guard result.isFinite else { throw ConversionError("\(value.shown!) is out of range for Double") }
        return .double(result)
    }

    /// `bool`: `true`/`false` (ignoring ASCII case) or `"1"`/`"0"` as text, the numbers 1 and 0,
    /// or a JSON boolean -> Bool. Anything else (`"yes"`, `2`, `""`) is an error.
    static let bool = Converter(name: "bool", summary: "true/false/1/0 as text, 1/0, or a boolean -> Bool") { value throws(ConversionError) in
        guard let text = value.stringValue else { return try boolean(notText: value) }
        switch text.lowercased() {
        case "true", "1": return .bool(true)
        case "false", "0": return .bool(false)
        default:
            // Point to the converter that opts in when the text is one of its words.
            let hint = yesNoWord(text) != nil ? "add `| yesNo` instead of `| bool` to read yes/no, y/n, on/off and t/f" : nil
            throw ConversionError("\(value.shown!) is not a boolean (expected true, false, 1 or 0)", hint: hint)
        }
    }

    /// What `bool` and `yesNo` make of a value that is not text: a boolean, or the number 1 or 0.
    static func boolean(notText value: Value) throws(ConversionError) -> Value {
        switch value {
        case .bool: return value
        case .json(.bool(let flag)): return .bool(flag)
        case .json(.number(let number)):
            switch number.exactInt64 {
            case 1: return .bool(true)
            case 0: return .bool(false)
            default: throw ConversionError("\(value.shown!) is not a boolean (expected 1 or 0)")
            }
        case .int(let number):
            guard number == 0 || number == 1 else { throw ConversionError("\(number) is not a boolean (expected 1 or 0)") }
            return .bool(number == 1)
        default:
            throw ConversionError.expected("a string, a number or a boolean", found: value)
        }
    }

    /// `yesNo`: what `bool` accepts, and the words people write for yes and no, ignoring ASCII case:
    /// `yes`/`no`, `y`/`n`, `on`/`off`, `t`/`f` (PostgreSQL's boolean input) -> Bool. Opt in: a map
    /// says it where a feed writes flags as words. Anything else is an error naming the value.
    static let yesNo = Converter(name: "yesNo", summary: "yes/no, y/n, on/off, t/f, true/false, 1/0 (any case), 1/0, or a boolean -> Bool") {
        value throws(ConversionError) in
        guard let text = value.stringValue else { return try boolean(notText: value) }
        guard let flag = yesNoWord(text) else {
            throw ConversionError("\(value.shown!) is not a boolean (expected yes, no, y, n, on, off, t, f, true, false, 1 or 0)")
        }
        return .bool(flag)
    }

    /// The flag a word of `yesNo` stands for, ignoring ASCII case, or nil.
    static func yesNoWord(_ text: String) -> Bool? {
        // The words are short and ASCII: longer or other text is refused without lowercasing it.
        guard text.utf8.count <= 5, text.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        switch text.lowercased() {
        case "true", "t", "yes", "y", "on", "1": return true
        case "false", "f", "no", "n", "off", "0": return false
        default: return nil
        }
    }

    /// `string`: a number as its literal text (`1.50` stays `"1.50"`), a boolean as `"true"`/`"false"`,
    /// a date as its ISO text, a string unchanged -> String. Objects and arrays are errors.
    static let string = Converter(name: "string", summary: "a number, boolean or string as text -> String") { value throws(ConversionError) in
        switch value {
        case .string: return value
        case .json(.string(let text)): return .string(text)
        case .json(.number(let number)): return .string(number.literal)
        case .json(.bool(let flag)), .bool(let flag): return .string(flag ? "true" : "false")
        case .int(let number): return .string(String(number))
        case .double(let number): return .string(String(number))
        case .date(let timestamp): return .string(Coercion.isoText(timestamp))
        default: throw ConversionError.expected("a string, a number or a boolean", found: value)
        }
    }
}
