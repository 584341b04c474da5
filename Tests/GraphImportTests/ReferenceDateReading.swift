@testable import GraphImport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The date reading and writing of main at 189a488, kept here as the reference the compiled
// steps are compared with (DatePatternStepsTests): its field loop over `DatePattern.fields`, the
// byte scanner it read with, and the ISO text written piece by piece.

/// The byte scanner `DatePattern.read` used at 189a488.
struct ReferenceScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    var isAtEnd: Bool { position == bytes.count }
    var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func take(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        position += 1
        return true
    }

    mutating func take(_ literal: [UInt8]) -> Bool {
        guard bytes.count - position >= literal.count else { return false }
        let matches = literal.withUnsafeBufferPointer { literal in
            literal.isEmpty || memcmp(bytes.baseAddress! + position, literal.baseAddress!, literal.count) == 0
        }
        if matches { position += literal.count }
        return matches
    }

    mutating func number(digits minimum: Int, _ maximum: Int) -> Int? {
        var value = 0
        var count = 0
        while count < maximum, let byte = current, ASCII.isDigit(byte) {
            value = value * 10 + Int(byte - ASCII.zero)
            count += 1
            position += 1
        }
        return count >= minimum ? value : nil
    }

    mutating func fractionMilliseconds(digits minimum: Int, _ maximum: Int) -> Int? {
        var milliseconds = 0
        var count = 0
        while count < maximum, let byte = current, ASCII.isDigit(byte) {
            if count < 3 { milliseconds = milliseconds * 10 + Int(byte - ASCII.zero) }
            count += 1
            position += 1
        }
        guard count >= minimum else { return nil }
        for _ in count..<max(count, 3) { milliseconds *= 10 }
        return milliseconds
    }

    mutating func name(in names: [[UInt8]]) -> Int? {
        let rest = bytes.count - position
        for index in names.indices {
            let name = names[index]
            guard name.count <= rest else { continue }
            if name.indices.allSatisfy({ ASCII.lowercased(bytes[position + $0]) == ASCII.lowercased(name[$0]) }) {
                position += name.count
                return index
            }
        }
        return nil
    }

    mutating func offset(_ form: ByteScanner.OffsetForm) throws(DateParseFailure) -> Int? {
        guard let sign = current, sign == ASCII.plus || sign == ASCII.minus else { return nil }
        position += 1
        guard let hours = number(digits: 2, 2) else { return nil }
        let hasMinutes: Bool
        switch form {
        case .hoursAndMinutes: hasMinutes = true
        case .hoursColonMinutes:
            guard take(ASCII.colon) else { return nil }
            hasMinutes = true
        case .hoursOptionalMinutes: hasMinutes = take(ASCII.colon) || current.map(ASCII.isDigit) == true
        case .hoursOptionalPlainMinutes: hasMinutes = current.map(ASCII.isDigit) == true
        }
        var minutes = 0
        if hasMinutes {
            guard let value = number(digits: 2, 2) else { return nil }
            minutes = value
        }
        guard hours <= 23 else { throw .outOfRange("zone offset hour \(hours) is out of range") }
        guard minutes <= 59 else { throw .outOfRange("zone offset minute \(minutes) is out of range") }
        let total = hours * 60 + minutes
        return sign == ASCII.minus ? -total : total
    }
}

enum ReferenceDates {
    static let dayPeriods: [[UInt8]] = [Array("AM".utf8), Array("PM".utf8)]
    static let utcNames: [[UInt8]] = ["GMT", "UTC", "UT", "Z"].map { Array($0.utf8) }
    static let months = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]
    static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let monthAbbreviations: [[UInt8]] = months.map { Array($0.utf8.prefix(3)) }
    static let monthNames: [[UInt8]] = months.map { Array($0.utf8) }
    static let weekdayAbbreviations: [[UInt8]] = weekdays.map { Array($0.utf8.prefix(3)) }
    static let weekdayNames: [[UInt8]] = weekdays.map { Array($0.utf8) }

    /// `DatePattern.parse(_:)` at 189a488: the fields read in turn, then the instant.
    static func parse(_ text: String, fields: [DatePattern.Field]) -> Result<Timestamp, DateParseFailure> {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var scanner = ReferenceScanner(bytes: UnsafeBufferPointer(buffer))
            return Result { () throws(DateParseFailure) -> Timestamp in try read(&scanner, fields: fields).timestamp() }
        }
    }

    private static func read(_ scanner: inout ReferenceScanner, fields: [DatePattern.Field]) throws(DateParseFailure) -> CivilTime {
        var civil = CivilTime()
        var hour12: Int?
        var afternoon = false
        for field in fields {
            switch field {
            case .literal(let bytes):
                guard scanner.take(bytes) else { throw .malformed }
            case .number(let which, let minimum, let maximum):
                guard let value = scanner.number(digits: minimum, maximum) else { throw .malformed }
                switch which {
                case .year: civil.year = value
                case .twoDigitYear: civil.year = value >= 69 ? 1900 + value : 2000 + value
                case .month: civil.month = value
                case .day: civil.day = value
                case .hour: civil.hour = value
                case .hour12: hour12 = value
                case .minute: civil.minute = value
                case .second: civil.second = value
                }
            case .monthName(let full):
                guard let index = scanner.name(in: full ? monthNames : monthAbbreviations) else { throw .malformed }
                civil.month = index + 1
            case .weekdayName(let full):
                guard scanner.name(in: full ? weekdayNames : weekdayAbbreviations) != nil else { throw .malformed }
            case .fraction(let digits):
                guard let milliseconds = scanner.fractionMilliseconds(digits: digits, digits) else { throw .malformed }
                civil.millisecond = milliseconds
            case .dayPeriod:
                guard let index = scanner.name(in: dayPeriods) else { throw .malformed }
                afternoon = index == 1
            case .offset(let form):
                if scanner.take(ASCII.upperZ) { break }
                guard let offset = try scanner.offset(form) else { throw .malformed }
                civil.offsetMinutes = offset
            case .zoneName:
                guard scanner.name(in: utcNames) != nil else { throw .malformed }
            case .zoneNameOrOffset:
                if scanner.name(in: utcNames) != nil { break }
                guard let offset = try scanner.offset(.hoursAndMinutes) else { throw .malformed }
                civil.offsetMinutes = offset
            }
        }
        guard scanner.isAtEnd else { throw .malformed }
        if let hour12 {
            guard (1...12).contains(hour12) else { throw .outOfRange("hour \(hour12) is out of range for a 12-hour clock") }
            civil.hour = hour12 % 12 + (afternoon ? 12 : 0)
        }
        return civil
    }

    /// `Coercion.isoText` at 189a488.
    static func isoText(_ timestamp: Timestamp) -> String {
        let civil = CivilTime(timestamp)
        let year =
            (0...9999).contains(civil.year)
            ? CivilTime.pad(civil.year, 4) : civil.year > 9999 ? "+" + String(civil.year) : "-" + CivilTime.pad(-civil.year, 4)
        return year + "-" + CivilTime.pad(civil.month, 2) + "-" + CivilTime.pad(civil.day, 2)
            + "T" + CivilTime.pad(civil.hour, 2) + ":" + CivilTime.pad(civil.minute, 2) + ":" + CivilTime.pad(civil.second, 2)
            + "." + CivilTime.pad(civil.millisecond, 3) + "Z"
    }
}
