/// A date and time as written (proleptic Gregorian calendar), before it becomes an instant.
///
/// Day arithmetic follows Howard Hinnant's `days_from_civil` / `civil_from_days`
/// (http://howardhinnant.github.io/date_algorithms.html), exact for every Int64 day count used here.
struct CivilTime: Equatable {
    var year = 1970
    var month = 1
    var day = 1
    var hour = 0
    var minute = 0
    var second = 0
    var millisecond = 0
    /// The written zone's offset from UTC in minutes (`+02:00` is 120); the instant is local time minus this.
    var offsetMinutes = 0

    static let millisecondsPerDay: Int64 = 86_400_000

    /// Checks every field and returns the instant, or why the fields name no instant.
    ///
    /// A leap second (`:60`) is accepted and clamped to the last millisecond of its minute, `23:59:59.999`
    /// for `23:59:60`: the instant stays in the right minute and day and sorts before the next one.
    func timestamp() throws(DateParseFailure) -> Timestamp {
        guard (1...12).contains(month) else { throw .outOfRange("month \(month) is out of range") }
        let monthLength = CivilTime.daysIn(month: month, year: year)
        guard day >= 1, day <= monthLength else {
            throw .outOfRange("\(EnglishCalendarNames.months[month - 1]) \(CivilTime.yearText(year)) has no day \(day)")
        }
        guard (0...23).contains(hour) else { throw .outOfRange("hour \(hour) is out of range") }
        guard (0...59).contains(minute) else { throw .outOfRange("minute \(minute) is out of range") }
        guard (0...60).contains(second) else { throw .outOfRange("second \(second) is out of range") }
        let (second, millisecond) = second == 60 ? (59, 999) : (second, millisecond)
        let days = CivilTime.days(year: Int64(year), month: Int64(month), day: Int64(day))
        let seconds = Int64(hour) * 3600 + Int64(minute) * 60 + Int64(second) - Int64(offsetMinutes) * 60
        return Timestamp(milliseconds: days * CivilTime.millisecondsPerDay + seconds * 1000 + Int64(millisecond))
    }

    /// The UTC date and time of an instant; the inverse of `timestamp()` for offset zero.
    init(_ timestamp: Timestamp) {
        let (days, remainder) = CivilTime.floorDivide(timestamp.milliseconds, CivilTime.millisecondsPerDay)
        let (year, month, day) = CivilTime.civil(days: days)
        self.year = Int(year)
        self.month = Int(month)
        self.day = Int(day)
        hour = Int(remainder / 3_600_000)
        minute = Int(remainder / 60_000 % 60)
        second = Int(remainder / 1000 % 60)
        millisecond = Int(remainder % 1000)
    }

    init() {}

    static func isLeapYear(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a civil date.
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a count of days since 1970-01-01.
    static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Quotient rounded toward negative infinity and the matching non-negative remainder.
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// A year as four digits, as ISO 8601 writes years 0000 to 9999.
    static func yearText(_ year: Int) -> String { pad(year, 4) }

    /// A non-negative number with leading zeros to `width` digits.
    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// Why a date string names no instant; the converter turns it into a `ConversionError`.
enum DateParseFailure: Error, Equatable {
    /// The text does not have the expected shape.
    case malformed
    /// The shape is right but a field is not (`month 13 is out of range`).
    case outOfRange(String)
}

/// English month and weekday names, the ones APIs write (`Wed Dec 09 …`, `06 Nov 1994`).
enum EnglishCalendarNames {
    static let months = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]
    static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let monthNames: [[UInt8]] = months.map { Array($0.utf8) }
    static let weekdayNames: [[UInt8]] = weekdays.map { Array($0.utf8) }

    /// The month (0 for January) whose first three letters `word` holds as `ByteScanner.nextWord()`
    /// packs them (lower case, the first letter lowest); the first three letters tell the months apart.
    static func month(word: UInt32) -> Int? {
        switch word {
        case 0x6E_616A: 0  // jan
        case 0x62_6566: 1  // feb
        case 0x72_616D: 2  // mar
        case 0x72_7061: 3  // apr
        case 0x79_616D: 4  // may
        case 0x6E_756A: 5  // jun
        case 0x6C_756A: 6  // jul
        case 0x67_7561: 7  // aug
        case 0x70_6573: 8  // sep
        case 0x74_636F: 9  // oct
        case 0x76_6F6E: 10  // nov
        case 0x63_6564: 11  // dec
        default: nil
        }
    }

    /// The weekday (0 for Monday) whose first three letters `word` holds, as `month(word:)`.
    static func weekday(word: UInt32) -> Int? {
        switch word {
        case 0x6E_6F6D: 0  // mon
        case 0x65_7574: 1  // tue
        case 0x64_6577: 2  // wed
        case 0x75_6874: 3  // thu
        case 0x69_7266: 4  // fri
        case 0x74_6173: 5  // sat
        case 0x6E_7573: 6  // sun
        default: nil
        }
    }
}
