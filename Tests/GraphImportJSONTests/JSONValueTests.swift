import GraphImportJSON
import Testing

/// Numbers stay exact; values print back as compact JSON that reads the same.
@Suite struct JSONValueTests {
    @Test(
        arguments: [
            ("1", Int64(1)), ("1.0", 1), ("1e0", 1), ("-0", 0), ("1.5e1", 15), ("100e-2", 1), ("0.0e5", 0),
            ("9223372036854775807", Int64.max), ("-9223372036854775808", Int64.min),
            ("92233720368547758.07e2", Int64.max),
        ] as [(String, Int64)])
    func exactInt64ConvertsIntegers(literal: String, expected: Int64) {
        #expect(JSONNumber(literal: literal).exactInt64 == expected)
    }

    @Test(arguments: ["1.5", "9223372036854775808", "-9223372036854775809", "1e19", "1e-1", "1e400", "12.3400001e2"])
    func exactInt64RefusesWhatItWouldRound(literal: String) {
        #expect(JSONNumber(literal: literal).exactInt64 == nil)
    }

    @Test(arguments: [
        "{\"a\":[1,-2.5E+3,true,false,null],\"b\":{\"c\":\"\\u0001\\n\\\"\\\\/\"},\"\":\"😀\"}",
        "[[],{},\"\",0]",
        "\"\\u001f\\t\"",
    ])
    func jsonTextRoundTrips(text: String) throws {
        let value = try JSONParser.parse(text)
        #expect(try JSONParser.parse(value.jsonText) == value)
    }

    /// A number read keeps its literal, whichever way it is held (short integers as their value):
    /// its text, integer, double and equality are those of the literal.
    @Test(arguments: [
        "0", "-0", "7", "-7", "123456789012345678", "-123456789012345678", "999999999999999999", "1234567890123456789",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "1.0", "-0.0", "1e2", "10E-1", "12345678901234567890123",
    ])
    func aNumberReadBehavesAsItsLiteral(literal: String) throws {
        guard case .array(let elements) = try JSONParser.parse("[\(literal)]"), case .number(let read)? = elements.first else {
            Issue.record("not a number")
            return
        }
        let written = JSONNumber(literal: literal)
        #expect(read.literal == literal)
        #expect(read.exactInt64 == written.exactInt64)
        #expect(read.double.bitPattern == written.double.bitPattern)
        #expect(read.isIntegerLiteral == written.isIntegerLiteral)
        #expect(read == written)
        #expect(Set([read, written]).count == 1)
        #expect(try JSONParser.parse("[\(literal)]").jsonText == "[\(literal)]")
    }

    @Test func integersAndLiteralsDifferAsTheirTexts() {
        #expect(JSONNumber(integer: 1) == JSONNumber(literal: "1"))
        #expect(JSONNumber(integer: 1) != JSONNumber(literal: "1.0"))
        #expect(JSONNumber(integer: 0) != JSONNumber(literal: "-0"))
        #expect(JSONNumber(integer: -5).literal == "-5")
    }

    @Test func jsonTextEscapesMinimally() throws {
        let value = try JSONParser.parse("[\"\\u0041\\/\\u001f\\ud83d\\ude00\",1.50]")
        #expect(value.jsonText == "[\"A/\\u001f😀\",1.50]")
    }
}
