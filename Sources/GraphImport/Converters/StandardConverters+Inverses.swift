import GraphImportJSON
import GraphImportMapping

extension StandardConverters {
    /// The inverse of each built-in converter, as `graphimport export` writes a stored value back
    /// (Mappings/README.md, "Export", lists them):
    ///
    ///     epochSeconds … epochNanos   the number of that unit (exact: 1.5 seconds, not 1.4999…)
    ///     date("P"), rfc1123         text in the pattern, in UTC (zone written +0000, +00:00 or GMT)
    ///     iso8601                    the stored ISO 8601 text (UTC, milliseconds)
    ///     utf8                       the bytes as text
    ///     base64                     the bytes as base64 (what a Data attribute writes anyway)
    ///     int, double, bool, yesNo, string
    ///                                the stored value as JSON of its type, which they read as itself
    ///     trim, lowercase, uppercase the stored text (the original's spaces or case are gone; the
    ///                                text imports to the same value)
    ///     nullIfEmpty, nullIfFalse   the stored value, `null` for NULL
    static func inverse(of name: String) -> ConverterInverse {
        switch name {
        case "epochSeconds": .function { _ throws(ConversionError) in { epochNumber($0, digitsBelowUnit: 3) } }
        case "epochMillis": .function { _ throws(ConversionError) in { epochNumber($0, digitsBelowUnit: 0) } }
        case "epochMicros": .function { _ throws(ConversionError) in { epochNumber($0, digitsBelowUnit: -3) } }
        case "epochNanos": .function { _ throws(ConversionError) in { epochNumber($0, digitsBelowUnit: -6) } }
        case "date":
            .function { arguments throws(ConversionError) in
                guard arguments.count == 1, case .string(let format) = arguments[0] else { throw ConversionError("date needs one format string") }
                let pattern = try DatePattern(format)
                return { value in formatted(value, with: pattern) }
            }
        case "rfc1123":
            .function { _ throws(ConversionError) in
                // HTTP's own form: a two-digit day and GMT (RFC 9110, IMF-fixdate).
                let pattern = try DatePattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'")
                return { formatted($0, with: pattern) }
            }
        case "utf8":
            .function { _ throws(ConversionError) in
                { value in
                    guard case .data(let bytes) = value else { return value }
                    return .string(String(decoding: bytes, as: UTF8.self))
                }
            }
        case "iso8601", "base64", "int", "double", "bool", "yesNo", "string", "trim", "lowercase", "uppercase", "nullIfEmpty", "nullIfFalse":
            .storedValue
        default: .none("it declares no inverse")
        }
    }

    /// A date as a number of units since 1970, from its milliseconds: `digitsBelowUnit` is how
    /// many of the millisecond digits are a fraction of the unit (3 for seconds), or minus the
    /// zeros to add (-3 for microseconds). Written as decimal text, so that nothing is rounded.
    static func epochNumber(_ value: Value, digitsBelowUnit: Int) -> Value {
        guard case .date(let timestamp) = value else { return value }
        let negative = timestamp.milliseconds < 0
        var digits = String(timestamp.milliseconds.magnitude)
        var literal: String
        if digitsBelowUnit <= 0 {
            literal = timestamp.milliseconds == 0 ? "0" : digits + String(repeating: "0", count: -digitsBelowUnit)
        } else {
            if digits.count <= digitsBelowUnit { digits = String(repeating: "0", count: digitsBelowUnit - digits.count + 1) + digits }
            let split = digits.index(digits.endIndex, offsetBy: -digitsBelowUnit)
            literal = String(digits[..<split])
            let fraction = digits[split...].reversed().drop { $0 == "0" }.reversed()
            if !fraction.isEmpty { literal += "." + String(fraction) }
        }
        if negative { literal = "-" + literal }
        return .json(.number(JSONNumber(literal: literal)))
    }

    /// A date as text in `pattern`; any other value unchanged.
    static func formatted(_ value: Value, with pattern: DatePattern) -> Value {
        guard case .date(let timestamp) = value else { return value }
        return .string(pattern.format(timestamp))
    }
}
