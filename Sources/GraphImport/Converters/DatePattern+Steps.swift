/// A date pattern's fields compiled into steps that read bytes directly: each field with the
/// literal before it (up to eight bytes in one word), each numeric field a fixed count of digit
/// bytes (or one to two), each name a three-letter word packed into an integer and compared with
/// the packed names. No step holds a reference: reading a date allocates nothing, and retains
/// nothing but a full name's bytes (`MMMM`, `EEEE`).
extension DatePattern {
    /// One step of reading: the literal bytes before a field, then the field.
    struct Step: Sendable {
        enum Operation: UInt8, Sendable {
            /// The literal alone (the end of a pattern, or a literal longer than eight bytes).
            case literalOnly
            case year, twoDigitYear, month, day, hour, hour12, minute, second
            case monthAbbreviation, monthName, weekdayAbbreviation, weekdayName
            case fraction, dayPeriod, offset, zoneName, zoneNameOrOffset
        }

        var operation: Operation
        /// Digits at least (a number, a fraction).
        var minimum: Int8 = 0
        /// Digits at most (a number).
        var maximum: Int8 = 0
        var offsetForm: ByteScanner.OffsetForm = .hoursAndMinutes
        /// How many bytes of `literal` come first (0–8).
        var literalCount: Int8 = 0
        /// The literal before the field, its first byte the lowest.
        var literal: UInt64 = 0
    }

    /// The steps of `fields`, in order: each literal joins the field after it, eight bytes at
    /// most; a longer literal, or one at the end, has steps of its own.
    static func steps(_ fields: [Field]) -> [Step] {
        var steps: [Step] = []
        var pending: [UInt8] = []
        func append(_ operation: Step.Operation, _ minimum: Int = 0, _ maximum: Int = 0, _ form: ByteScanner.OffsetForm = .hoursAndMinutes) {
            while pending.count > 8 {
                steps.append(Step(operation: .literalOnly, literalCount: 8, literal: word(pending.prefix(8))))
                pending.removeFirst(8)
            }
            steps.append(
                Step(
                    operation: operation, minimum: Int8(minimum), maximum: Int8(maximum), offsetForm: form, literalCount: Int8(pending.count),
                    literal: word(pending)))
            pending.removeAll()
        }
        func word(_ bytes: some Collection<UInt8>) -> UInt64 {
            var word: UInt64 = 0
            for (index, byte) in bytes.enumerated() { word |= UInt64(byte) << (8 * index) }
            return word
        }
        for field in fields {
            switch field {
            case .literal(let bytes): pending += bytes
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
                append(operation, minimum, maximum)
            case .monthName(let full): append(full ? .monthName : .monthAbbreviation)
            case .weekdayName(let full): append(full ? .weekdayName : .weekdayAbbreviation)
            case .fraction(let digits): append(.fraction, digits, digits)
            case .dayPeriod: append(.dayPeriod)
            case .offset(let form): append(.offset, 0, 0, form)
            case .zoneName: append(.zoneName)
            case .zoneNameOrOffset: append(.zoneNameOrOffset)
            }
        }
        if !pending.isEmpty { append(.literalOnly) }
        return steps
    }

    /// Reads the whole of `bytes` by the steps; the fields as written, not yet checked as an instant.
    func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(DateParseFailure) -> CivilTime {
        var scanner = ByteScanner(bytes: bytes)
        var civil = CivilTime()
        var hour12 = -1  // none read: a read number is never negative
        var afternoon = false
        for index in steps.indices {
            let step = steps[index]
            if step.literalCount > 0, !scanner.take(word: step.literal, count: Int(step.literalCount)) { throw .malformed }
            switch step.operation {
            case .literalOnly: break
            case .year, .twoDigitYear, .month, .day, .hour, .hour12, .minute, .second:
                guard let value = scanner.number(digits: Int(step.minimum), Int(step.maximum)) else { throw .malformed }
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
                guard let month = scanner.englishName(EnglishCalendarNames.month(word:), full: names) else { throw .malformed }
                civil.month = month + 1
            case .weekdayAbbreviation, .weekdayName:
                let names = step.operation == .weekdayName ? EnglishCalendarNames.weekdayNames : nil
                guard scanner.englishName(EnglishCalendarNames.weekday(word:), full: names) != nil else { throw .malformed }
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
