/// A Unicode date pattern (`EEE MMM dd HH:mm:ss Z yyyy`) compiled once into a byte-level parser
/// (`steps`, see DatePattern+Steps.swift).
///
/// Supported fields, everything else an error when the map is compiled:
///
///     yyyy        4-digit year             EEE, EEEE   English weekday, read and ignored
///     yy          2-digit year, 69–99 is 1969–1999 and 00–68 is 2000–2068 (POSIX strptime's %y)
///     M, MM       month, 1–2 / 2 digits    a           AM or PM, with h or hh
///     MMM, MMMM   English month name       S…          fraction of a second, as many digits as S's
///     d, dd       day, 1–2 / 2 digits      Z, ZZ, ZZZ  +0000 or Z
///     H, HH       hour 0–23                ZZZZZ, XXX  +00:00 or Z
///     h, hh       hour 1–12 (needs a)      X, XX       +00, +0000 or Z / +0000 or Z
///     m, mm       minute                   z, zz, zzz  GMT, UTC, UT or Z
///     s, ss       second                   'text'      literal text; '' is a quote
///
/// Other characters match themselves. Names ignore ASCII case. A pattern must have a year; it may
/// stop there (`yyyy`) or at the month (`yyyy-MM`), and what it leaves out is the first: January,
/// day 1, 00:00. A day needs a month, and a time or a weekday needs a day.
struct DatePattern: Sendable {
    /// The pattern as written, for messages.
    let pattern: String
    /// What the pattern says, field by field: what `format` writes and what the map's checks read.
    let fields: [Field]
    /// `fields` as `read` follows them.
    let steps: [Step]

    /// One piece of a compiled pattern.
    enum Field: Equatable, Sendable {
        case literal([UInt8])
        case number(NumberField, minimumDigits: Int, maximumDigits: Int)
        case monthName(full: Bool)
        case weekdayName(full: Bool)
        case fraction(digits: Int)
        case dayPeriod
        case offset(ByteScanner.OffsetForm)
        case zoneName
        /// RFC 1123's zone: a name (`GMT`) or a numeric offset (`+0000`), as HTTP and RSS write it.
        case zoneNameOrOffset
    }

    /// The numeric fields a pattern can hold.
    enum NumberField: Equatable, Sendable {
        case year, twoDigitYear, month, day, hour, hour12, minute, second
    }

    /// The first two-digit year read as 19xx: POSIX `strptime`'s `%y` (and glibc's, and Python's)
    /// reads 69–99 as 1969–1999 and 00–68 as 2000–2068, a fixed window that does not move with the
    /// clock as ICU's does, so that the same feed always imports to the same dates.
    static let twoDigitYearPivot = 69

    /// The full year of a two-digit `yy`.
    static func fullYear(twoDigits value: Int) -> Int {
        value >= twoDigitYearPivot ? 1900 + value : 2000 + value
    }

    /// Compiles `pattern`; throws naming the first unsupported field.
    init(_ pattern: String) throws(ConversionError) {
        self.pattern = pattern
        self.fields = try DatePattern.compile(pattern)
        self.steps = DatePattern.steps(fields)
    }

    /// A pattern built from fields directly (RFC 1123's zone has no pattern letter).
    init(pattern: String, fields: [Field]) {
        self.pattern = pattern
        self.fields = fields
        self.steps = DatePattern.steps(fields)
    }

    /// Reads `text`, which must match the whole pattern.
    func parse(_ text: String) throws(DateParseFailure) -> Timestamp {
        try ByteScanner.withBytes(of: text) { bytes throws(DateParseFailure) in try parse(bytes: bytes) }
    }

    /// `parse(_:)` over UTF-8 bytes, such as a slot's (`JSONSlots.withBytes(at:)`), without a String.
    func parse(bytes: UnsafeBufferPointer<UInt8>) throws(DateParseFailure) -> Timestamp {
        try read(bytes).timestamp()
    }

    /// Splits the pattern into letter runs, quoted text and other characters, and maps each run to a field.
    private static func compile(_ pattern: String) throws(ConversionError) -> [Field] {
        let bytes = Array(pattern.utf8)
        var fields: [Field] = []
        var index = 0
        func appendLiteral(_ byte: UInt8) {
            if case .literal(var text)? = fields.last {
                text.append(byte)
                fields[fields.count - 1] = .literal(text)
            } else {
                fields.append(.literal([byte]))
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if ASCII.isLetter(byte) {
                var end = index
                while end < bytes.count, bytes[end] == byte { end += 1 }
                fields.append(try field(letter: byte, count: end - index, pattern: pattern))
                index = end
            } else if byte == ASCII.apostrophe {
                index += 1
                if index < bytes.count, bytes[index] == ASCII.apostrophe {  // '' outside quotes
                    appendLiteral(ASCII.apostrophe)
                    index += 1
                    continue
                }
                while true {
                    guard index < bytes.count else {
                        throw ConversionError("unterminated quote in date format \(MessageText.quoted(pattern))")
                    }
                    if bytes[index] == ASCII.apostrophe {
                        if index + 1 < bytes.count, bytes[index + 1] == ASCII.apostrophe {
                            appendLiteral(ASCII.apostrophe)
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    appendLiteral(bytes[index])
                    index += 1
                }
            } else {
                appendLiteral(byte)
                index += 1
            }
        }
        try checkCompleteness(fields, pattern: pattern)
        return fields
    }

    /// The field for a run of `count` copies of a pattern letter.
    private static func field(letter: UInt8, count: Int, pattern: String) throws(ConversionError) -> Field {
        switch (UnicodeScalar(letter), count) {
        case ("y", 4): return .number(.year, minimumDigits: 4, maximumDigits: 4)
        case ("y", 2): return .number(.twoDigitYear, minimumDigits: 2, maximumDigits: 2)
        case ("M", 1): return .number(.month, minimumDigits: 1, maximumDigits: 2)
        case ("M", 2): return .number(.month, minimumDigits: 2, maximumDigits: 2)
        case ("M", 3): return .monthName(full: false)
        case ("M", 4): return .monthName(full: true)
        case ("d", 1...2): return .number(.day, minimumDigits: count, maximumDigits: 2)
        case ("H", 1...2): return .number(.hour, minimumDigits: count, maximumDigits: 2)
        case ("h", 1...2): return .number(.hour12, minimumDigits: count, maximumDigits: 2)
        case ("m", 1...2): return .number(.minute, minimumDigits: count, maximumDigits: 2)
        case ("s", 1...2): return .number(.second, minimumDigits: count, maximumDigits: 2)
        case ("S", 1...9): return .fraction(digits: count)
        case ("E", 1...3): return .weekdayName(full: false)
        case ("E", 4): return .weekdayName(full: true)
        case ("a", 1): return .dayPeriod
        case ("Z", 1...3): return .offset(.hoursAndMinutes)
        case ("Z", 5): return .offset(.hoursColonMinutes)
        case ("X", 1): return .offset(.hoursOptionalPlainMinutes)
        case ("X", 2): return .offset(.hoursAndMinutes)
        case ("X", 3): return .offset(.hoursColonMinutes)
        case ("z", 1...3): return .zoneName
        default:
            let run = String(repeating: String(UnicodeScalar(letter)), count: count)
            throw ConversionError(
                "unsupported field '\(run)' in date format \(MessageText.quoted(pattern))",
                hint:
                    "supported fields are yyyy, yy, M, MM, MMM, MMMM, d, dd, H, HH, h, hh, a, m, mm, s, ss, S…, EEE, EEEE, Z, ZZZZZ, X, XX, XXX, zzz; quote literal letters as in 'T'"
            )
        }
    }

    /// A date needs a year; a day needs a month; a time or a weekday needs a day (`yyyy-MM HH:mm`
    /// names no instant); a 12-hour clock needs AM/PM and the reverse.
    private static func checkCompleteness(_ fields: [Field], pattern: String) throws(ConversionError) {
        func has(_ match: (Field) -> Bool) -> Bool { fields.contains(where: match) }
        let quoted = MessageText.quoted(pattern)
        let hasYear = has {
            switch $0 {
            case .number(.year, _, _), .number(.twoDigitYear, _, _): true
            default: false
            }
        }
        guard hasYear else {
            throw ConversionError("date format \(quoted) has no year (yyyy or yy)")
        }
        let hasMonth = has { if case .number(.month, _, _) = $0 { true } else if case .monthName = $0 { true } else { false } }
        let hasDay = has { if case .number(.day, _, _) = $0 { true } else { false } }
        if hasDay, !hasMonth {
            throw ConversionError("date format \(quoted) has no month (MM or MMM)")
        }
        if !hasDay {
            let hasTime = has {
                switch $0 {
                case .number(.hour, _, _), .number(.hour12, _, _), .number(.minute, _, _), .number(.second, _, _), .fraction, .dayPeriod: true
                default: false
                }
            }
            if hasTime { throw ConversionError("date format \(quoted) has a time but no day (dd)") }
            if has({ if case .weekdayName = $0 { true } else { false } }) {
                throw ConversionError("date format \(quoted) has a weekday (EEE) but no day (dd)")
            }
        }
        let hasHour12 = has { if case .number(.hour12, _, _) = $0 { true } else { false } }
        if hasHour12 != has({ $0 == .dayPeriod }) {
            throw ConversionError(
                hasHour12
                    ? "date format \(quoted) has h (1–12) but no AM/PM (a); use HH for 0–23" : "date format \(quoted) has AM/PM (a) but no 12-hour hour (h)")
        }
    }
}
