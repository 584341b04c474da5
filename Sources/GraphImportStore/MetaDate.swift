/// Metadata dates: ISO 8601 instants read over bytes and written in the one stored shape,
/// `YYYY-MM-DDTHH:MM:SS.sssZ` (UTC, milliseconds), so stored dates sort and compare as text.
enum MetaDate {
    /// True when `text` is already in the stored shape with every field in range.
    static func isStored(_ text: String) -> Bool {
        normalized(text) == text
    }

    /// `text` as a UTC instant in the stored shape, or nil when it is not an ISO 8601 date-time
    /// with a zone. Accepted:
    ///
    ///     YYYY-MM-DD(T|t| )HH:MM[:SS[(.|,)fraction]](Z|z|±HH|±HHMM|±HH:MM)
    ///
    /// Digits of the fraction after the third are dropped; the result must fall in years 0000-9999.
    static func normalized(_ text: String) -> String? {
        var scanner = Scanner(bytes: Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip(ASCIIByte.minus),
            let month = scanner.number(digits: 2), scanner.skip(ASCIIByte.minus),
            let day = scanner.number(digits: 2),
            scanner.skip(ASCIIByte.upperT) || scanner.skip(ASCIIByte.lowerT) || scanner.skip(ASCIIByte.space),
            let hour = scanner.number(digits: 2), scanner.skip(ASCIIByte.colon),
            let minute = scanner.number(digits: 2)
        else { return nil }
        var second = 0
        var millisecond = 0
        if scanner.skip(ASCIIByte.colon) {
            guard let seconds = scanner.number(digits: 2) else { return nil }
            second = seconds
            if scanner.skip(ASCIIByte.period) || scanner.skip(ASCIIByte.comma) {
                guard let fraction = scanner.fractionInMilliseconds() else { return nil }
                millisecond = fraction
            }
        }
        guard let offset = scanner.zoneOffsetInMinutes(), scanner.isAtEnd,
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let local = ((daysFromCivil(year: year, month: month, day: day) * 24 + hour) * 60 + minute) * 60 + second
        return format(millisecondsSinceEpoch: (local - offset * 60) * 1000 + millisecond)
    }

    /// The stored shape of an instant; nil outside years 0000-9999.
    static func format(millisecondsSinceEpoch milliseconds: Int) -> String? {
        let dayMilliseconds = 86_400_000
        let days = milliseconds >= 0 ? milliseconds / dayMilliseconds : (milliseconds + 1) / dayMilliseconds - 1
        let within = milliseconds - days * dayMilliseconds
        let (year, month, day) = civil(fromDays: days)
        guard (0...9999).contains(year) else { return nil }
        let second = within / 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(second / 3600, 2)):\(pad(second / 60 % 60, 2)):"
            + "\(pad(second % 60, 2)).\(pad(within % 1000, 3))Z"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day since 1970-01-01 (Howard Hinnant's civil_from_days).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// A cursor over the bytes of one date-time.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        /// Consumes `byte` if it is next.
        mutating func skip(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// Exactly `digits` decimal digits as a number.
        mutating func number(digits: Int) -> Int? {
            guard bytes.count - index >= digits else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard ASCIIByte.isDigit(byte) else { return nil }
                value = value * 10 + Int(byte - ASCIIByte.zero)
            }
            index += digits
            return value
        }

        /// One or more digits of a decimal fraction, as whole milliseconds (truncated).
        mutating func fractionInMilliseconds() -> Int? {
            var milliseconds = 0
            var count = 0
            while index < bytes.count, ASCIIByte.isDigit(bytes[index]) {
                if count < 3 { milliseconds = milliseconds * 10 + Int(bytes[index] - ASCIIByte.zero) }
                count += 1
                index += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 3) { milliseconds *= 10 }
            return milliseconds
        }

        /// `Z`, `z`, `±HH`, `±HHMM` or `±HH:MM` as minutes east of UTC.
        mutating func zoneOffsetInMinutes() -> Int? {
            if skip(ASCIIByte.upperZ) || skip(ASCIIByte.lowerZ) { return 0 }
            let sign: Int
            if skip(ASCIIByte.plus) {
                sign = 1
            } else if skip(ASCIIByte.minus) {
                sign = -1
            } else {
                return nil
            }
            guard let hours = number(digits: 2), hours < 24 else { return nil }
            var minutes = 0
            if !isAtEnd {
                _ = skip(ASCIIByte.colon)
                guard let digits = number(digits: 2), digits < 60 else { return nil }
                minutes = digits
            }
            return sign * (hours * 60 + minutes)
        }
    }
}
