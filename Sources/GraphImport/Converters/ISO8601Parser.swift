/// Reads the ISO 8601 / RFC 3339 timestamps APIs write, over bytes, in the extended form
/// (with separators) or the basic form (without), never a mix of the two:
///
///     timestamp = extended / basic
///     extended  = YYYY "-" MM "-" DD [ ("T" / "t" / " ") HH ":" MM [ ":" SS [ fraction ] ] [ zone ] ]
///     basic     = YYYYMMDD [ ("T" / "t") HHMM [ SS [ fraction ] ] [ basicZone ] ]
///     fraction  = "." 1*9DIGIT
///     zone      = "Z" / "z" / ("+" / "-") HH [ [":"] MM ]
///     basicZone = "Z" / "z" / ("+" / "-") HH [ MM ]
///
/// A date alone must be complete: `2011-04` and `2011` are refused (they are `date("yyyy-MM")`'s),
/// and so is `201104` (ISO 8601 has no basic year-month). The basic form takes no space before the
/// time, so that two numbers side by side are not read as a date.
///
/// No zone means UTC (APIs that omit it nearly always mean UTC; the machine's zone would make an
/// import depend on where it runs). Fractions keep milliseconds and truncate the rest. Ranges are
/// checked: month 1–12, the day against its month (leap years included), hour 0–23 (`24:00` is
/// rejected), minute 0–59, second 0–60, where 60 (a leap second) is clamped to `:59.999`.
///
/// That is the `iso8601` converter's form. Metadata instants (`Form.instant`) are stricter about
/// what must be written and laxer about fractions; see `Form`.
enum ISO8601Parser {
    /// What a caller accepts within the grammar above.
    struct Form {
        /// The time and the zone must be written (no date alone, no local time taken as UTC).
        var needsTimeAndZone: Bool
        /// `,` may stand for `.` before the fraction, as ISO 8601 allows.
        var acceptsCommaFraction: Bool
        /// The most fraction digits read (all but three are dropped).
        var maxFractionDigits: Int
        /// Second 60 is clamped to `:59.999` rather than refused.
        var acceptsLeapSecond: Bool

        /// The map's `iso8601` converter (and a map's date literals).
        static let converter = Form(needsTimeAndZone: false, acceptsCommaFraction: false, maxFractionDigits: 9, acceptsLeapSecond: true)
        /// A metadata date (`graphimport meta set KEY VALUE --type date`): an instant, so the zone
        /// is required; any number of fraction digits, no leap second.
        static let instant = Form(needsTimeAndZone: true, acceptsCommaFraction: true, maxFractionDigits: .max, acceptsLeapSecond: false)
    }

    /// What the accepted forms look like, for the hint of a failed conversion.
    static let acceptedForms =
        "YYYY-MM-DD, YYYY-MM-DDTHH:MM, YYYY-MM-DDTHH:MM:SS or YYYY-MM-DDTHH:MM:SS.sss, optionally followed by Z or an offset such as +02:00;"
        + " or the same without separators (YYYYMMDD, YYYYMMDDTHHMMSS, offset +0200)"

    static func parse(_ text: String, form: Form = .converter) throws(DateParseFailure) -> Timestamp {
        try ByteScanner.withBytes(of: text) { bytes throws(DateParseFailure) in try parse(bytes: bytes, form: form) }
    }

    /// `parse(_:form:)` over UTF-8 bytes, such as a slot's (`JSONSlots.withBytes(at:)`), without a String.
    static func parse(bytes: UnsafeBufferPointer<UInt8>, form: Form = .converter) throws(DateParseFailure) -> Timestamp {
        var scanner = ByteScanner(bytes: bytes)
        let civil = try readTimestamp(&scanner, form: form)
        if civil.second == 60, !form.acceptsLeapSecond { throw .outOfRange("second 60 is out of range") }
        return try civil.timestamp()
    }

    /// `timestamp`, the whole text: the first separator (`-` after the year, or a digit) decides
    /// between the extended and the basic form for the rest.
    private static func readTimestamp(_ scanner: inout ByteScanner, form: Form) throws(DateParseFailure) -> CivilTime {
        var civil = CivilTime()
        guard let year = scanner.number(digits: 4, 4) else { throw .malformed }
        let extended = scanner.take(ASCII.minus)
        guard let month = scanner.number(digits: 2, 2), !extended || scanner.take(ASCII.minus),
            let day = scanner.number(digits: 2, 2)
        else { throw .malformed }
        (civil.year, civil.month, civil.day) = (year, month, day)
        if scanner.isAtEnd, !form.needsTimeAndZone { return civil }
        guard scanner.take(ASCII.upperT) || scanner.take(ASCII.lowerT) || (extended && scanner.take(ASCII.space)) else { throw .malformed }
        guard let hour = scanner.number(digits: 2, 2), !extended || scanner.take(ASCII.colon),
            let minute = scanner.number(digits: 2, 2)
        else { throw .malformed }
        (civil.hour, civil.minute) = (hour, minute)
        // Seconds follow a colon in the extended form, directly in the basic form.
        if extended ? scanner.take(ASCII.colon) : scanner.current.map(ASCII.isDigit) == true {
            guard let second = scanner.number(digits: 2, 2) else { throw .malformed }
            civil.second = second
            if scanner.take(ASCII.period) || (form.acceptsCommaFraction && scanner.take(ASCII.comma)) {
                guard let milliseconds = scanner.fractionMilliseconds(digits: 1, form.maxFractionDigits) else { throw .malformed }
                civil.millisecond = milliseconds
            }
        }
        if scanner.isAtEnd, !form.needsTimeAndZone { return civil }
        if scanner.take(ASCII.upperZ) || scanner.take(ASCII.lowerZ) {
            // UTC: the offset stays zero.
        } else if let offset = try scanner.offset(extended ? .hoursOptionalMinutes : .hoursOptionalPlainMinutes) {
            civil.offsetMinutes = offset
        } else {
            throw .malformed
        }
        guard scanner.isAtEnd else { throw .malformed }
        return civil
    }
}
