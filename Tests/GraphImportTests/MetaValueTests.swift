import GraphImport
import GraphImportSchema
import Testing

@Suite struct MetaValueTests {
    @Test(arguments: [
        ("true", MetaType.bool, MetaValue.bool(true)), ("1", .bool, .bool(true)),
        ("false", .bool, .bool(false)), ("0", .bool, .bool(false)),
        ("42", .integer, .integer(42)), ("-7", .integer, .integer(-7)), ("+7", .integer, .integer(7)),
        ("9223372036854775807", .integer, .integer(Int64.max)), ("-9223372036854775808", .integer, .integer(Int64.min)),
        ("1.5", .double, .double(1.5)), ("-2e3", .double, .double(-2000)), (".5", .double, .double(0.5)),
        ("5.", .double, .double(5)), ("7", .double, .double(7)), ("1E-2", .double, .double(0.01)),
        ("", .string, .string("")), (" spaced text ", .string, .string(" spaced text ")),
        ("2024-05-01T12:00:00.000Z", .date, .date("2024-05-01T12:00:00.000Z")),
        ("2024-05-01T12:00:00Z", .date, .date("2024-05-01T12:00:00.000Z")),
        ("2024-05-01T12:00Z", .date, .date("2024-05-01T12:00:00.000Z")),
        ("2024-05-01t12:00:00.5z", .date, .date("2024-05-01T12:00:00.500Z")),
        ("2024-05-01 12:00:00,123456Z", .date, .date("2024-05-01T12:00:00.123Z")),
        ("2024-05-01T14:00:00+02:00", .date, .date("2024-05-01T12:00:00.000Z")),
        ("2024-05-01T01:30:00+0230", .date, .date("2024-04-30T23:00:00.000Z")),
        ("2024-02-28T22:00:00-05", .date, .date("2024-02-29T03:00:00.000Z")),
        ("2023-12-31T23:59:59.999-00:01", .date, .date("2024-01-01T00:00:59.999Z")),
        ("1969-12-31T23:59:59.999Z", .date, .date("1969-12-31T23:59:59.999Z")),
        ("{\"a\": [1, 2.5, null]}", .json, .json("{\"a\": [1, 2.5, null]}")),
        ("42", .json, .json("42")), (" \"text\" ", .json, .json(" \"text\" ")),
    ])
    func parseAccepts(text: String, type: MetaType, value: MetaValue) throws {
        #expect(try MetaValue.parse(text, as: type) == value)
    }

    @Test(arguments: [
        ("yes", MetaType.bool, "cannot read 'yes' as a bool: expected true, false, 1 or 0"),
        ("TRUE", .bool, "cannot read 'TRUE' as a bool: expected true, false, 1 or 0"),
        ("", .integer, "cannot read '' as an integer: expected decimal digits with an optional sign, such as 42 or -7"),
        ("1.0", .integer, "cannot read '1.0' as an integer: expected decimal digits with an optional sign, such as 42 or -7"),
        (" 1", .integer, "cannot read ' 1' as an integer: expected decimal digits with an optional sign, such as 42 or -7"),
        ("0x10", .integer, "cannot read '0x10' as an integer: expected decimal digits with an optional sign, such as 42 or -7"),
        ("9223372036854775808", .integer, "cannot read '9223372036854775808' as an integer: it is out of the range of a 64-bit integer"),
        ("inf", .double, "cannot read 'inf' as a double: expected a decimal number, such as 1.5 or -2e3"),
        ("nan", .double, "cannot read 'nan' as a double: expected a decimal number, such as 1.5 or -2e3"),
        ("0x1p3", .double, "cannot read '0x1p3' as a double: expected a decimal number, such as 1.5 or -2e3"),
        (".", .double, "cannot read '.' as a double: expected a decimal number, such as 1.5 or -2e3"),
        ("1e", .double, "cannot read '1e' as a double: expected a decimal number, such as 1.5 or -2e3"),
        ("1e999", .double, "cannot read '1e999' as a double: it is out of the range of a double"),
        ("{", .json, "cannot read '{' as JSON: expected valid JSON text"),
        ("", .json, "cannot read '' as JSON: expected valid JSON text"),
        ("{'a': 1}", .json, "cannot read '{'a': 1}' as JSON: expected valid JSON text"),
    ])
    func parseRejects(text: String, type: MetaType, message: String) {
        let error = #expect(throws: MetaValueError.self) { try MetaValue.parse(text, as: type) }
        #expect(error?.description == message)
    }

    /// Each date lacks a zone, a field, or has a field out of range.
    @Test(arguments: [
        "2024-05-01", "2024-05-01T12:00:00", "2024-05-01T12Z", "24-05-01T12:00:00Z", "2024-5-01T12:00:00Z",
        "2024-13-01T12:00:00Z", "2024-00-01T12:00:00Z", "2023-02-29T12:00:00Z", "2024-04-31T12:00:00Z",
        "2024-05-01T24:00:00Z", "2024-05-01T12:60:00Z", "2024-05-01T12:00:60Z", "2024-05-01T12:00:00.Z",
        "2024-05-01T12:00:00+24:00", "2024-05-01T12:00:00+02:60", "2024-05-01T12:00:00+2", "2024-05-01T12:00:00Z ",
        "9999-12-31T23:00:00-01:00", "0000-01-01T00:00:00+00:01",
    ])
    func parseRejectsDate(text: String) {
        let error = #expect(throws: MetaValueError.self) { try MetaValue.parse(text, as: .date) }
        #expect(
            error?.description
                == "cannot read '\(text)' as a date: expected an ISO 8601 date and time with a zone, "
                + "such as 2024-05-01T12:00:00Z or 2024-05-01T14:00:00+02:00")
    }

    @Test(arguments: [
        (MetaValue.bool(true), "true"), (.bool(false), "false"), (.integer(-42), "-42"), (.double(1.5), "1.5"),
        (.string("it's"), "it's"), (.date("2024-05-01T12:00:00.000Z"), "2024-05-01T12:00:00.000Z"), (.json("[1]"), "[1]"),
    ])
    func descriptionIsTheBareValueAndParsesBack(value: MetaValue, text: String) throws {
        #expect(value.description == text)
        #expect(try MetaValue.parse(value.description, as: value.type) == value)
    }

    /// As SQLite's `json_valid` (which the store applies) takes JSON: repeated keys are valid JSON.
    @Test func jsonTextKeepsRepeatedKeysAsWritten() throws {
        #expect(try MetaValue.parse(#"{"a": 1, "a": 2}"#, as: .json) == .json(#"{"a": 1, "a": 2}"#))
    }

    @Test func everyTypeHasItsValueCase() {
        let values: [MetaValue] = [.bool(true), .integer(1), .double(1), .string(""), .date(""), .json("")]
        #expect(values.map(\.type) == MetaType.allCases)
    }
}
