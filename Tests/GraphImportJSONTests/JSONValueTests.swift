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

    @Test func jsonTextEscapesMinimally() throws {
        let value = try JSONParser.parse("[\"\\u0041\\/\\u001f\\ud83d\\ude00\",1.50]")
        #expect(value.jsonText == "[\"A/\\u001f😀\",1.50]")
    }
}
