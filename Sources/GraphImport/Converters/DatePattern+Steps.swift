/// A date pattern's fields compiled into steps that read bytes directly: each numeric field a
/// fixed count of digit bytes (or one to two), each name a three-letter word packed into an
/// integer and compared with the packed names, each literal up to eight bytes in one word. No
/// step holds a reference, so reading a date retains and allocates nothing.
extension DatePattern {
    /// One step of reading: what to read and, for a literal, its bytes.
    struct Step: Sendable {
        enum Operation: UInt8, Sendable {
            case literal
            case year, twoDigitYear, month, day, hour, hour12, minute, second
            case monthAbbreviation, monthName, weekdayAbbreviation, weekdayName
            case fraction, dayPeriod, offset, zoneName, zoneNameOrOffset
        }

        var operation: Operation
        /// Digits at least (a number, a fraction), or a literal's length (1–8).
        var minimum: Int8 = 0
        /// Digits at most (a number).
        var maximum: Int8 = 0
        var offsetForm: ByteScanner.OffsetForm = .hoursAndMinutes
        /// A literal's bytes, the first in the lowest byte.
        var word: UInt64 = 0
    }

    /// The steps of `fields`, in order; a literal longer than eight bytes becomes several steps.
    static func steps(_ fields: [Field]) -> [Step] {
        var steps: [Step] = []
        for field in fields {
            switch field {
            case .literal(let bytes):
                var start = 0
                while start < bytes.count {
                    let piece = bytes[start..<min(start + 8, bytes.count)]
                    var word: UInt64 = 0
                    for (shift, byte) in piece.enumerated() { word |= UInt64(byte) << (8 * shift) }
                    steps.append(Step(operation: .literal, minimum: Int8(piece.count), word: word))
                    start += 8
                }
            case .number(let which, let minimum, let maximum):
                let operation: Step.Operation =
                    switch which {
                    case .year: .year
                    case .twoDigitYear: .twoDigitYear
                    case .month: .month
                    case .day: .day
                    case .hour: .hour
                    case .hour12: .hour12
                    case .minute: .minute
                    case .second: .second
                    }
                steps.append(Step(operation: operation, minimum: Int8(minimum), maximum: Int8(maximum)))
            case .monthName(let full): steps.append(Step(operation: full ? .monthName : .monthAbbreviation))
            case .weekdayName(let full): steps.append(Step(operation: full ? .weekdayName : .weekdayAbbreviation))
            case .fraction(let digits): steps.append(Step(operation: .fraction, minimum: Int8(digits), maximum: Int8(digits)))
            case .dayPeriod: steps.append(Step(operation: .dayPeriod))
            case .offset(let form): steps.append(Step(operation: .offset, offsetForm: form))
            case .zoneName: steps.append(Step(operation: .zoneName))
            case .zoneNameOrOffset: steps.append(Step(operation: .zoneNameOrOffset))
            }
        }
        return steps
    }

    /// Reads the whole of `bytes` by the steps; the fields as written, not yet checked as an instant.
    func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(DateParseFailure) -> CivilTime {
        var scanner = ByteScanner(bytes: bytes)
        var civil = CivilTime()
        var hour12 = -1
        var afternoon = false
        for index in steps.indices {
            let step = steps[index]
            switch step.operation {
            case .literal:
                guard scanner.take(word: step.word, count: Int(step.minimum)) else { throw .malformed }
            case .year, .twoDigitYear, .month, .day, .hour, .hour12, .minute, .second:
                guard let value = scanner.digits(Int(step.minimum), Int(step.maximum)) else { throw .malformed }
                switch step.operation {
                case .year: civil.year = value
                case .twoDigitYear: civil.year = DatePattern.fullYear(twoDigits: value)
                case .month: civil.month = value
                case .day: civil.day = value
                case .hour: civil.hour = value
                case .hour12: hour12 = value
                case .minute: civil.minute = value
                default: civil.second = value
                }
            case .monthAbbreviation, .monthName:
                let names = step.operation == .monthName ? EnglishCalendarNames.monthNames : nil
                guard let month = scanner.englishName(EnglishCalendarNames.monthWords, full: names) else { throw .malformed }
                civil.month = month + 1
            case .weekdayAbbreviation, .weekdayName:
                let names = step.operation == .weekdayName ? EnglishCalendarNames.weekdayNames : nil
                guard scanner.englishName(EnglishCalendarNames.weekdayWords, full: names) != nil else { throw .malformed }
            case .fraction:
                guard let milliseconds = scanner.fractionMilliseconds(digits: Int(step.minimum), Int(step.minimum)) else { throw .malformed }
                civil.millisecond = milliseconds
            case .dayPeriod:
                guard let period = scanner.dayPeriod() else { throw .malformed }
                afternoon = period
            case .offset:
                if scanner.take(ASCII.upperZ) { break }
                guard let offset = try scanner.offset(step.offsetForm) else { throw .malformed }
                civil.offsetMinutes = offset
            case .zoneName:
                guard scanner.utcName() else { throw .malformed }
            case .zoneNameOrOffset:
                if scanner.utcName() { break }
                guard let offset = try scanner.offset(.hoursAndMinutes) else { throw .malformed }
                civil.offsetMinutes = offset
            }
        }
        guard scanner.isAtEnd else { throw .malformed }
        if hour12 >= 0 {
            guard (1...12).contains(hour12) else { throw .outOfRange("hour \(hour12) is out of range for a 12-hour clock") }
            civil.hour = hour12 % 12 + (afternoon ? 12 : 0)
        }
        return civil
    }
}
