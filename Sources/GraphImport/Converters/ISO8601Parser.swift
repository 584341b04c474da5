/// Reads the ISO 8601 / RFC 3339 timestamps APIs write, over bytes:
///
///     date      = YYYY "-" MM "-" DD
///     timestamp = date [ ("T" / "t" / " ") HH ":" MM [ ":" SS [ "." 1*9DIGIT ] ] [ zone ] ]
///     zone      = "Z" / "z" / ("+" / "-") HH [ [":"] MM ]
///
/// No zone means UTC (APIs that omit it nearly always mean UTC; the machine's zone would make an
/// import depend on where it runs). Fractions keep milliseconds and truncate the rest. Ranges are
/// checked: month 1–12, the day against its month (leap years included), hour 0–23 (`24:00` is
/// rejected), minute 0–59, second 0–60, where 60 (a leap second) is clamped to `:59.999`.
enum ISO8601Parser {
    /// What the accepted forms look like, for the hint of a failed conversion.
    static let acceptedForms =
        "YYYY-MM-DD, YYYY-MM-DDTHH:MM, YYYY-MM-DDTHH:MM:SS or YYYY-MM-DDTHH:MM:SS.sss, optionally followed by Z or an offset such as +02:00"

    static func parse(_ text: String) throws(DateParseFailure) -> Timestamp {
        let civil = try ByteScanner.scan(text) { scanner throws(DateParseFailure) in try readTimestamp(&scanner) }
        return try civil.timestamp()
    }

    /// `timestamp`, the whole text.
    private static func readTimestamp(_ scanner: inout ByteScanner) throws(DateParseFailure) -> CivilTime {
        var civil = CivilTime()
        guard let year = scanner.number(digits: 4, 4), scanner.take(ASCII.minus),
            let month = scanner.number(digits: 2, 2), scanner.take(ASCII.minus),
            let day = scanner.number(digits: 2, 2)
        else { throw .malformed }
        (civil.year, civil.month, civil.day) = (year, month, day)
        if scanner.isAtEnd { return civil }
        guard scanner.take(ASCII.upperT) || scanner.take(ASCII.lowerT) || scanner.take(ASCII.space) else { throw .malformed }
        guard let hour = scanner.number(digits: 2, 2), scanner.take(ASCII.colon),
            let minute = scanner.number(digits: 2, 2)
        else { throw .malformed }
        (civil.hour, civil.minute) = (hour, minute)
        if scanner.take(ASCII.colon) {
            guard let second = scanner.number(digits: 2, 2) else { throw .malformed }
            civil.second = second
            if scanner.take(ASCII.period) {
                guard let milliseconds = scanner.fractionMilliseconds(digits: 1, 9) else { throw .malformed }
                civil.millisecond = milliseconds
            }
        }
        if scanner.isAtEnd { return civil }
        if scanner.take(ASCII.upperZ) || scanner.take(ASCII.lowerZ) {
            // UTC: the offset stays zero.
        } else if let offset = try scanner.offset(.hoursOptionalMinutes) {
            civil.offsetMinutes = offset
        } else {
            throw .malformed
        }
        guard scanner.isAtEnd else { throw .malformed }
        return civil
    }
}
