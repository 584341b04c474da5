import GraphImport
import GraphImportJSON
import GraphImportMapping
import GraphImportSchema
import Testing

/// The whole error (message and hint) a coercion throws, or nil when it succeeds.
private func failure(_ value: Value, _ type: ValueType) -> ConversionError? {
    do throws(ConversionError) {
        _ = try Coercion.sqlValue(value, as: type)
        return nil
    } catch {
        return error
    }
}

private func text(_ string: String) -> Value { .json(.string(string)) }
private func number(_ literal: String) -> Value { .json(.number(JSONNumber(literal: literal))) }
private let object = Value.json(.object(JSONObject([JSONMember(key: "a", value: .number(JSONNumber(literal: "1")))])))
private let array = Value.json(.array([.string("x"), .null]))

@Suite struct CoercionTests {
    @Test(arguments: ValueType.allCases)
    func nullIsNullForEveryType(type: ValueType) throws {
        #expect(try Coercion.sqlValue(.json(.null), as: type) == .null)
    }

    static let accepted: [(Value, ValueType, SQLValue)] = [
        (text("héllo"), .string, .text("héllo")),
        (.string(""), .string, .text("")),
        (.int(7), .int, .integer(7)),
        (number("1"), .int, .integer(1)),
        (number("1.0"), .int, .integer(1)),
        (number("1e0"), .int, .integer(1)),
        (number("-0"), .int, .integer(0)),
        (number("9223372036854775807"), .int, .integer(.max)),
        (number("-9223372036854775808"), .int, .integer(.min)),
        (.double(-4.0), .int, .integer(-4)),
        (number("3.5"), .double, .real(3.5)),
        (number("10"), .double, .real(10)),
        (.int(-2), .double, .real(-2)),
        (.double(0.25), .double, .real(0.25)),
        (.json(.bool(true)), .bool, .integer(1)),
        (.bool(false), .bool, .integer(0)),
        (.date(Timestamp(milliseconds: 1_453_580_385_000)), .date, .text("2016-01-23T20:19:45.000Z")),
        (text("https://example.com/a?b=c"), .url, .text("https://example.com/a?b=c")),
        (text("mailto:someone@example.com"), .url, .text("mailto:someone@example.com")),
        (.string("git+ssh://host/repo"), .url, .text("git+ssh://host/repo")),
        (.data([0, 255]), .data, .blob([0, 255])),
        (text(""), .data, .blob([])),
        (text("TWFu"), .data, .blob(Array("Man".utf8))),
        (text("TWE="), .data, .blob(Array("Ma".utf8))),
        (text("TQ=="), .data, .blob(Array("M".utf8))),
        (text("+/8="), .data, .blob([0xFB, 0xFF])),
        (object, .json, .text(#"{"a":1}"#)),
        (array, .json, .text(#"["x",null]"#)),
        (number("1.50"), .json, .text("1.50")),
        (text("a\"b"), .json, .text(#""a\"b""#)),
        (.string("x"), .json, .text(#""x""#)),
        (.int(42), .json, .text("42")),
        (.double(2.5), .json, .text("2.5")),
        (.bool(true), .json, .text("true")),
        (.date(Timestamp(milliseconds: 0)), .json, .text(#""1970-01-01T00:00:00.000Z""#)),
    ]

    @Test(arguments: accepted)
    func acceptsValuesOfTheDeclaredType(value: Value, type: ValueType, expected: SQLValue) throws {
        #expect(try Coercion.sqlValue(value, as: type) == expected)
    }

    static let stringHint = "add `| string` to store numbers or booleans as text"
    static let intHint = "add `| int` to read numbers written as text"
    static let doubleHint = "add `| double` to read numbers written as text"
    static let base64Hint = "add `| utf8` to store text as its UTF-8 bytes"
    static let boolHint = "add `| bool` to read 1/0 or \"true\"/\"false\" as booleans"
    static let dateTextHint = "add `| iso8601`, `| date(\"…\")`, `| epochSeconds` or `| epochMillis` to read dates written as text"
    static let dateNumberHint = "add `| epochSeconds` or `| epochMillis` to read numbers as dates"

    static let rejected: [(Value, ValueType, ConversionError)] = [
        (number("42"), .string, ConversionError("expected a string, found a number (42)", hint: stringHint)),
        (.json(.bool(true)), .string, ConversionError("expected a string, found a boolean (true)", hint: stringHint)),
        (.int(3), .string, ConversionError("expected a string, found a number (3)", hint: stringHint)),
        (object, .string, ConversionError("expected a string, found an object", hint: stringHint)),
        (text("42"), .int, ConversionError("expected an integer, found a string ('42')", hint: intHint)),
        (number("3.5"), .int, ConversionError("3.5 is not an integer")),
        (.double(0.5), .int, ConversionError("0.5 is not an integer")),
        (number("9223372036854775808"), .int, ConversionError("9223372036854775808 is out of range for Int (64-bit)")),
        (number("-9223372036854775809"), .int, ConversionError("-9223372036854775809 is out of range for Int (64-bit)")),
        (number("1e300"), .int, ConversionError("1e300 is out of range for Int (64-bit)")),
        (.double(9.3e18), .int, ConversionError("9.3e+18 is out of range for Int (64-bit)")),
        (.json(.bool(false)), .int, ConversionError("expected an integer, found a boolean (false)")),
        (array, .int, ConversionError("expected an integer, found an array")),
        (text("3.5"), .double, ConversionError("expected a number, found a string ('3.5')", hint: doubleHint)),
        (number("1e400"), .double, ConversionError("1e400 is out of range for Double")),
        (object, .double, ConversionError("expected a number, found an object")),
        (number("1"), .bool, ConversionError("expected a boolean, found a number (1)", hint: boolHint)),
        (text("true"), .bool, ConversionError("expected a boolean, found a string ('true')", hint: boolHint)),
        (array, .bool, ConversionError("expected a boolean, found an array")),
        (text("2015-12-09T19:40:11Z"), .date, ConversionError("expected a date, found a string ('2015-12-09T19:40:11Z')", hint: dateTextHint)),
        (number("1453580385"), .date, ConversionError("expected a date, found a number (1453580385)", hint: dateNumberHint)),
        (object, .date, ConversionError("expected a date, found an object")),
        (text("foo"), .url, ConversionError("'foo' is not a URL (it has no scheme)")),
        (text("/path/only"), .url, ConversionError("'/path/only' is not a URL (it has no scheme)")),
        (text("1http://x"), .url, ConversionError("'1http://x' is not a URL (it has no scheme)")),
        (text("http:"), .url, ConversionError("'http:' is not a URL (it has no scheme)")),
        (text("ht tp://x"), .url, ConversionError("'ht tp://x' is not a URL (it has no scheme)")),
        (text(""), .url, ConversionError("'' is not a URL (it has no scheme)")),
        (number("1"), .url, ConversionError("expected a URL, found a number (1)")),
        (text("TWF"), .data, ConversionError("'TWF' is not base64 (its length, 3, is not a multiple of 4)", hint: base64Hint)),
        (text("TW-u"), .data, ConversionError("'TW-u' is not base64 ('-' at offset 2 is not in the base64 alphabet)", hint: base64Hint)),
        (text("TW_u"), .data, ConversionError("'TW_u' is not base64 ('_' at offset 2 is not in the base64 alphabet)", hint: base64Hint)),
        (text("TWFu\nTWFu"), .data, ConversionError(#"'TWFu\nTWFu' is not base64 ('\n' at offset 4 is not in the base64 alphabet)"#, hint: base64Hint)),
        (text("TW u"), .data, ConversionError("'TW u' is not base64 (' ' at offset 2 is not in the base64 alphabet)", hint: base64Hint)),
        (text("T=Fu"), .data, ConversionError("'T=Fu' is not base64 ('=' may only end it, at most twice)", hint: base64Hint)),
        (text("T==="), .data, ConversionError("'T===' is not base64 ('=' may only end it, at most twice)", hint: base64Hint)),
        (text("TWF=="), .data, ConversionError("'TWF==' is not base64 (its length, 5, is not a multiple of 4)", hint: base64Hint)),
        (text("TWFu="), .data, ConversionError("'TWFu=' is not base64 (its length, 5, is not a multiple of 4)", hint: base64Hint)),
        (number("12"), .data, ConversionError("expected base64 text, found a number (12)")),
        (.data([1, 2, 3]), .json, ConversionError("expected a JSON value, found data (3 bytes)")),
    ]

    @Test(arguments: rejected)
    func rejectsValuesOfAnotherType(value: Value, type: ValueType, expected: ConversionError) {
        #expect(failure(value, type) == expected)
    }

    @Test func base64RejectsNonASCIIBytesByOffset() {
        #expect(
            failure(text("TQé"), .data)
                == ConversionError("'TQé' is not base64 (a non-ASCII character at offset 2 is not in the base64 alphabet)", hint: Self.base64Hint))
    }

    @Test func integerKeysAreTheSameWhateverTheNumberSpelling() throws {
        let spellings = ["100", "100.0", "1e2", "1.00E+2", "10000e-2"].map { try? Coercion.sqlValue(number($0), as: .int) }
        #expect(spellings.allSatisfy { $0 == .integer(100) })
    }
}

/// `sqlValue(json:as:)` answers the common cases itself: for every JSON value and type it must
/// give what `sqlValue(.json(…), as:)` gives, value or error.
@Suite struct CoercionShortcutTests {
    static let values: [JSONValue] = [
        .null, .bool(true), .string(""), .string("héllo"), .string("42"),
        .number(JSONNumber(integer: 7)), .number(JSONNumber(integer: -9_223_372_036_854_775_807)),
        .number(JSONNumber(literal: "1.0")), .number(JSONNumber(literal: "1e3")), .number(JSONNumber(literal: "2.5")),
        .number(JSONNumber(literal: "99999999999999999999")), .number(JSONNumber(literal: "-0")),
        .array([.string("x")]), .object(JSONObject([JSONMember(key: "a", value: .null)])),
    ]

    @Test(arguments: values, ValueType.allCases)
    func shortcutAgreesWithTheFullCoercion(value: JSONValue, type: ValueType) {
        let full: Result<SQLValue, ConversionError>
        do throws(ConversionError) { full = .success(try Coercion.sqlValue(.json(value), as: type)) } catch { full = .failure(error) }
        let shortcut: Result<SQLValue, ConversionError>
        do throws(ConversionError) { shortcut = .success(try Coercion.sqlValue(json: value, as: type)) } catch { shortcut = .failure(error) }
        #expect(shortcut == full)
    }
}
