import GraphImportJSON
import GraphImportMapping

extension StandardConverters {
    /// The instants a converter may produce: 0000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z,
    /// so that every stored date has a four-digit year and dates sort as text.
    static let dateRange = Timestamp(milliseconds: -62_167_219_200_000)...Timestamp(milliseconds: 253_402_300_799_999)

    static let numberHint = "use `| epochSeconds` or `| epochMillis` for dates written as numbers"

    /// `epochSeconds`: seconds since 1970-01-01T00:00:00Z as a number or numeric text, whole or
    /// fractional (`1600000000`, `1600000000.5`, `"-86400"`, `1.6e9`) -> Date. Read exactly from the
    /// digits; below a millisecond it rounds down (toward the past).
    static let epochSeconds = Converter(name: "epochSeconds", summary: "seconds since 1970 (number or numeric text) -> Date") { value throws(ConversionError) in
        try epoch(value, powerOfTen: 3, unit: "seconds")
    }

    /// `epochMillis`: milliseconds since 1970-01-01T00:00:00Z as a number or numeric text
    /// (`1453580385000`, `"1453580385000"`) -> Date; a fraction of a millisecond rounds down.
    static let epochMillis = Converter(name: "epochMillis", summary: "milliseconds since 1970 (number or numeric text) -> Date") {
        value throws(ConversionError) in
        try epoch(value, powerOfTen: 0, unit: "milliseconds")
    }

    /// `epochMicros`: microseconds since 1970-01-01T00:00:00Z as a number or numeric text
    /// (`1453580385123456`, 16 digits today) -> Date; the part below a millisecond rounds down.
    static let epochMicros = Converter(name: "epochMicros", summary: "microseconds since 1970 (number or numeric text) -> Date") {
        value throws(ConversionError) in
        try epoch(value, powerOfTen: -3, unit: "microseconds")
    }

    /// `epochNanos`: nanoseconds since 1970-01-01T00:00:00Z as a number or numeric text
    /// (`1453580385123456789`, 19 digits today) -> Date; the part below a millisecond rounds down.
    static let epochNanos = Converter(name: "epochNanos", summary: "nanoseconds since 1970 (number or numeric text) -> Date") {
        value throws(ConversionError) in
        try epoch(value, powerOfTen: -6, unit: "nanoseconds")
    }

    /// `value × 10^powerOfTen` milliseconds since 1970, checked against `dateRange`.
    static func epoch(_ value: Value, powerOfTen: Int, unit: String) throws(ConversionError) -> Value {
        let text: String
        switch value {
        case .json(.number(let number)): text = number.literal
        case .json(.string(let string)), .string(let string): text = string
        case .int(let number): text = String(number)
        // The shortest text that reads back as the same Double: 0.1 is taken as "0.1", not 0.1000000000000000055…
        case .double(let number): text = String(number)
        default: throw ConversionError.expected("a number or numeric text", found: value)
        }
        if let timestamp = epochTimestamp(text, powerOfTen: powerOfTen) { return .date(timestamp) }
        if DecimalText.scaled(text, byPowerOfTen: powerOfTen) == .invalid {
            throw ConversionError("\(value.shown!) is not a number of \(unit) since 1970")
        }
        throw ConversionError("\(value.shown!) \(unit) since 1970 is out of range for a date (years 0000 to 9999)")
    }

    /// The instant of `text × 10^powerOfTen` milliseconds since 1970, or nil when the text is no
    /// number or the instant is outside `dateRange` (`epoch` then says which).
    static func epochTimestamp(_ text: String, powerOfTen: Int) -> Timestamp? {
        guard case .value(let milliseconds) = DecimalText.scaled(text, byPowerOfTen: powerOfTen) else { return nil }
        let timestamp = Timestamp(milliseconds: milliseconds)
        return dateRange.contains(timestamp) ? timestamp : nil
    }

    /// `iso8601`: ISO 8601 / RFC 3339 text -> Date: `2019-01-01`, `2011-04-22T13:33:48Z`,
    /// `2011-04-22 13:33:48.123+02:00`, `…+0200`, `…+02`, and the basic form `20110422T133348Z`,
    /// `20110422`; no zone means UTC. See `ISO8601Parser`.
    static let iso8601 = Converter(name: "iso8601", summary: "ISO 8601 text such as 2011-04-22T13:33:48Z -> Date (no zone: UTC)") {
        value throws(ConversionError) in
        let text = try requireDateText(value)
        do throws(DateParseFailure) {
            return .date(try ISO8601Parser.parse(text))
        } catch {
            throw conversionError(error, value: value, description: "an ISO 8601 date", hint: "expected \(ISO8601Parser.acceptedForms)")
        }
    }

    /// `date("EEE MMM dd HH:mm:ss Z yyyy")`: text in the given Unicode date pattern -> Date.
    /// The pattern is compiled once when the map is; see `DatePattern` for the fields it supports.
    static let date = Converter(
        signature: ConverterSignature(name: "date", parameters: [.string], summary: "text in a date pattern such as \"EEE MMM dd HH:mm:ss Z yyyy\" -> Date")
    ) { arguments throws(ConversionError) in
        let (pattern, description) = try datePattern(arguments)
        return { value throws(ConversionError) in try parse(value, with: pattern, as: description) }
    }

    /// The pattern of `date(format)`'s arguments, compiled, and the description its messages give.
    static func datePattern(_ arguments: [Literal]) throws(ConversionError) -> (pattern: DatePattern, description: String) {
        guard arguments.count == 1, case .string(let format) = arguments[0] else {
            throw ConversionError("date needs one format string, such as date(\"yyyy-MM-dd HH:mm:ss\")")
        }
        return (try DatePattern(format), "a date in the format \(MessageText.quoted(format))")
    }

    /// `rfc1123`: the HTTP / RSS date `Sun, 06 Nov 1994 08:49:37 GMT` -> Date. The day may have one
    /// digit; the zone may be GMT, UTC, UT, Z or a numeric offset such as `+0000` or `-0500`.
    static let rfc1123 = Converter(name: "rfc1123", summary: "RFC 1123 text such as Sun, 06 Nov 1994 08:49:37 GMT -> Date") { value throws(ConversionError) in
        try parse(value, with: rfc1123Pattern, as: "an RFC 1123 date", hint: "expected a date such as 'Sun, 06 Nov 1994 08:49:37 GMT'")
    }

    /// `EEE, d MMM yyyy HH:mm:ss` then a zone name or offset.
    static let rfc1123Pattern = DatePattern(
        pattern: "EEE, d MMM yyyy HH:mm:ss zzz",
        fields: [
            .weekdayName(full: false), .literal(Array(", ".utf8)),
            .number(.day, minimumDigits: 1, maximumDigits: 2), .literal([ASCII.space]),
            .monthName(full: false), .literal([ASCII.space]),
            .number(.year, minimumDigits: 4, maximumDigits: 4), .literal([ASCII.space]),
            .number(.hour, minimumDigits: 2, maximumDigits: 2), .literal([ASCII.colon]),
            .number(.minute, minimumDigits: 2, maximumDigits: 2), .literal([ASCII.colon]),
            .number(.second, minimumDigits: 2, maximumDigits: 2), .literal([ASCII.space]),
            .zoneNameOrOffset,
        ])

    /// Parses with a compiled pattern: "'…' is not <description>", with the reason when a field is out of range.
    static func parse(_ value: Value, with pattern: DatePattern, as description: String, hint: String? = nil) throws(ConversionError) -> Value {
        let text = try requireDateText(value)
        do throws(DateParseFailure) {
            return .date(try pattern.parse(text))
        } catch {
            throw conversionError(error, value: value, description: description, hint: hint)
        }
    }

    /// "'…' is not <description>" with the hint when the shape is wrong, with the reason when a field is out of range.
    static func conversionError(_ failure: DateParseFailure, value: Value, description: String, hint: String?) -> ConversionError {
        switch failure {
        case .malformed: ConversionError("\(value.shown!) is not \(description)", hint: hint)
        case .outOfRange(let reason): ConversionError("\(value.shown!) is not \(description) (\(reason))")
        }
    }

    /// The text of a date string, or "expected a string, found …" with a hint for numbers.
    static func requireDateText(_ value: Value) throws(ConversionError) -> String {
        guard let text = value.stringValue else {
            let isNumber =
                switch value {
                case .json(.number), .int, .double: true;
                default: false
                }
            throw ConversionError.expected("a string", found: value, hint: isNumber ? numberHint : nil)
        }
        return text
    }
}
