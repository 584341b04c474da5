import GraphImport
import GraphImportJSON
import GraphImportMapping
import Testing

/// Generated dates read by the date converters and written by `Coercion.isoText`, compared with a
/// reference that counts days year by year and month by month (no shared arithmetic with
/// `CivilTime`), over every field's range, leap years, zones, fractions and names in any case.
@Suite struct DateConversionPropertyTests {
    /// A date and time as the generator writes it, with its zone's offset in minutes.
    struct Fields {
        var year, month, day, hour, minute, second, millisecond, offsetMinutes: Int

        /// Milliseconds since 1970 of these fields, the reference way.
        var milliseconds: Int64 {
            var days: Int64 = 0
            if year >= 1970 {
                for each in 1970..<year { days += Fields.isLeap(each) ? 366 : 365 }
            } else {
                for each in year..<1970 { days -= Fields.isLeap(each) ? 366 : 365 }
            }
            for each in 1..<month { days += Int64(Fields.length(month: each, year: year)) }
            days += Int64(day - 1)
            let seconds = Int64(hour * 3600 + minute * 60 + second - offsetMinutes * 60)
            return days * 86_400_000 + seconds * 1000 + Int64(millisecond)
        }

        static func isLeap(_ year: Int) -> Bool { year % 400 == 0 || (year % 4 == 0 && year % 100 != 0) }

        static func length(month: Int, year: Int) -> Int {
            [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        }

        /// Random fields with a valid day; years `years`, an offset up to ±23:59 when `zoned`.
        static func random(_ random: inout GraphRandom, years: ClosedRange<Int>, zoned: Bool) -> Fields {
            let year = years.lowerBound + random.next(years.count)
            let month = 1 + random.next(12)
            // Month ends and leap days often: they are where day arithmetic goes wrong.
            let day = random.chance(1, in: 3) ? length(month: month, year: year) - random.next(2) : 1 + random.next(length(month: month, year: year))
            let offset = zoned ? (random.chance(1, in: 4) ? 0 : random.next(2 * 1439 + 1) - 1439) : 0
            return Fields(
                year: year, month: month, day: day, hour: random.next(24), minute: random.next(60), second: random.next(60),
                millisecond: random.next(1000), offsetMinutes: offset)
        }
    }

    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// `+hhmm`, or `+hh:mm` with `colon`.
    static func offset(_ minutes: Int, colon: Bool) -> String {
        (minutes < 0 ? "-" : "+") + pad(abs(minutes) / 60, 2) + (colon ? ":" : "") + pad(abs(minutes) % 60, 2)
    }

    /// `name` with each letter's case chosen at random: names ignore ASCII case.
    static func anyCase(_ name: String, _ random: inout GraphRandom) -> String {
        String(name.map { random.chance(1, in: 4) ? Character($0.uppercased() == String($0) ? $0.lowercased() : $0.uppercased()) : $0 })
    }

    static func convert(_ text: String, _ name: String, _ arguments: [Literal] = []) -> Result<Value, ConversionError> {
        let call = ConverterCall(name: name, arguments: arguments, location: SourceLocation(line: 1, column: 1, offset: 0))
        return Result { () throws(ConversionError) -> Value in try ConverterCatalog.standard.compile(call)(.json(.string(text))) }
    }

    @Test func twitterPatternReadsGeneratedDatesAsTheReferenceDoes() {
        var random = GraphRandom(state: 34)
        let pattern = "EEE MMM dd HH:mm:ss Z yyyy"
        for _ in 0..<4000 {
            var fields = Fields.random(&random, years: 0...9999, zoned: true)
            fields.millisecond = 0
            let weekday = Self.weekdays[random.next(7)]  // read and ignored
            let text =
                "\(Self.anyCase(String(weekday.prefix(3)), &random)) \(Self.anyCase(String(Self.months[fields.month - 1].prefix(3)), &random)) "
                + "\(Self.pad(fields.day, 2)) \(Self.pad(fields.hour, 2)):\(Self.pad(fields.minute, 2)):\(Self.pad(fields.second, 2)) "
                + "\(Self.offset(fields.offsetMinutes, colon: false)) \(Self.pad(fields.year, 4))"
            let expected = Timestamp(milliseconds: fields.milliseconds)
            guard let read = try? Self.convert(text, "date", [.string(pattern)]).get(), case .date(let instant) = read else {
                Issue.record("\(text) was refused")
                continue
            }
            #expect(instant == expected, "\(text)")
        }
    }

    @Test func longNamesFractionsAndColonOffsetsReadAsTheReferenceDoes() {
        var random = GraphRandom(state: 3434)
        let pattern = "EEEE, d MMMM yyyy HH:mm:ss.SSS XXX"
        for _ in 0..<2000 {
            let fields = Fields.random(&random, years: 0...9999, zoned: true)
            let zone = fields.offsetMinutes == 0 && random.chance(1, in: 2) ? "Z" : Self.offset(fields.offsetMinutes, colon: true)
            let text =
                "\(Self.anyCase(Self.weekdays[random.next(7)], &random)), \(fields.day) \(Self.anyCase(Self.months[fields.month - 1], &random)) "
                + "\(Self.pad(fields.year, 4)) \(Self.pad(fields.hour, 2)):\(Self.pad(fields.minute, 2)):\(Self.pad(fields.second, 2))."
                + "\(Self.pad(fields.millisecond, 3)) \(zone)"
            #expect((try? Self.convert(text, "date", [.string(pattern)]).get()) == .date(Timestamp(milliseconds: fields.milliseconds)), "\(text)")
        }
    }

    @Test func iso8601ReadsGeneratedDatesAsTheReferenceDoes() {
        var random = GraphRandom(state: 8601)
        for _ in 0..<2000 {
            var fields = Fields.random(&random, years: 0...9999, zoned: true)
            // Up to nine fraction digits; those past the third are dropped, never rounded.
            let digits = 1 + random.next(9)
            var fraction = Self.pad(fields.millisecond, 3)
            while fraction.count < digits { fraction += String(random.next(10)) }
            fraction = String(fraction.prefix(digits))
            fields.millisecond = Int(fraction.prefix(3))! * [100, 10, 1][min(digits, 3) - 1]
            let zone = fields.offsetMinutes == 0 ? "Z" : Self.offset(fields.offsetMinutes, colon: random.chance(1, in: 2))
            let text =
                "\(Self.pad(fields.year, 4))-\(Self.pad(fields.month, 2))-\(Self.pad(fields.day, 2))T"
                + "\(Self.pad(fields.hour, 2)):\(Self.pad(fields.minute, 2)):\(Self.pad(fields.second, 2)).\(fraction)\(zone)"
            #expect((try? Self.convert(text, "iso8601").get()) == .date(Timestamp(milliseconds: fields.milliseconds)), "\(text)")
        }
    }

    @Test func dayPastItsMonthIsRefusedWithTheMonthAndYearNamed() {
        var random = GraphRandom(state: 29)
        for _ in 0..<500 {
            let year = random.next(10000)
            let month = 1 + random.next(12)
            let day = Fields.length(month: month, year: year) + 1 + random.next(32 - Fields.length(month: month, year: year))
            guard day <= 99 else { continue }
            let text = "Wed \(String(Self.months[month - 1].prefix(3))) \(Self.pad(day, 2)) 10:00:00 +0000 \(Self.pad(year, 4))"
            let message =
                "'\(text)' is not a date in the format 'EEE MMM dd HH:mm:ss Z yyyy' (\(Self.months[month - 1]) \(Self.pad(year, 4)) has no day \(day))"
            guard case .failure(let error) = Self.convert(text, "date", [.string("EEE MMM dd HH:mm:ss Z yyyy")]) else {
                Issue.record("\(text) was read")
                continue
            }
            #expect(error.message == message)
        }
    }

    @Test func isoTextWritesGeneratedInstantsAsTheReferenceDoes() {
        var random = GraphRandom(state: 24)
        // Past 0000-9999 too: those years are written the expanded way (`+10000-…`, `-0001-…`).
        for _ in 0..<4000 {
            let fields = Fields.random(&random, years: -1200...12000, zoned: false)
            let year = (0...9999).contains(fields.year) ? Self.pad(fields.year, 4) : fields.year > 9999 ? "+\(fields.year)" : "-" + Self.pad(-fields.year, 4)
            let expected =
                "\(year)-\(Self.pad(fields.month, 2))-\(Self.pad(fields.day, 2))T\(Self.pad(fields.hour, 2)):\(Self.pad(fields.minute, 2)):"
                + "\(Self.pad(fields.second, 2)).\(Self.pad(fields.millisecond, 3))Z"
            #expect(Coercion.isoText(Timestamp(milliseconds: fields.milliseconds)) == expected)
        }
    }
}
