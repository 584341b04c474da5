/// The fields of a date as the store keeps it, `YYYY-MM-DDTHH:MM:SS.sssZ` (UTC), read back from
/// its text so that a template can format it without a calendar library.
///
/// Years outside 0000–9999 are read in ISO 8601's expanded form (`+10000-…`, `-0001-…`), the way
/// `Coercion.isoText` writes them.
struct StoredDate: Equatable {
    var year: Int
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int
    var millisecond: Int

    /// The fields of stored date text, or nil when the text has another shape.
    init?(_ text: String) {
        var bytes = text.utf8[...]
        var sign = 1
        if let first = bytes.first, first == ASCII.plus || first == ASCII.minus {
            sign = first == ASCII.minus ? -1 : 1
            bytes = bytes.dropFirst()
        }
        let yearDigits = bytes.prefix(while: ASCII.isDigit).count
        guard yearDigits >= 4, yearDigits <= 9, let year = Self.number(bytes.prefix(yearDigits)) else { return nil }
        bytes = bytes.dropFirst(yearDigits)
        // After the year: "-MM-DDTHH:MM:SS.sssZ", separators at fixed places.
        let rest = Array(bytes)
        guard rest.count == 20, rest[0] == ASCII.minus, rest[3] == ASCII.minus, rest[6] == ASCII.upperT,
            rest[9] == ASCII.colon, rest[12] == ASCII.colon, rest[15] == ASCII.period, rest[19] == ASCII.upperZ,
            let month = Self.number(rest[1..<3]), let day = Self.number(rest[4..<6]), let hour = Self.number(rest[7..<9]),
            let minute = Self.number(rest[10..<12]), let second = Self.number(rest[13..<15]), let millisecond = Self.number(rest[16..<19]),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        self.year = sign * year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.millisecond = millisecond
    }

    /// 0 for Sunday through 6 for Saturday, from the days since 1970-01-01, which was a Thursday.
    var weekday: Int {
        let days = Self.daysSinceEpoch(year: year, month: month, day: day)
        return ((days % 7) + 7 + 4) % 7
    }

    /// Days from 1970-01-01 to the date in the proleptic Gregorian calendar (negative before it).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        Int(CivilTime.days(year: Int64(year), month: Int64(month), day: Int64(day)))
    }

    /// The decimal value of ASCII digits, or nil if any byte is not a digit.
    private static func number<Bytes: Collection<UInt8>>(_ digits: Bytes) -> Int? {
        var value = 0
        for byte in digits {
            guard ASCII.isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - ASCII.zero)
        }
        return value
    }
}
