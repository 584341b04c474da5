import GraphImport
import GraphImportJSON
import GraphImportMapping
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

    // MARK: every converter

    static let allCalls: [(String, [Literal])] = [
        ("epochSeconds", []), ("epochMillis", []), ("epochMicros", []), ("epochNanos", []), ("iso8601", []),
        ("date", [.string("yyyy-MM-dd")]), ("rfc1123", []), ("int", []), ("double", []), ("bool", []), ("string", []),
        ("trim", []), ("lowercase", []), ("uppercase", []), ("nullIfEmpty", []),
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
