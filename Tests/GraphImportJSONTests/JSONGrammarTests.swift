import GraphImportJSON
import Testing

/// Each rule of RFC 8259, accepted and refused, with the whole error text.
@Suite struct JSONGrammarTests {
    @Test(arguments: [
        (" [1, 2.5e-3, -0, true, false, null, \"x\"] ", "[1,2.5e-3,-0,true,false,null,\"x\"]"),
        ("{\"a\":{\"b\":[]},\"c\":{}}", "{\"a\":{\"b\":[]},\"c\":{}}"),
        ("\t\r\n{ \"a\" : [ 1 , { } ] }\n", "{\"a\":[1,{}]}"),
        ("\"\\ud83d\\ude00\"", "\"😀\""),
        ("\"\\/\\\\\\\"\\b\\f\\n\\r\\t\"", "\"/\\\\\\\"\\u0008\\u000c\\n\\r\\t\""),
        ("\"caf\u{e9} \u{1F600}\"", "\"caf\u{e9} \u{1F600}\""),
        ("123456789012345678901234567890", "123456789012345678901234567890"),
        ("-1.0E+2", "-1.0E+2"),
        ("0", "0"),
        ("\"\"", "\"\""),
    ])
    func acceptsValidText(text: String, compact: String) throws {
        #expect(try JSONParser.parse(text).jsonText == compact)
    }

    @Test func acceptsByteOrderMark() throws {
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == .object(JSONObject()))
    }

    @Test func positionsAfterByteOrderMarkIgnoreIt() {
        #expect(parseFailure([0xEF, 0xBB, 0xBF] + Array("[1,]".utf8)) == "line 1, column 4: expected a value, found ']'")
    }

    @Test func keepsLineSeparatorsAndNul() throws {
        #expect(try JSONParser.parse("\"\\u2029\\u0000\"") == .string("\u{2029}\u{0}"))
    }

    /// Strings with escapes, or longer than the window, are built in a buffer the scanner keeps
    /// from one string to the next (a very long one's is let go): each string comes out as
    /// written, whatever came before it, shorter or longer, in any window.
    @Test func stringsBuiltOneAfterAnotherKeepNothingOfTheOneBefore() throws {
        // Each string as written in JSON, and as it reads.
        let strings: [(json: String, text: String)] = [
            (#"a\"b"#, "a\"b"), (String(repeating: #"long\\"#, count: 40), String(repeating: "long\\", count: 40)), ("c", "c"),
            (#"\u00e9t\u00e9"#, "\u{e9}t\u{e9}"), (String(repeating: #"x\n"#, count: 40_000), String(repeating: "x\n", count: 40_000)),
            (#"\t"#, "\t"), ("plain but longer than a small window", "plain but longer than a small window"), (#"d\""#, "d\""),
        ]
        let json = "[" + strings.map { "\"" + $0.json + "\"" }.joined(separator: ",") + "]"
        for bufferSize in [1, 7, 64, 1 << 16] {
            let records = try readRecords(json, [.everyElement], bufferSize: bufferSize)
            #expect(records.map(\.value) == strings.map { .string($0.text) }, "window \(bufferSize)")
        }
    }

    @Test func keepsBigIntegersExact() throws {
        let value = try JSONParser.parse("[9007199254740993, -9223372036854775808, 18446744073709551616]")
        #expect(
            value
                == .array([
                    .number(JSONNumber(literal: "9007199254740993")),
                    .number(JSONNumber(literal: "-9223372036854775808")),
                    .number(JSONNumber(literal: "18446744073709551616")),
                ]))
        guard case .array(let numbers) = value, case .number(let first) = numbers[0] else { return }
        #expect(first.exactInt64 == 9_007_199_254_740_993)
    }

    @Test(arguments: [
        ("[1,]", "line 1, column 4: expected a value, found ']'"),
        ("{\"a\":1,}", "line 1, column 8: expected a string key, found '}'"),
        ("[1 2]", "line 1, column 4: expected ',' or ']' after an array element, found '2'"),
        ("{\"a\":1 \"b\":2}", "line 1, column 8: expected ',' or '}' after an object member, found '\"'"),
        ("{\"a\" 1}", "line 1, column 6: expected ':' after an object key, found '1'"),
        ("{1:2}", "line 1, column 2: expected a string key, found '1'"),
        ("{\"a\":1}}", "line 1, column 8: unexpected '}' after the end of the JSON text"),
        ("[1]\n x", "line 2, column 2: unexpected 'x' after the end of the JSON text"),
        ("[\"abc", "line 1, column 2: unterminated string"),
        ("[1,", "line 1, column 4: unexpected end of input inside an array"),
        ("{\"a\":", "line 1, column 6: unexpected end of input inside an object"),
        ("{\"a\"", "line 1, column 5: unexpected end of input inside an object"),
        ("[\"a\tb\"]", "line 1, column 4: unescaped control character '\\t' in a string"),
        ("[\"a\nb\"]", "line 1, column 4: unescaped control character '\\n' in a string"),
        ("[\"\\x\"]", "line 1, column 3: invalid escape '\\' followed by 'x' in a string"),
        ("[\"\\u12G4\"]", "line 1, column 7: expected 4 hexadecimal digits after '\\u', found 'G'"),
        ("[\"\\uD800\"]", "line 1, column 3: lone surrogate '\\uD800' in a string: a surrogate escape must be a high-low pair"),
        ("[\"\\uDE00\"]", "line 1, column 3: lone surrogate '\\uDE00' in a string: a surrogate escape must be a high-low pair"),
        ("[\"\\uD83D\\u0041\"]", "line 1, column 3: lone surrogate '\\uD83D' in a string: a surrogate escape must be a high-low pair"),
        ("[NaN]", "line 1, column 2: expected a value, found 'N'"),
        ("[-Infinity]", "line 1, column 3: expected a digit after '-', found 'I'"),
        ("[1] // comment", "line 1, column 5: unexpected '/' after the end of the JSON text"),
        ("[/* c */ 1]", "line 1, column 2: expected a value, found '/'"),
        ("[01]", "line 1, column 3: a number cannot have leading zeros"),
        ("[-012]", "line 1, column 4: a number cannot have leading zeros"),
        ("[1.]", "line 1, column 4: expected a digit after the decimal point, found ']'"),
        ("[.5]", "line 1, column 2: expected a value, found '.'"),
        ("[1e]", "line 1, column 4: expected a digit in the exponent, found ']'"),
        ("[1e+]", "line 1, column 5: expected a digit in the exponent, found ']'"),
        ("[+1]", "line 1, column 2: expected a value, found '+'"),
        ("['a']", "line 1, column 2: expected a value, found \"'\""),
        ("{\"id\":1,\"id\":2}", "line 1, column 9: duplicate key \"id\" in an object"),
        ("[tru]", "line 1, column 2: invalid literal, expected 'true'"),
        ("[nul", "line 1, column 2: invalid literal, expected 'null'"),
        // The first four letters are compared as one word, the fifth of `false` on its own.
        ("[falsy]", "line 1, column 2: invalid literal, expected 'false'"),
        ("[Fals]", "line 1, column 2: expected a value, found 'F'"),
        ("[fa1se]", "line 1, column 2: invalid literal, expected 'false'"),
        ("[nulL]", "line 1, column 2: invalid literal, expected 'null'"),
        ("[truee]", "line 1, column 6: expected ',' or ']' after an array element, found 'e'"),
        ("", "line 1, column 1: expected a value, found end of input"),
        ("  \n", "line 2, column 1: expected a value, found end of input"),
        ("\n\n  ]", "line 3, column 3: expected a value, found ']'"),
        ("[\u{7}]", "line 1, column 2: expected a value, found U+0007"),
        ("[\u{c}]", "line 1, column 2: expected a value, found U+000C"),
        ("[\u{2028}]", "line 1, column 2: expected a value, found U+2028"),
        ("[\u{e9}]", "line 1, column 2: expected a value, found '\u{e9}'"),
    ])
    func rejectsInvalidText(text: String, message: String) {
        #expect(parseFailure(text) == message)
    }

    @Test(
        arguments: [
            ([0x5B, 0xFF, 0x5D], "line 1, column 2: expected a value, found byte 0xFF"),
            ([0x5B, 0x22, 0xC0, 0x80, 0x22, 0x5D], "line 1, column 3: invalid UTF-8 sequence starting with byte 0xC0 in a string"),
            ([0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], "line 1, column 3: invalid UTF-8 sequence starting with byte 0xED in a string"),
            ([0x5B, 0x22, 0xE2, 0x82, 0x22, 0x5D], "line 1, column 3: invalid UTF-8 sequence starting with byte 0xE2 in a string"),
            ([0x5B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "line 1, column 3: invalid UTF-8 sequence starting with byte 0xF4 in a string"),
            ([0x5B, 0x22, 0x80, 0x22, 0x5D], "line 1, column 3: invalid UTF-8 sequence starting with byte 0x80 in a string"),
            ([0x5B, 0x22, 0xE2, 0x82], "line 1, column 2: unterminated string"),
            ([0x5B, 0x00, 0x31, 0x00], "line 1, column 1: the input is UTF-16, not UTF-8"),
            ([0xFF, 0xFE, 0x5B, 0x00], "line 1, column 1: the input is UTF-16, not UTF-8"),
            ([0x5B, 0x00, 0x00, 0x00], "line 1, column 1: the input is UTF-32, not UTF-8"),
        ] as [([UInt8], String)])
    func rejectsInvalidBytes(bytes: [UInt8], message: String) {
        #expect(parseFailure(bytes) == message)
    }

    @Test func wideEncodingsComeWithAHint() {
        var failure: JSONError?
        do throws(JSONError) { _ = try JSONParser.parse([0x00, 0x5B, 0x00, 0x5D]) } catch { failure = error }
        #expect(failure?.kind == .encoding)
        #expect(failure?.hint == "convert it with `iconv -f UTF-16 -t UTF-8`")
        do throws(JSONError) { _ = try JSONParser.parse([0x00, 0x00, 0x00, 0x5B]) } catch { failure = error }
        #expect(failure?.hint == "convert it with `iconv -f UTF-32 -t UTF-8`")
    }

    @Test func errorKindsSayWhatWentWrong() {
        func kind(_ bytes: [UInt8], _ options: JSONReaderOptions = .init()) -> JSONError.Kind? {
            do throws(JSONError) { _ = try JSONParser.parse(bytes, options: options) } catch { return error.kind }
            return nil
        }
        #expect(kind(Array("[1,]".utf8)) == .syntax)
        #expect(kind(Array("[\"\\uD800\"]".utf8)) == .encoding)
        #expect(kind([0x22, 0xC0, 0x80, 0x22]) == .encoding)
        #expect(kind(Array("\"abcd\"".utf8), JSONReaderOptions(maxStringBytes: 3)) == .limit)
        #expect(kind(Array("\"abc\"".utf8), JSONReaderOptions(maxStringBytes: 3)) == nil)
    }

    @Test(arguments: [1, 2, 511, 512])
    func acceptsNestingUpToTheLimit(depth: Int) throws {
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: Never.self) { try JSONParser.parse(text) }
    }

    @Test func rejectsNestingBeyondTheLimit() {
        let text = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(parseFailure(text) == "line 1, column 513: nesting is deeper than the limit of 512 levels")
        let deep = String(repeating: "{\"a\":", count: 3) + "1}}}"
        #expect(
            parseFailure(Array(deep.utf8), options: JSONReaderOptions(maxDepth: 2))
                == "line 1, column 11: nesting is deeper than the limit of 2 levels")
    }

    @Test func rejectsHundredThousandOpeningBracketsWithoutOverflowingTheStack() {
        let text = String(repeating: "[", count: 100_000)
        #expect(parseFailure(text) == "line 1, column 513: nesting is deeper than the limit of 512 levels")
        let opened = try? readRecords(text, [pattern(.anyIndex, .anyIndex)])
        #expect(opened == nil)
    }

    @Test func duplicateKeysAreAllowedWhenAskedFor() throws {
        let options = JSONReaderOptions(rejectDuplicateKeys: false)
        #expect(try JSONParser.parse(Array("{\"a\":1,\"a\":2}".utf8), options: options).jsonText == "{\"a\":1,\"a\":2}")
    }

    @Test func findsDuplicateKeysInBigObjects() {
        let members = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(parseFailure("{\(members),\"k3\":0}").hasSuffix("duplicate key \"k3\" in an object"))
    }

    @Test func errorDescriptionEscapesKeys() {
        #expect(parseFailure("{\"a\\nb\":1,\"a\\nb\":2}") == "line 1, column 11: duplicate key \"a\\nb\" in an object")
    }
}

@Suite("Duplicate key positions")
struct DuplicateKeyPositionTests {
    /// Found by FuzzJSON: the duplicate is detected after its value, which may span lines.
    @Test func duplicateKeyAfterAMultiLineValueIsReportedAtTheKey() {
        #expect {
            try JSONParser.parse(Array("{\"a\":1,\"a\":[\n]}".utf8))
        } throws: { error in
            let error = error as! JSONError
            return error.position == JSONPosition(offset: 7, line: 1, column: 8) && error.message == "duplicate key \"a\" in an object"
        }
    }
}

@Suite("Duplicate key positions in walked containers")
struct WalkedDuplicateKeyPositionTests {
    /// Found by FuzzJSON: in a container the reader walks (on the way to `statuses[*]`), the key's
    /// position was computed after the newline that follows its colon.
    @Test(arguments: [1, 7, 4096])
    func duplicateKeyBeforeALineBreakIsReportedAtTheKey(bufferSize: Int) {
        let reader = JSONRecordReader(
            source: BytesSource(Array("{\"id\":1,\"id\":\n1}".utf8)), patterns: [JSONPathPattern([.key("statuses"), .anyIndex])],
            options: JSONReaderOptions(bufferSize: bufferSize))
        #expect {
            while try reader.next() != nil {}
        } throws: { error in
            (error as! JSONError).position == JSONPosition(offset: 8, line: 1, column: 9)
        }
    }
}

/// Duplicate keys are found by hashing a key's first and last eight bytes, read from the window
/// (padded so that a short key at its end can be read eight bytes at a time) or from a copy for
/// keys with escapes; these pin what that must keep true.
@Suite("Duplicate keys by their bytes")
struct DuplicateKeyBytesTests {
    static let letters = Array("abcdefghijklmnopqrstuvwxyz")

    /// A key of every length from 0 to 20, given twice with another key between: found wherever
    /// the key falls in a small window.
    @Test(arguments: [1, 7, 13, 1 << 16])
    func aRepeatedKeyOfAnyLengthIsFound(bufferSize: Int) {
        let options = JSONReaderOptions(bufferSize: bufferSize)
        for length in 0...20 {
            let key = String((0..<length).map { Self.letters[$0 % 26] })
            let text = "{\"\(key)\":1,\"_\":2,\"\(key)\":3}"
            #expect(parseFailure(Array(text.utf8), options: options).hasSuffix("duplicate key \"\(key)\" in an object"), "\(text)")
        }
    }

    /// A key repeated after a value that has keys of its own (an object, or objects in an array,
    /// at any depth) is found: each key's hash is kept with its object while its value is read.
    @Test(arguments: [1, 7, 1 << 16])
    func aKeyRepeatedAfterAValueWithKeysIsFound(bufferSize: Int) {
        let options = JSONReaderOptions(bufferSize: bufferSize)
        for (text, key, column) in [
            (#"{"e":{"b":1},"e":2}"#, "e", 14),
            (#"{"e":[{"d":1}],"e":2}"#, "e", 16),
            (#"{"a":1,"e":{"b":{"c":1}},"e":2}"#, "e", 26),
            (#"{"e":{"b":{"c":[[[[{"d":[{}]}]]]]}},"e":[],"f":{}}"#, "e", 37),
            (#"{"long key here":{"x":{"y":1}},"z":0,"long key here":2}"#, "long key here", 38),
        ] {
            #expect(parseFailure(Array(text.utf8), options: options) == "line 1, column \(column): duplicate key \"\(key)\" in an object", "\(text)")
        }
    }

    /// The same key spelled with an escape and without is one key, in either order.
    @Test(arguments: [1, 7, 1 << 16])
    func escapedAndPlainSpellingsAreOneKey(bufferSize: Int) {
        let options = JSONReaderOptions(bufferSize: bufferSize)
        for text in ["{\"ab\":1,\"a\\u0062\":2}", "{\"a\\u0062\":1,\"ab\":2}", "{\"created_at_x\":1,\"created\\u005fat_x\":2}"] {
            #expect(parseFailure(Array(text.utf8), options: options).hasSuffix("in an object"), "\(text)")
        }
    }

    /// Keys alike in their first and last eight bytes (so alike in their hash) but not in the
    /// middle are two keys, as are keys that differ only in length or in a byte past their end.
    @Test func keysAlikeAtBothEndsAreDifferentKeys() {
        for text in [
            "{\"abcdefgh1ijklmnop\":1,\"abcdefgh2ijklmnop\":2}", "{\"abc\":1,\"abcd\":2}", "{\"a\":1,\"a\\u0000\":2}",
            "{\"\":1,\"a\":2}",
        ] {
            #expect(parseFailure(text) == "accepted", "\(text)")
        }
    }
}
