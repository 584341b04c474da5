import GraphImport
import GraphImportJSON
import GraphImportMapping
import GraphImportSchema
import Testing

/// Applies a standard converter to a value, the way the engine does: compile once, then apply.
private func convert(_ value: Value, _ name: String, _ arguments: [Literal] = []) throws(ConversionError) -> Value {
    let call = ConverterCall(name: name, arguments: arguments, location: SourceLocation(line: 1, column: 1, offset: 0))
    return try ConverterCatalog.standard.compile(call)(value)
}

/// The message of the error a conversion throws, or nil when it succeeds.
private func failure(_ value: Value, _ name: String, _ arguments: [Literal] = []) -> String? {
    do throws(ConversionError) {
        _ = try convert(value, name, arguments)
        return nil
    } catch {
        return error.message
    }
}

private func text(_ string: String) -> Value { .json(.string(string)) }
private func number(_ literal: String) -> Value { .json(.number(JSONNumber(literal: literal))) }
private let object = Value.json(.object(JSONObject([JSONMember(key: "a", value: .null)])))
private let array = Value.json(.array([.null]))

@Suite struct ConverterTests {
    // MARK: int

    static let integers: [(Value, Int64)] = [
        (text("42"), 42), (text("-7"), -7), (text("+3"), 3), (text("007"), 7),
        (number("1"), 1), (number("1.0"), 1), (number("1e0"), 1), (number("-0"), 0), (number("2.50e1"), 25),
        (number("9223372036854775807"), .max), (number("-9223372036854775808"), .min),
        (text("9223372036854775807"), .max), (text("-9223372036854775808"), .min),
        (.double(3.0), 3), (.int(5), 5),
    ]

    @Test(arguments: integers)
    func intReadsExactIntegers(input: Value, expected: Int64) throws {
        #expect(try convert(input, "int") == .int(expected))
    }

    static let nonIntegers: [(Value, String)] = [
        (text("4.0"), "'4.0' is not an integer"),
        (text(" 4"), "' 4' is not an integer"),
        (text("1e3"), "'1e3' is not an integer"),
        (text(""), "'' is not an integer"),
        (text("-"), "'-' is not an integer"),
        (number("3.5"), "3.5 is not an integer"),
        (number("9223372036854775807.5"), "9223372036854775807.5 is not an integer"),
        (.double(2.5), "2.5 is not an integer"),
        (number("9223372036854775808"), "9223372036854775808 is out of range for Int (64-bit)"),
        (number("-9223372036854775809"), "-9223372036854775809 is out of range for Int (64-bit)"),
        (number("1e19"), "1e19 is out of range for Int (64-bit)"),
        (text("9223372036854775808"), "'9223372036854775808' is out of range for Int (64-bit)"),
        (text("-9223372036854775809"), "'-9223372036854775809' is out of range for Int (64-bit)"),
        // 2^64 + 3: its last digit overflows the addition, not the multiplication.
        (text("18446744073709551619"), "'18446744073709551619' is out of range for Int (64-bit)"),
        // Not a number at all, though its digits alone would overflow.
        (text("99999999999999999999x"), "'99999999999999999999x' is not an integer"),
        (text("+"), "'+' is not an integer"),
        (.double(1e19), "1e+19 is out of range for Int (64-bit)"),
        (.json(.bool(true)), "expected a string or a number, found a boolean (true)"),
        (object, "expected a string or a number, found an object"),
    ]

    @Test(arguments: nonIntegers)
    func intRejectsFractionsOverflowAndOtherText(input: Value, message: String) {
        #expect(failure(input, "int") == message)
    }

    // MARK: double

    static let doubles: [(Value, Double)] = [
        (text("3.25"), 3.25), (text("-1e-3"), -0.001), (text("+2"), 2), (text("0"), 0),
        (number("42"), 42), (number("-0.5"), -0.5), (number("1E2"), 100), (.int(7), 7), (.double(1.5), 1.5),
    ]

    @Test(arguments: doubles)
    func doubleReadsNumbersAndNumericText(input: Value, expected: Double) throws {
        #expect(try convert(input, "double") == .double(expected))
    }

    static let nonDoubles: [(Value, String)] = [
        (text("abc"), "'abc' is not a number"),
        (text("nan"), "'nan' is not a number"),
        (text("inf"), "'inf' is not a number"),
        (text(" 1"), "' 1' is not a number"),
        (text("1."), "'1.' is not a number"),
        (text(".5"), "'.5' is not a number"),
        (text("0x10"), "'0x10' is not a number"),
        (text("1e400"), "'1e400' is out of range for Double"),
        (number("-1e400"), "-1e400 is out of range for Double"),
        (.json(.bool(false)), "expected a string or a number, found a boolean (false)"),
        (array, "expected a string or a number, found an array"),
    ]

    @Test(arguments: nonDoubles)
    func doubleRejectsNonNumericText(input: Value, message: String) {
        #expect(failure(input, "double") == message)
    }

    // MARK: bool

    static let booleans: [(Value, Bool)] = [
        (text("true"), true), (text("TRUE"), true), (text("False"), false), (text("1"), true), (text("0"), false),
        (number("1"), true), (number("0"), false), (number("1.0"), true),
        (.json(.bool(true)), true), (.json(.bool(false)), false), (.int(0), false), (.bool(true), true),
    ]

    @Test(arguments: booleans)
    func boolReadsTrueFalseOneAndZero(input: Value, expected: Bool) throws {
        #expect(try convert(input, "bool") == .bool(expected))
    }

    static let nonBooleans: [(Value, String)] = [
        (text("yes"), "'yes' is not a boolean (expected true, false, 1 or 0)"),
        (text(""), "'' is not a boolean (expected true, false, 1 or 0)"),
        (text(" true"), "' true' is not a boolean (expected true, false, 1 or 0)"),
        (number("2"), "2 is not a boolean (expected 1 or 0)"),
        (number("0.5"), "0.5 is not a boolean (expected 1 or 0)"),
        (.int(-1), "-1 is not a boolean (expected 1 or 0)"),
        (object, "expected a string, a number or a boolean, found an object"),
    ]

    @Test(arguments: nonBooleans)
    func boolRejectsEverythingElse(input: Value, message: String) {
        #expect(failure(input, "bool") == message)
    }

    @Test func boolPointsWordsToYesNo() throws {
        let call = ConverterCall(name: "bool", arguments: [], location: SourceLocation(line: 1, column: 1, offset: 0))
        let apply = try ConverterCatalog.standard.compile(call)
        #expect(
            throws: ConversionError(
                "'Yes' is not a boolean (expected true, false, 1 or 0)", hint: "add `| yesNo` instead of `| bool` to read yes/no, y/n, on/off and t/f")
        ) {
            try apply(text("Yes"))
        }
        #expect(throws: ConversionError("'maybe' is not a boolean (expected true, false, 1 or 0)")) { try apply(text("maybe")) }
    }

    // MARK: yesNo

    static let yesNoWords: [(String, Bool)] = [
        ("yes", true), ("no", false), ("y", true), ("n", false), ("on", true), ("off", false),
        ("t", true), ("f", false), ("true", true), ("false", false), ("1", true), ("0", false),
    ]

    /// Every word in lower, upper, capitalised and alternating case.
    @Test(arguments: yesNoWords)
    func yesNoReadsEveryWordInAnyCase(word: String, expected: Bool) throws {
        let alternating = String(word.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.uppercased()) : $0.element })
        for spelling in [word, word.uppercased(), word.prefix(1).uppercased() + word.dropFirst(), alternating] {
            #expect(try convert(text(spelling), "yesNo") == .bool(expected), "\(spelling)")
            #expect(try convert(.string(spelling), "yesNo") == .bool(expected), "\(spelling)")
        }
    }

    @Test(arguments: booleans)
    func yesNoReadsEverythingBoolReads(input: Value, expected: Bool) throws {
        #expect(try convert(input, "yesNo") == .bool(expected))
    }

    static let nonYesNo: [(Value, String)] = [
        (text("yess"), "'yess' is not a boolean (expected yes, no, y, n, on, off, t, f, true, false, 1 or 0)"),
        (text(""), "'' is not a boolean (expected yes, no, y, n, on, off, t, f, true, false, 1 or 0)"),
        (text(" yes"), "' yes' is not a boolean (expected yes, no, y, n, on, off, t, f, true, false, 1 or 0)"),
        (text("ja"), "'ja' is not a boolean (expected yes, no, y, n, on, off, t, f, true, false, 1 or 0)"),
        (text("enabled"), "'enabled' is not a boolean (expected yes, no, y, n, on, off, t, f, true, false, 1 or 0)"),
        (text("2"), "'2' is not a boolean (expected yes, no, y, n, on, off, t, f, true, false, 1 or 0)"),
        (text("Ｙ"), "'Ｙ' is not a boolean (expected yes, no, y, n, on, off, t, f, true, false, 1 or 0)"),
        (number("2"), "2 is not a boolean (expected 1 or 0)"),
        (.int(-1), "-1 is not a boolean (expected 1 or 0)"),
        (array, "expected a string, a number or a boolean, found an array"),
    ]

    @Test(arguments: nonYesNo)
    func yesNoRejectsEverythingElse(input: Value, message: String) {
        #expect(failure(input, "yesNo") == message)
    }

    // MARK: string

    static let strings: [(Value, String)] = [
        (number("1.50"), "1.50"), (number("42"), "42"), (number("-1e3"), "-1e3"),
        (.json(.bool(false)), "false"), (.bool(true), "true"), (text("x"), "x"), (.string("y"), "y"),
        (.int(-3), "-3"), (.double(0.5), "0.5"),
        (.date(Timestamp(milliseconds: 0)), "1970-01-01T00:00:00.000Z"),
    ]

    @Test(arguments: strings)
    func stringWritesNumbersAsTheirLiteralText(input: Value, expected: String) throws {
        #expect(try convert(input, "string") == .string(expected))
    }

    @Test func stringRejectsObjectsAndArrays() {
        #expect(failure(array, "string") == "expected a string, a number or a boolean, found an array")
        #expect(failure(object, "string") == "expected a string, a number or a boolean, found an object")
    }

    // MARK: text

    static let textConversions: [(String, String, String)] = [
        ("trim", "  a b \n", "a b"),
        ("trim", "\u{00A0}x\t", "x"),
        ("trim", "   ", ""),
        ("trim", "", ""),
        ("lowercase", "ÉCOLE Ab", "école ab"),
        ("uppercase", "straße", "STRASSE"),
    ]

    @Test(arguments: textConversions)
    func textConvertersTransformStrings(name: String, input: String, expected: String) throws {
        #expect(try convert(text(input), name) == .string(expected))
        #expect(try convert(.string(input), name) == .string(expected))
    }

    @Test(arguments: ["trim", "lowercase", "uppercase"])
    func textConvertersRejectNonStrings(name: String) {
        #expect(failure(number("42"), name) == "expected a string, found a number (42)")
        #expect(failure(.json(.bool(true)), name) == "expected a string, found a boolean (true)")
        #expect(failure(object, name) == "expected a string, found an object")
    }

    @Test func nullIfEmptyTurnsOnlyTheEmptyStringIntoNull() throws {
        #expect(try convert(text(""), "nullIfEmpty") == .json(.null))
        #expect(try convert(.string(""), "nullIfEmpty") == .json(.null))
        #expect(try convert(text(" "), "nullIfEmpty") == text(" "))
        #expect(try convert(number("0"), "nullIfEmpty") == number("0"))
        #expect(try convert(array, "nullIfEmpty") == array)
    }

    @Test func nullIfFalseTurnsOnlyFalseIntoNull() throws {
        #expect(try convert(.json(.bool(false)), "nullIfFalse") == .json(.null))
        #expect(try convert(.bool(false), "nullIfFalse") == .json(.null))
        #expect(try convert(.json(.bool(true)), "nullIfFalse") == .json(.bool(true)))
        #expect(try convert(text("false"), "nullIfFalse") == text("false"))
        #expect(try convert(number("0"), "nullIfFalse") == number("0"))
        #expect(try convert(number("1595068400.5"), "nullIfFalse") == number("1595068400.5"))
        #expect(try convert(text(""), "nullIfFalse") == text(""))
    }

    @Test func nullIfFalseThenEpochSecondsReadsRedditsEdited() throws {
        let calls = [("nullIfFalse", [Literal]()), ("epochSeconds", [])]
        func edited(_ value: Value) throws -> Value { try calls.reduce(value) { try convert($0, $1.0, $1.1) } }
        #expect(try edited(.json(.bool(false))) == .json(.null))
        #expect(try edited(number("1595068400.5")) == .date(Timestamp(milliseconds: 1_595_068_400_500)))
        #expect(failure(.json(.bool(true)), "epochSeconds") == "expected a number or numeric text, found a boolean (true)")
    }

    // MARK: base64, utf8

    static let base64Texts: [(String, [UInt8])] = [
        ("", []), ("aGk=", Array("hi".utf8)), ("aGV5", Array("hey".utf8)), ("aA==", Array("h".utf8)), ("/+8=", [0xFF, 0xEF]),
    ]

    @Test(arguments: base64Texts)
    func base64DecodesStrictBase64(input: String, expected: [UInt8]) throws {
        #expect(try convert(text(input), "base64") == .data(expected))
        #expect(try convert(.string(input), "base64") == .data(expected))
    }

    @Test func base64RefusesOtherTextPointingToUTF8() {
        let call = ConverterCall(name: "base64", arguments: [], location: SourceLocation(line: 1, column: 1, offset: 0))
        #expect(
            throws: ConversionError("'hello' is not base64 (its length, 5, is not a multiple of 4)", hint: "add `| utf8` to store text as its UTF-8 bytes")
        ) { try ConverterCatalog.standard.compile(call)(text("hello")) }
        #expect(failure(text("a-b_"), "base64") == "'a-b_' is not base64 ('-' at offset 1 is not in the base64 alphabet)")
        #expect(failure(number("42"), "base64") == "expected base64 text, found a number (42)")
    }

    /// Text that is valid base64 keeps its own bytes under `utf8`: the map says which is meant.
    @Test(arguments: ["aGk=", "", "héllo ✓", "AAAA", "line\nbreak"])
    func utf8KeepsTheTextsOwnBytes(input: String) throws {
        #expect(try convert(text(input), "utf8") == .data(Array(input.utf8)))
        #expect(try convert(.string(input), "utf8") == .data(Array(input.utf8)))
    }

    @Test func utf8RefusesNonText() {
        #expect(failure(number("42"), "utf8") == "expected a string, found a number (42)")
        #expect(failure(.json(.bool(true)), "utf8") == "expected a string, found a boolean (true)")
    }

    @Test func dataAttributeWithoutConverterReadsBase64AsBase64Does() throws {
        #expect(try Coercion.sqlValue(text("aGk="), as: .data) == .blob(Array("hi".utf8)))
        #expect(throws: ConversionError("'hello' is not base64 (its length, 5, is not a multiple of 4)", hint: "add `| utf8` to store text as its UTF-8 bytes"))
        {
            try Coercion.sqlValue(text("hello"), as: .data)
        }
        #expect(try Coercion.sqlValue(try convert(text("aGk="), "utf8"), as: .data) == .blob(Array("aGk=".utf8)))
    }

    // MARK: every converter

    static let allCalls: [(String, [Literal])] = [
        ("epochSeconds", []), ("epochMillis", []), ("epochMicros", []), ("epochNanos", []), ("iso8601", []), ("date", [.string("yyyy-MM-dd")]),
        ("rfc1123", []), ("int", []), ("double", []), ("bool", []), ("yesNo", []), ("string", []),
        ("trim", []), ("lowercase", []), ("uppercase", []), ("nullIfEmpty", []), ("nullIfFalse", []),
        ("base64", []), ("utf8", []),
    ]

    @Test(arguments: allCalls)
    func everyConverterPassesNullThrough(name: String, arguments: [Literal]) throws {
        #expect(try convert(.json(.null), name, arguments) == .json(.null))
    }

    @Test func standardCatalogListsEveryBuiltInConverter() {
        #expect(ConverterCatalog.standard.signatures.map(\.name) == Self.allCalls.map(\.0))
        #expect(ConverterCatalog.standard.converter(named: "date")?.signature.parameters == [.string])
        #expect(ConverterCatalog.standard.converter(named: "isodate") == nil)
    }

    @Test func registeredConverterReplacesOneOfTheSameName() throws {
        var catalog = ConverterCatalog.standard
        let shout = Converter(signature: ConverterSignature(name: "trim", parameters: [], summary: "test")) { _ throws(ConversionError) in
            { _ throws(ConversionError) in .string("replaced") }
        }
        catalog.register(shout)
        catalog.register(
            Converter(signature: ConverterSignature(name: "answer", parameters: [], summary: "test")) { _ throws(ConversionError) in
                { _ throws(ConversionError) in .int(42) }
            })
        let call = { (name: String) in ConverterCall(name: name, arguments: [], location: SourceLocation(line: 1, column: 1, offset: 0)) }
        #expect(try catalog.compile(call("trim"))(text(" a ")) == .string("replaced"))
        #expect(try catalog.compile(call("answer"))(text("x")) == .int(42))
        #expect(try catalog.compile(call("answer"))(.json(.null)) == .json(.null))
        #expect(catalog.signatures.count == ConverterCatalog.standard.signatures.count + 1)
        #expect(catalog.signatures.last?.name == "answer")
    }

    @Test func compilingAnUnknownConverterFails() {
        #expect(failure(text("x"), "isodate") == "unknown converter 'isodate'")
    }

    // MARK: messages

    @Test func messagesTruncateLongValuesToSixtyCharacters() {
        let long = String(repeating: "abcdefghij", count: 7)
        #expect(failure(text(long), "int") == "'" + String(long.prefix(60)) + "…' is not an integer")
        #expect(failure(text(String(long.prefix(60))), "int") == "'" + String(long.prefix(60)) + "' is not an integer")
    }

    @Test func messagesEscapeQuotesAndControlCharacters() {
        #expect(failure(text("it's\n\u{1}\\"), "int") == #"'it\'s\n\u{1}\\' is not an integer"#)
    }
}
