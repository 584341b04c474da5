import GraphImport
import GraphImportJSON
import GraphImportMapping
import Testing

// Expected instants were computed with Python's datetime, independently of this code:
//   (datetime(2015,12,9,19,40,11,tzinfo=timezone.utc) - datetime(1970,1,1,tzinfo=timezone.utc)) in ms.

private func convert(_ value: Value, _ name: String, _ arguments: [Literal] = []) throws(ConversionError) -> Value {
    let call = ConverterCall(name: name, arguments: arguments, location: SourceLocation(line: 1, column: 1, offset: 0))
    return try ConverterCatalog.standard.compile(call)(value)
}

/// The whole error (message and hint) a conversion or its compilation throws, or nil when it succeeds.
private func failure(_ value: Value, _ name: String, _ arguments: [Literal] = []) -> ConversionError? {
    do throws(ConversionError) {
        _ = try convert(value, name, arguments)
        return nil
    } catch {
        return error
    }
}

private func text(_ string: String) -> Value { .json(.string(string)) }
private func number(_ literal: String) -> Value { .json(.number(JSONNumber(literal: literal))) }
private func date(_ milliseconds: Int64) -> Value { .date(Timestamp(milliseconds: milliseconds)) }

private let isoHint =
    "expected YYYY-MM-DD, YYYY-MM-DDTHH:MM, YYYY-MM-DDTHH:MM:SS or YYYY-MM-DDTHH:MM:SS.sss, optionally followed by Z or an offset such as +02:00;"
    + " or the same without separators (YYYYMMDD, YYYYMMDDTHHMMSS, offset +0200)"
private let twitter = "EEE MMM dd HH:mm:ss Z yyyy"

@Suite struct DateParsingTests {
    // MARK: iso8601

    static let isoDates: [(String, Int64)] = [
        ("2011-04-22T13:33:48Z", 1_303_479_228_000),
        ("2011-04-22T13:33:48.123+02:00", 1_303_472_028_123),
        ("2011-04-22T13:33:48-0530", 1_303_499_028_000),
        ("2011-04-22T13:33:48-05", 1_303_497_228_000),
        ("2011-04-22 13:33:48z", 1_303_479_228_000),
        ("2011-04-22t13:33:48", 1_303_479_228_000),
        ("2019-01-01", 1_546_300_800_000),
        ("2020-02-29T12:00", 1_582_977_600_000),
        ("2000-02-29", 951_782_400_000),
        ("1900-03-01", -2_203_891_200_000),
        ("1969-07-20T20:17:40Z", -14_182_940_000),
        ("1970-01-01T00:00:00Z", 0),
        ("2015-06-30T23:59:59.999Z", 1_435_708_799_999),
        ("2015-06-30T23:59:60Z", 1_435_708_799_999),  // leap second clamped to :59.999
        ("2015-06-30T23:59:59.9999999Z", 1_435_708_799_999),  // truncated, not rounded into July
        ("2011-04-22T13:33:48.1Z", 1_303_479_228_100),
        ("2011-04-22T13:33:48.12Z", 1_303_479_228_120),
        ("0001-01-01", -62_135_596_800_000),
        ("9999-12-31T23:59:59.999", 253_402_300_799_999),
    ]

    @Test(arguments: isoDates)
    func iso8601ReadsDatesTimesFractionsAndOffsets(input: String, milliseconds: Int64) throws {
        #expect(try convert(text(input), "iso8601") == date(milliseconds))
    }

    // The basic form (no separators), computed with Python's datetime like the rest.
    static let basicISODates: [(String, Int64)] = [
        ("20110422T133348Z", 1_303_479_228_000),
        ("20110422T133348.123+0200", 1_303_472_028_123),
        ("20110422", 1_303_430_400_000),
        ("20110422t1333", 1_303_479_180_000),
        ("20110422T133348-05", 1_303_497_228_000),
        ("20110422T133348-0530", 1_303_499_028_000),
        ("20110422T133348z", 1_303_479_228_000),
        ("20150630T235959.9999999Z", 1_435_708_799_999),
        ("20150630T235960Z", 1_435_708_799_999),
        ("20000229", 951_782_400_000),
        ("00000101", -62_167_219_200_000),
        ("99991231T235959.999Z", 253_402_300_799_999),
    ]

    @Test(arguments: basicISODates)
    func iso8601ReadsTheBasicForm(input: String, milliseconds: Int64) throws {
        #expect(try convert(text(input), "iso8601") == date(milliseconds))
    }

    static let malformedISODates = [
        "", "2019", "2019-1-01", "2019-01-1", "19-01-01", "2019/01/01", "2019-01-01T", "2019-01-01T12",
        "2019-01-01T12:00:", "2019-01-01T12:00:00.", "2019-01-01T12:00:00.1234567890Z", "2019-01-01T12:00Zjunk",
        "2019-01-01T12:00:00+2", "2019-01-01T12:00:00+02:0", "2019-01-01x", "Sat Jan 3", " 2019-01-01",
        // Reduced precision is `date("yyyy-MM")`'s, not ISO's here.
        "2019-01", "201901",
        // A lone third offset digit is refused, not read as `+02` and junk.
        "2019-01-01T12:00:00+023", "20190101T120000+023",
        // Basic form: incomplete, or mixed with the extended form.
        "2011042", "201104221", "20110422T", "20110422T13", "20110422T133", "20110422T13334", "20110422T13334Z",
        "20110422T133348.", "20110422T1333Zjunk", "20110422T133348+02:00", "20110422T13:33:48Z", "2011-04-22T133348Z",
        "2011-0422", "201104-22", "20110422 133348", "20110422T133348,5Z",
    ]

    @Test(arguments: malformedISODates)
    func iso8601RejectsOtherShapes(input: String) {
        #expect(failure(text(input), "iso8601") == ConversionError("'\(input)' is not an ISO 8601 date", hint: isoHint))
    }

    static let impossibleISODates: [(String, String)] = [
        ("2019-02-29", "'2019-02-29' is not an ISO 8601 date (February 2019 has no day 29)"),
        ("1900-02-29", "'1900-02-29' is not an ISO 8601 date (February 1900 has no day 29)"),
        ("2019-04-31", "'2019-04-31' is not an ISO 8601 date (April 2019 has no day 31)"),
        ("2019-01-00", "'2019-01-00' is not an ISO 8601 date (January 2019 has no day 0)"),
        ("2019-13-01", "'2019-13-01' is not an ISO 8601 date (month 13 is out of range)"),
        ("2019-00-10", "'2019-00-10' is not an ISO 8601 date (month 0 is out of range)"),
        ("2019-01-01T24:00:00", "'2019-01-01T24:00:00' is not an ISO 8601 date (hour 24 is out of range)"),
        ("2019-01-01T12:60", "'2019-01-01T12:60' is not an ISO 8601 date (minute 60 is out of range)"),
        ("2019-01-01T12:00:61", "'2019-01-01T12:00:61' is not an ISO 8601 date (second 61 is out of range)"),
        ("2019-01-01T12:00+24:00", "'2019-01-01T12:00+24:00' is not an ISO 8601 date (zone offset hour 24 is out of range)"),
        ("2019-01-01T12:00+01:60", "'2019-01-01T12:00+01:60' is not an ISO 8601 date (zone offset minute 60 is out of range)"),
    ]

    /// Every prefix of a full timestamp, in both forms: only those that end where the grammar may
    /// end are dates, every other is refused as malformed (never read short, never out of bounds).
    @Test(arguments: [
        ("2011-04-22T13:33:48.123+02:00", [10, 16, 19, 21, 22, 23, 26, 29]),
        ("20110422T133348.123+0200", [8, 13, 15, 17, 18, 19, 22, 24]),
    ])
    func iso8601AcceptsOnlyCompletePrefixes(full: String, complete: [Int]) {
        for length in 0...full.utf8.count {
            let prefix = String(full.prefix(length))
            let error = failure(text(prefix), "iso8601")
            if complete.contains(length) {
                #expect(error == nil, "\(prefix)")
            } else {
                #expect(error == ConversionError("'\(prefix)' is not an ISO 8601 date", hint: isoHint), "\(prefix)")
            }
        }
    }

    static let impossibleBasicISODates: [(String, String)] = [
        ("20190229", "'20190229' is not an ISO 8601 date (February 2019 has no day 29)"),
        ("20191301", "'20191301' is not an ISO 8601 date (month 13 is out of range)"),
        ("20190101T240000", "'20190101T240000' is not an ISO 8601 date (hour 24 is out of range)"),
        ("20190101T1260", "'20190101T1260' is not an ISO 8601 date (minute 60 is out of range)"),
        ("20190101T1200+2400", "'20190101T1200+2400' is not an ISO 8601 date (zone offset hour 24 is out of range)"),
    ]

    @Test(arguments: impossibleBasicISODates)
    func iso8601RejectsBasicFieldsOutOfRange(input: String, message: String) {
        #expect(failure(text(input), "iso8601")?.message == message)
    }

    @Test(arguments: impossibleISODates)
    func iso8601RejectsFieldsOutOfRange(input: String, message: String) {
        #expect(failure(text(input), "iso8601")?.message == message)
    }

    @Test func dateConvertersPointNumbersToTheEpochConverters() {
        let expected = ConversionError(
            "expected a string, found a number (1453580385)", hint: "use `| epochSeconds` or `| epochMillis` for dates written as numbers")
        #expect(failure(number("1453580385"), "iso8601") == expected)
        #expect(failure(number("1453580385"), "rfc1123") == expected)
        #expect(failure(.json(.bool(true)), "date", [.string(twitter)]) == ConversionError("expected a string, found a boolean (true)"))
    }

    // MARK: date(format)

    @Test func datePatternReadsTwitterTimestamps() throws {
        #expect(try convert(text("Wed Dec 09 19:40:11 +0000 2015"), "date", [.string(twitter)]) == date(1_449_690_011_000))
    }

    static let patternDates: [(String, String, Int64)] = [
        (twitter, "Wed Dec 09 19:40:11 +0000 2015", 1_449_690_011_000),
        (twitter, "wed dec 09 19:40:11 Z 2015", 1_449_690_011_000),
        (twitter, "Tue Jun 10 04:00:00 -0500 2003", 1_055_235_600_000),
        ("yyyy-MM-dd'T'HH:mm:ss.SSSZZZZZ", "2011-04-22T13:33:48.123+02:00", 1_303_472_028_123),
        ("yyyy-MM-dd'T'HH:mm:ssXXX", "2011-04-22T13:33:48Z", 1_303_479_228_000),
        ("yyyy-MM-dd'T'HH:mm:ssX", "2011-04-22T13:33:48-05", 1_303_497_228_000),
        ("yyyy-MM-dd'T'HH:mm:ssXX", "2011-04-22T13:33:48-0530", 1_303_499_028_000),
        ("MMMM d, yyyy h:mm a", "March 5, 2021 7:05 PM", 1_614_971_100_000),
        ("yyyy-MM-dd hh:mm a", "2021-03-05 12:30 AM", 1_614_904_200_000),
        ("yyyy-MM-dd hh:mm a", "2021-03-05 12:30 pm", 1_614_947_400_000),
        ("EEEE, dd/MM/yyyy HH:mm zzz", "Saturday, 29/02/2020 12:00 UTC", 1_582_977_600_000),
        ("d.M.yyyy", "29.2.2000", 951_782_400_000),
        ("yyyyMMddHHmmss", "20090213233130", 1_234_567_890_000),
        ("'at' HH:mm 'on' yyyy-MM-dd", "at 20:17 on 1969-07-20", -14_182_980_000),
        ("dd MMM yyyy ''HH''", "06 Nov 1994 '08'", 784_108_800_000),
        // A year alone, or a year and a month: the rest is the first (January, day 1, 00:00 UTC).
        ("yyyy", "2011", 1_293_840_000_000),
        ("yyyy-MM", "2011-04", 1_301_616_000_000),
        ("yyyyMM", "201104", 1_301_616_000_000),
        ("MMMM yyyy", "April 2011", 1_301_616_000_000),
        ("MMM yyyy", "apr 2011", 1_301_616_000_000),
        ("yyyy-M", "2011-4", 1_301_616_000_000),
        ("yyyy", "1970", 0),
        ("yyyy", "0000", -62_167_219_200_000),
        ("yyyy-MM", "9999-12", 253_399_622_400_000),
        ("'FY'yyyy", "FY2000", 946_684_800_000),
        ("yyyy-MM Z", "2011-04 +0200", 1_301_608_800_000),
        // `yy` pivots as POSIX strptime's %y: 69–99 are 1969–1999, 00–68 are 2000–2068.
        ("dd/MM/yy", "31/12/68", 3_124_137_600_000),
        ("dd/MM/yy", "01/01/69", -31_536_000_000),
        ("dd/MM/yy", "01/01/00", 946_684_800_000),
        ("dd/MM/yy", "31/12/99", 946_598_400_000),
        ("yyMMdd", "700101", 0),
        ("dd-MMM-yy HH:mm", "22-Apr-11 13:33", 1_303_479_180_000),
    ]

    @Test(arguments: patternDates)
    func datePatternReadsItsFields(format: String, input: String, milliseconds: Int64) throws {
        #expect(try convert(text(input), "date", [.string(format)]) == date(milliseconds))
    }

    static let patternMismatches: [(String, String, String)] = [
        (twitter, "Sat Jan 3", "'Sat Jan 3' is not a date in the format 'EEE MMM dd HH:mm:ss Z yyyy'"),
        (twitter, "Wed Dec 09 19:40:11 +0000 2015 ", "'Wed Dec 09 19:40:11 +0000 2015 ' is not a date in the format 'EEE MMM dd HH:mm:ss Z yyyy'"),
        (twitter, "Wed Dec 9 19:40:11 +0000 2015", "'Wed Dec 9 19:40:11 +0000 2015' is not a date in the format 'EEE MMM dd HH:mm:ss Z yyyy'"),
        (twitter, "Wed Dec 09 19:40:11 +00:00 2015", "'Wed Dec 09 19:40:11 +00:00 2015' is not a date in the format 'EEE MMM dd HH:mm:ss Z yyyy'"),
        (
            twitter, "Wed Feb 30 19:40:11 +0000 2015",
            "'Wed Feb 30 19:40:11 +0000 2015' is not a date in the format 'EEE MMM dd HH:mm:ss Z yyyy' (February 2015 has no day 30)"
        ),
        ("yyyy-MM-dd", "2015-1-01", "'2015-1-01' is not a date in the format 'yyyy-MM-dd'"),
        // Text that ends inside a name or a literal: refused, nothing read past its end.
        (twitter, "Wed De", "'Wed De' is not a date in the format 'EEE MMM dd HH:mm:ss Z yyyy'"),
        (twitter, "W", "'W' is not a date in the format 'EEE MMM dd HH:mm:ss Z yyyy'"),
        (twitter, "", "'' is not a date in the format 'EEE MMM dd HH:mm:ss Z yyyy'"),
        ("yyyy-MM-dd 'at' HH:mm", "2021-03-05 a", "'2021-03-05 a' is not a date in the format 'yyyy-MM-dd \\'at\\' HH:mm'"),
        (
            "yyyy-MM-dd hh:mm a", "2021-03-05 13:30 PM",
            "'2021-03-05 13:30 PM' is not a date in the format 'yyyy-MM-dd hh:mm a' (hour 13 is out of range for a 12-hour clock)"
        ),
        (
            "yyyy-MM-dd hh:mm a", "2021-03-05 00:30 AM",
            "'2021-03-05 00:30 AM' is not a date in the format 'yyyy-MM-dd hh:mm a' (hour 0 is out of range for a 12-hour clock)"
        ),
        ("yyyy-MM-dd zzz", "2021-03-05 CET", "'2021-03-05 CET' is not a date in the format 'yyyy-MM-dd zzz'"),
        ("yyyy-MM-dd HH:mm:ss.SSS", "2021-03-05 10:00:00.12", "'2021-03-05 10:00:00.12' is not a date in the format 'yyyy-MM-dd HH:mm:ss.SSS'"),
        ("yyyy", "2011-04", "'2011-04' is not a date in the format 'yyyy'"),
        ("yyyy", "201", "'201' is not a date in the format 'yyyy'"),
        ("yyyy", "20111", "'20111' is not a date in the format 'yyyy'"),
        ("dd/MM/yy", "01/01/2011", "'01/01/2011' is not a date in the format 'dd/MM/yy'"),
        ("dd/MM/yy", "01/01/7", "'01/01/7' is not a date in the format 'dd/MM/yy'"),
        ("yyyy-MM", "2011", "'2011' is not a date in the format 'yyyy-MM'"),
        ("yyyy-MM", "2011-04-22", "'2011-04-22' is not a date in the format 'yyyy-MM'"),
        ("yyyy-MM", "2011-13", "'2011-13' is not a date in the format 'yyyy-MM' (month 13 is out of range)"),
        ("yyyy-MM", "2011-00", "'2011-00' is not a date in the format 'yyyy-MM' (month 0 is out of range)"),
    ]

    @Test(arguments: patternMismatches)
    func datePatternRejectsTextThatDoesNotMatch(format: String, input: String, message: String) {
        #expect(failure(text(input), "date", [.string(format)])?.message == message)
    }

    static let unsupportedPatterns: [(String, String)] = [
        ("yyy-MM-dd", "unsupported field 'yyy' in date format 'yyy-MM-dd'"),
        ("y-MM-dd", "unsupported field 'y' in date format 'y-MM-dd'"),
        ("G yyyy-MM-dd", "unsupported field 'G' in date format 'G yyyy-MM-dd'"),
        ("yyyy-MM-dd ZZZZ", "unsupported field 'ZZZZ' in date format 'yyyy-MM-dd ZZZZ'"),
        ("yyyy-MM-ddTHH:mm", "unsupported field 'T' in date format 'yyyy-MM-ddTHH:mm'"),
        ("yyyy-MM-dd 'T", "unterminated quote in date format 'yyyy-MM-dd \\'T'"),
        ("MM-dd HH:mm", "date format 'MM-dd HH:mm' has no year (yyyy or yy)"),
        ("yyyy-dd", "date format 'yyyy-dd' has no month (MM or MMM)"),
        ("dd yyyy", "date format 'dd yyyy' has no month (MM or MMM)"),
        ("yyyy-MM HH:mm", "date format 'yyyy-MM HH:mm' has a time but no day (dd)"),
        ("yyyy HH", "date format 'yyyy HH' has a time but no day (dd)"),
        ("yyyy-MM ss", "date format 'yyyy-MM ss' has a time but no day (dd)"),
        ("yyyy-MM h a", "date format 'yyyy-MM h a' has a time but no day (dd)"),
        ("yyyy.SSS", "date format 'yyyy.SSS' has a time but no day (dd)"),
        ("EEE yyyy-MM", "date format 'EEE yyyy-MM' has a weekday (EEE) but no day (dd)"),
        ("yyyy-MM-dd hh:mm", "date format 'yyyy-MM-dd hh:mm' has h (1–12) but no AM/PM (a); use HH for 0–23"),
        ("yyyy-MM-dd HH:mm a", "date format 'yyyy-MM-dd HH:mm a' has AM/PM (a) but no 12-hour hour (h)"),
    ]

    @Test(arguments: unsupportedPatterns)
    func datePatternRejectsUnsupportedFieldsWhenCompiled(format: String, message: String) {
        // Compiling alone must fail: the value is never looked at.
        let call = ConverterCall(name: "date", arguments: [.string(format)], location: SourceLocation(line: 1, column: 1, offset: 0))
        #expect(throws: ConversionError.self) { try ConverterCatalog.standard.compile(call) }
        #expect(failure(text("x"), "date", [.string(format)])?.message == message)
    }

    // MARK: rfc1123

    static let rfc1123Dates: [(String, Int64)] = [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777_000),
        ("Sun, 6 Nov 1994 08:49:37 UTC", 784_111_777_000),
        ("Tue, 10 Jun 2003 04:00:00 -0500", 1_055_235_600_000),
        ("Thu, 01 Jan 1970 00:00:00 +0000", 0),
    ]

    @Test(arguments: rfc1123Dates)
    func rfc1123ReadsHTTPDates(input: String, milliseconds: Int64) throws {
        #expect(try convert(text(input), "rfc1123") == date(milliseconds))
    }

    static let nonRFC1123Dates: [(String, String)] = [
        ("Sunday, 06-Nov-94 08:49:37 GMT", "'Sunday, 06-Nov-94 08:49:37 GMT' is not an RFC 1123 date"),
        ("Sun Nov  6 08:49:37 1994", "'Sun Nov  6 08:49:37 1994' is not an RFC 1123 date"),
        ("Sun, 06 Nov 1994 08:49:37", "'Sun, 06 Nov 1994 08:49:37' is not an RFC 1123 date"),
        ("Sun, 06 Nov 1994 08:49:37 PST", "'Sun, 06 Nov 1994 08:49:37 PST' is not an RFC 1123 date"),
        ("Sun, 31 Nov 1994 08:49:37 GMT", "'Sun, 31 Nov 1994 08:49:37 GMT' is not an RFC 1123 date (November 1994 has no day 31)"),
    ]

    @Test(arguments: nonRFC1123Dates)
    func rfc1123RejectsOtherShapes(input: String, message: String) {
        #expect(failure(text(input), "rfc1123")?.message == message)
    }

    // MARK: epochSeconds, epochMillis

    static let epochSeconds: [(Value, Int64)] = [
        (number("1600000000"), 1_600_000_000_000),
        (number("1600000000.5"), 1_600_000_000_500),
        (number("1453580385.123456"), 1_453_580_385_123),
        (number("1.6e9"), 1_600_000_000_000),
        (number("-86400"), -86_400_000),
        (number("-0.0005"), -1),  // rounds toward the past
        (number("0"), 0),
        (text("1453580385"), 1_453_580_385_000),
        (text("-1.5"), -1_500),
        (.int(1_234_567_890), 1_234_567_890_000),
        (.double(1_600_000_000.25), 1_600_000_000_250),
        (number("253402300799.999"), 253_402_300_799_999),
        (number("-62167219200"), -62_167_219_200_000),
        // Plain integers take a shorter road (no digit arrays); signs and leading zeros still count.
        (text("+0042"), 42_000),
        (text("-0"), 0),
        (text("-007"), -7_000),
    ]

    @Test(arguments: epochSeconds)
    func epochSecondsReadsWholeAndFractionalSeconds(input: Value, milliseconds: Int64) throws {
        #expect(try convert(input, "epochSeconds") == date(milliseconds))
    }

    static let epochMillis: [(Value, Int64)] = [
        (number("1453580385000"), 1_453_580_385_000),
        (text("1453580385000"), 1_453_580_385_000),
        (number("1453580385000.9"), 1_453_580_385_000),
        (number("-1"), -1),
        (number("-14182940000"), -14_182_940_000),
        (.int(0), 0),
    ]

    @Test(arguments: epochMillis)
    func epochMillisReadsMilliseconds(input: Value, milliseconds: Int64) throws {
        #expect(try convert(input, "epochMillis") == date(milliseconds))
    }

    static let epochMicros: [(Value, Int64)] = [
        (number("1453580385123456"), 1_453_580_385_123),
        (text("1453580385123456"), 1_453_580_385_123),
        (number("1453580385123999"), 1_453_580_385_123),  // rounds down, not to the nearest
        (number("1453580385123456.9"), 1_453_580_385_123),
        (number("1.453580385123456e15"), 1_453_580_385_123),
        (.int(1_453_580_385_123_456), 1_453_580_385_123),
        (.double(1_453_580_385_123_456), 1_453_580_385_123),
        (number("999"), 0),
        (number("-1"), -1),  // toward the past
        (number("-1000"), -1),
        (number("-1001"), -2),
        (text("+0042000"), 42),
        (number("253402300799999999"), 253_402_300_799_999),
        (number("-62167219200000000"), -62_167_219_200_000),
    ]

    @Test(arguments: epochMicros)
    func epochMicrosReadsMicrosecondsRoundingDown(input: Value, milliseconds: Int64) throws {
        #expect(try convert(input, "epochMicros") == date(milliseconds))
    }

    static let epochNanos: [(Value, Int64)] = [
        (number("1453580385123456789"), 1_453_580_385_123),
        (text("1453580385123456789"), 1_453_580_385_123),
        (number("1453580385123999999"), 1_453_580_385_123),
        (number("999999"), 0),
        (number("-1"), -1),
        (number("-1000000"), -1),
        (number("-1000001"), -2),
        (number("9223372036854775807"), 9_223_372_036_854),
        (number("-9223372036854775808"), -9_223_372_036_855),
        // Past 64 bits: read from the digits all the same (years after 2262 in nanoseconds).
        (number("9223372036854775808"), 9_223_372_036_854),
        (text("253402300799999999999"), 253_402_300_799_999),
        (number("-62167219200000000000"), -62_167_219_200_000),
    ]

    @Test(arguments: epochNanos)
    func epochNanosReadsNanosecondsRoundingDown(input: Value, milliseconds: Int64) throws {
        #expect(try convert(input, "epochNanos") == date(milliseconds))
    }

    /// Plain integers take a shorter road than numbers with a fraction or an exponent; both give
    /// ⌊n ÷ 10^k⌋ for every n around zero and around a millisecond's edges.
    @Test(arguments: [("epochMicros", Int64(1000)), ("epochNanos", Int64(1_000_000))])
    func epochMicrosAndNanosFloorAcrossEveryBoundary(name: String, perMillisecond: Int64) throws {
        let edges: [Int64] = [0, perMillisecond, 1_453_580_385_123 * perMillisecond, -perMillisecond]
        for edge in edges {
            for n in (edge - 3)...(edge + 3) {
                let floor = n >= 0 ? n / perMillisecond : -((-n + perMillisecond - 1) / perMillisecond)
                #expect(try convert(number(String(n)), name) == date(floor), "\(n)")
                #expect(try convert(number(String(n) + ".0"), name) == date(floor), "\(n).0")
                #expect(try convert(number(String(n) + "e0"), name) == date(floor), "\(n)e0")
            }
        }
    }

    static let badEpochs: [(String, Value, String)] = [
        ("epochSeconds", text("abc"), "'abc' is not a number of seconds since 1970"),
        ("epochSeconds", text(""), "'' is not a number of seconds since 1970"),
        ("epochSeconds", text("2015-12-09"), "'2015-12-09' is not a number of seconds since 1970"),
        ("epochMillis", text("1e"), "'1e' is not a number of milliseconds since 1970"),
        ("epochSeconds", number("1e20"), "1e20 seconds since 1970 is out of range for a date (years 0000 to 9999)"),
        ("epochSeconds", number("253402300800"), "253402300800 seconds since 1970 is out of range for a date (years 0000 to 9999)"),
        ("epochSeconds", number("-62167219200.001"), "-62167219200.001 seconds since 1970 is out of range for a date (years 0000 to 9999)"),
        ("epochMillis", text("253402300800000"), "'253402300800000' milliseconds since 1970 is out of range for a date (years 0000 to 9999)"),
        ("epochMillis", number("99999999999999999999999"), "99999999999999999999999 milliseconds since 1970 is out of range for a date (years 0000 to 9999)"),
        // Within 64 bits as seconds, not as milliseconds: the scaling overflows.
        ("epochSeconds", text("9223372036854775"), "'9223372036854775' seconds since 1970 is out of range for a date (years 0000 to 9999)"),
        ("epochSeconds", text("-9223372036854775808"), "'-9223372036854775808' seconds since 1970 is out of range for a date (years 0000 to 9999)"),
        // The 16- and 19-digit timestamps of the finer converters, read as milliseconds.
        ("epochMillis", number("1453580385123456"), "1453580385123456 milliseconds since 1970 is out of range for a date (years 0000 to 9999)"),
        ("epochMicros", number("253402300800000000"), "253402300800000000 microseconds since 1970 is out of range for a date (years 0000 to 9999)"),
        ("epochMicros", number("-62167219200000001"), "-62167219200000001 microseconds since 1970 is out of range for a date (years 0000 to 9999)"),
        ("epochNanos", text("253402300800000000000"), "'253402300800000000000' nanoseconds since 1970 is out of range for a date (years 0000 to 9999)"),
        ("epochNanos", text("1.5.0"), "'1.5.0' is not a number of nanoseconds since 1970"),
        ("epochMicros", text(" 1"), "' 1' is not a number of microseconds since 1970"),
        ("epochNanos", .json(.bool(false)), "expected a number or numeric text, found a boolean (false)"),
        ("epochSeconds", .json(.bool(true)), "expected a number or numeric text, found a boolean (true)"),
        ("epochMillis", .json(.array([])), "expected a number or numeric text, found an array"),
    ]

    @Test(arguments: badEpochs)
    func epochConvertersRejectNonNumbersAndOutOfRangeInstants(name: String, input: Value, message: String) {
        #expect(failure(input, name)?.message == message)
    }

    // MARK: isoText

    static let isoTexts: [(Int64, String)] = [
        (0, "1970-01-01T00:00:00.000Z"),
        (1_453_580_385_000, "2016-01-23T20:19:45.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (-86_400_000, "1969-12-31T00:00:00.000Z"),
        (-14_182_940_000, "1969-07-20T20:17:40.000Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (1_303_472_028_123, "2011-04-22T11:33:48.123Z"),
        (-2_203_891_200_000, "1900-03-01T00:00:00.000Z"),
        (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"),
        (-62_167_219_200_000, "0000-01-01T00:00:00.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
        (253_402_300_800_000, "+10000-01-01T00:00:00.000Z"),
        (-62_167_219_200_001, "-0001-12-31T23:59:59.999Z"),
    ]

    @Test(arguments: isoTexts)
    func isoTextWritesMillisecondsInUTC(milliseconds: Int64, expected: String) {
        #expect(Coercion.isoText(Timestamp(milliseconds: milliseconds)) == expected)
    }

    /// Every day around three century leap-year rules reads back as the instant it was written from,
    /// and consecutive days are exactly 86 400 000 ms apart.
    @Test(arguments: [1899, 1999, 2099])
    func isoTextAndIso8601RoundTripAcrossCenturyYears(startYear: Int) throws {
        let start = try convert(text("\(startYear)-12-31T23:59:59.999"), "iso8601")
        guard case .date(let first) = start else { Issue.record("not a date"); return }
        for day in Int64(0)..<(3 * 366) {
            let instant = Timestamp(milliseconds: first.milliseconds + day * 86_400_000)
            #expect(try convert(text(Coercion.isoText(instant)), "iso8601") == .date(instant))
        }
    }
}
