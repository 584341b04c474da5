import GraphImportJSON
import Testing

/// Which values the reader selects, with their paths and positions.
@Suite struct JSONRecordReaderTests {
    static let search = """
        {"search_metadata": {"count": 2, "skip": [1, {"x": "y"}]},
         "statuses": [{"id": 1, "text": "a"}, {"id": 2, "text": "b"}]}
        """

    @Test func selectsEveryStatus() throws {
        let records = try readRecords(Self.search, [pattern(.key("statuses"), .anyIndex)])
        #expect(records.map(\.value.jsonText) == ["{\"id\":1,\"text\":\"a\"}", "{\"id\":2,\"text\":\"b\"}"])
        #expect(records.map(\.path.description) == ["$.statuses[0]", "$.statuses[1]"])
        #expect(records.map(\.position.description) == ["line 2, column 15", "line 2, column 39"])
        #expect(records.map(\.position.offset) == [73, 97])
        #expect(records.map(\.index) == [0, 1])
        #expect(records.map(\.patternIndex) == [0, 0])
    }

    @Test func selectsTheRootWithTheEmptyPattern() throws {
        let records = try readRecords("[1, 2]", [.root])
        #expect(records.map(\.value.jsonText) == ["[1,2]"])
        #expect(records.map(\.path) == [.root])
    }

    @Test func everyElementPatternTakesAnArrayApart() throws {
        let records = try readRecords(" [1, {\"a\": 2}, \"x\"] ", [.everyElement])
        #expect(records.map(\.value.jsonText) == ["1", "{\"a\":2}", "\"x\""])
        #expect(records.map(\.path.description) == ["$[0]", "$[1]", "$[2]"])
    }

    @Test func everyElementPatternTakesALoneObjectWhole() throws {
        let records = try readRecords("{\"a\": [1]}", [.everyElement])
        #expect(records.map(\.value.jsonText) == ["{\"a\":[1]}"])
        #expect(records.map(\.path) == [.root])
    }

    static let listing = """
        {"kind": "Listing", "data": {"after": null, "children": [
          {"kind": "t3", "data": {"id": "a", "replies": {"data": {"children": []}}}},
          {"kind": "t3", "data": {"id": "b"}}]}}
        """

    @Test func selectsRedditChildren() throws {
        let records = try readRecords(Self.listing, [pattern(.key("data"), .key("children"), .anyIndex, .key("data"))])
        #expect(records.map(\.path.description) == ["$.data.children[0].data", "$.data.children[1].data"])
        #expect(
            records.map(\.value.jsonText) == [
                "{\"id\":\"a\",\"replies\":{\"data\":{\"children\":[]}}}", "{\"id\":\"b\"}",
            ])
        #expect(records.map(\.position.description) == ["line 2, column 26", "line 3, column 26"])
    }

    @Test func selectsChildrenOfAnArrayOfListings() throws {
        let text = "[\(Self.listing), \(Self.listing)]"
        let records = try readRecords(text, [pattern(.anyIndex, .key("data"), .key("children"), .anyIndex, .key("data"))])
        #expect(
            records.map(\.path.description) == [
                "$[0].data.children[0].data", "$[0].data.children[1].data",
                "$[1].data.children[0].data", "$[1].data.children[1].data",
            ])
    }

    @Test func twoPatternsComeOutInDocumentOrder() throws {
        let text = "{\"descendants\": [{\"id\": 3}], \"x\": 0, \"ancestors\": [{\"id\": 1}, {\"id\": 2}]}"
        let records = try readRecords(text, [pattern(.key("ancestors"), .anyIndex), pattern(.key("descendants"), .anyIndex)])
        #expect(records.map(\.value.jsonText) == ["{\"id\":3}", "{\"id\":1}", "{\"id\":2}"])
        #expect(records.map(\.patternIndex) == [1, 0, 0])
        #expect(records.map(\.index) == [0, 1, 2])
    }

    @Test func indexPatternSelectsOneElement() throws {
        let records = try readRecords("{\"c\": [[0, 1], [2, 3], [4, 5]]}", [pattern(.key("c"), .index(1))])
        #expect(records.map(\.value.jsonText) == ["[2,3]"])
        #expect(records.map(\.path.description) == ["$.c[1]"])
    }

    @Test func aRecordInsideARecordComesAfterIt() throws {
        let records = try readRecords("[{\"a\": 1}]", [pattern(.anyIndex, .key("a")), .everyElement])
        #expect(records.map(\.value.jsonText) == ["{\"a\":1}", "1"])
        #expect(records.map(\.patternIndex) == [1, 0])
        #expect(records.map(\.path.description) == ["$[0]", "$[0].a"])
        #expect(records.map(\.index) == [0, 1])
    }

    @Test(arguments: [1, 2, 3, 7, 1 << 16])
    func nestedRootsAllDeliverTheirRecordsWithTheirOwnPositions(bufferSize: Int) throws {
        let text = """
            {"id": 1, "items": [{"id": 10, "sub": [{"id": 100}]},
              {"id": 11, "snippet": {"t": "x"}, "sub": []}], "tail": 2}
            """
        let patterns = [
            JSONPathPattern.root, pattern(.key("items"), .anyIndex), pattern(.key("items"), .anyIndex, .key("sub"), .anyIndex),
            pattern(.key("items"), .anyIndex, .key("snippet")),
        ]
        let records = try readRecords(text, patterns, bufferSize: bufferSize)
        #expect(
            records.map(\.path.description) == [
                "$", "$.items[0]", "$.items[0].sub[0]", "$.items[1]", "$.items[1].snippet",
            ])
        #expect(records.map(\.patternIndex) == [0, 1, 2, 1, 3])
        #expect(records.map(\.index) == [0, 1, 2, 3, 4])
        #expect(records[2].value.jsonText == "{\"id\":100}")
        #expect(
            records.map(\.position.description) == [
                "line 1, column 1", "line 1, column 21", "line 1, column 40", "line 2, column 3", "line 2, column 25",
            ])
        #expect(records.map(\.position.offset) == [0, 20, 39, 56, 78])
    }

    @Test func recordsInsideTheRecordsOfJSONLinesKeepTheirLineAndDocument() throws {
        let text = "{\"id\": 1, \"items\": [{\"id\": 2}]}\n{\"id\": 3, \"items\": []}\n{\"id\": 4, \"items\": [{\"id\": 5}]}\n"
        // Each line's text is a document: `items[*]` is read in each, inside its `$[*]` record.
        let records = try readRecords(text, [.everyElement, pattern(.key("items"), .anyIndex)], format: .jsonLines)
        #expect(
            records.map(\.value.jsonText) == [
                #"{"id":1,"items":[{"id":2}]}"#, #"{"id":2}"#, #"{"id":3,"items":[]}"#, #"{"id":4,"items":[{"id":5}]}"#, #"{"id":5}"#,
            ])
        #expect(records.map(\.documentIndex) == [0, 0, 1, 2, 2])
        #expect(records.map(\.path.description) == ["$", "$.items[0]", "$", "$", "$.items[0]"])
        #expect(records.map(\.position.description) == ["line 1, column 1", "line 1, column 21", "line 2, column 1", "line 3, column 1", "line 3, column 21"])
    }

    @Test func aValueTwoPathsTakeIsARecordOfEach() throws {
        // `items[*]` and `items[*?]` both take each element; `items[0]` takes the first again.
        let patterns = [pattern(.key("items"), .anyIndex), pattern(.key("items"), .anyIndexOrOne), pattern(.key("items"), .index(0))]
        let records = try readRecords("{\"items\": [{\"id\": 1}, {\"id\": 2}]}", patterns)
        #expect(records.map(\.patternIndex) == [0, 1, 2, 0, 1])
        #expect(records.map(\.path.description) == ["$.items[0]", "$.items[0]", "$.items[0]", "$.items[1]", "$.items[1]"])
    }

    @Test func oneRecordForTwoRoutesOfTheSamePath() throws {
        // Lines of one path share its first pattern: the engine's routes pass a record on.
        let records = try readRecords("[{\"a\": 1}]", [.everyElement, .everyElement])
        #expect(records.map(\.patternIndex) == [0])
    }

    @Test func anInnerPathThatMissesInsideARecordSaysWhere() throws {
        let reader = JSONRecordReader(
            source: BytesSource(Array("{\"id\": 1,\n \"items\": {\"a\": 1}}".utf8)),
            patterns: [.root, pattern(.key("items"), .anyIndex)])
        var records: [JSONRecord] = []
        while let record = try reader.next() { records.append(record) }
        #expect(records.map(\.path) == [.root])
        guard case .missed(let miss) = reader.outcome(ofPattern: 1) else {
            Issue.record("expected a miss, got \(reader.outcome(ofPattern: 1))")
            return
        }
        #expect(miss.level.description == "$.items")
        #expect(miss.depth == 1)
        #expect(miss.reason == .wrongKind)
        #expect(miss.position.description == "line 2, column 11")
        #expect(reader.outcome(ofPattern: 0) == .selected)
    }

    @Test func anErrorInsideARecordWithRecordsInsideItHasItsInputPosition() throws {
        let options = JSONReaderOptions(maxStringBytes: 3)
        let reader = JSONRecordReader(
            source: BytesSource(Array("[\n {\"items\": [\"abcdef\"]}]".utf8)), patterns: [.everyElement, pattern(.anyIndex, .key("items"), .anyIndex)],
            options: options)
        do throws(JSONError) {
            while try reader.next() != nil {}
            Issue.record("the long string was accepted")
        } catch {
            #expect(error.position.line == 2)
        }
    }

    @Test(arguments: [
        ("{\"statuses\": {\"0\": 1}}", pattern(.key("statuses"), .anyIndex)),
        ("[{\"a\": 1}]", pattern(.key("a"))),
        ("{\"a\": [1]}", pattern(.key("a"), .key("b"))),
        ("{\"a\": [1]}", pattern(.key("a"), .index(1))),
        ("{\"b\": [1]}", pattern(.key("a"), .anyIndex)),
    ])
    func wrongTypesMatchNothing(text: String, pattern: JSONPathPattern) throws {
        #expect(try readRecords(text, [pattern]).isEmpty)
    }

    @Test(arguments: [
        ("{\"statuses\": [1,]}", "line 1, column 17: expected a value, found ']'"),
        ("{\"skip\": {\"a\": [1 2]}, \"statuses\": []}", "line 1, column 19: expected ',' or ']' after an array element, found '2'"),
        ("{\"skip\": \"\\q\"}", "line 1, column 11: invalid escape '\\' followed by 'q' in a string"),
        ("{\"statuses\": [], \"statuses\": []}", "line 1, column 18: duplicate key \"statuses\" in an object"),
        ("{\"statuses\": [{}, {\"a\": 1, \"a\": 2}]}", "line 1, column 28: duplicate key \"a\" in an object"),
        ("{\"statuses\": [{}", "line 1, column 17: unexpected end of input inside an array"),
        ("{\"statuses\": []", "line 1, column 16: unexpected end of input inside an object"),
        ("{\"statuses\": [] \"x\"", "line 1, column 17: expected ',' or '}' after an object member, found '\"'"),
        ("{\"statuses\": []} x", "line 1, column 18: unexpected 'x' after the end of the JSON text"),
        ("", "line 1, column 1: expected a value, found end of input"),
    ])
    func reportsErrorsWhileWalkingAndSkipping(text: String, message: String) {
        var failure = "accepted"
        do throws(JSONError) {
            _ = try readRecords(text, [pattern(.key("statuses"), .anyIndex)])
        } catch {
            failure = error.description
        }
        #expect(failure == message)
    }

    /// A document that exercises every token shape across window boundaries.
    static let awkward = """
        {"meta": {"skipped": ["caf\u{e9}", "\\ud83d\\ude00", -1.5e+3, true, false, null, {}, []]},
         "items": [
          {"id": 9007199254740993, "name": "\\u00e9\\n\\"q\\"", "emoji": "\u{1F600}\\ud83d\\ude00", "n": [0, -0.0, 1E-2]},
          "plain string that is longer than seventeen bytes",
          [[], {}, [{"deep": [1, [2, [3]]]}]],
          -12345678901234567890
         ],
         "tail": "\u{10FFFF}"}
        """

    @Test(arguments: Array(1...17) + [4096])
    func everyBufferSizeGivesTheSameRecords(bufferSize: Int) throws {
        let patterns = [pattern(.key("items"), .anyIndex), pattern(.key("tail"))]
        let expected = try readRecords(Self.awkward, patterns)
        #expect(expected.count == 5)
        #expect(try readRecords(Self.awkward, patterns, bufferSize: bufferSize) == expected)
        let lines = "\(Self.search.replacingOccurrences(of: "\n", with: " "))\n\n[1, \"\u{e9}\"]\n"
        #expect(try readRecords(lines, [.everyElement], bufferSize: bufferSize) == readRecords(lines, [.everyElement]))
    }

    @Test(arguments: Array(1...17) + [4096])
    func everyBufferSizeGivesTheSameError(bufferSize: Int) {
        let text = Self.awkward.replacingOccurrences(of: "[3]", with: "[3,]")
        var failure = "accepted"
        do throws(JSONError) {
            _ = try readRecords(text, [pattern(.key("items"), .anyIndex)], bufferSize: bufferSize)
        } catch {
            failure = error.description
        }
        #expect(failure == "line 5, column 33: expected a value, found ']'")
    }

    @Test func decodesEscapesInSelectedValues() throws {
        let records = try readRecords(Self.awkward, [pattern(.key("items"), .index(0))])
        guard case .object(let item) = records.first?.value else {
            Issue.record("no record")
            return
        }
        #expect(item["name"] == .string("\u{e9}\n\"q\""))
        #expect(item["emoji"] == .string("\u{1F600}\u{1F600}"))
        #expect(item["id"] == .number(JSONNumber(literal: "9007199254740993")))
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

@Suite("Capturing response-level values")
struct JSONCaptureTests {
    func read(_ text: String, records: [JSONPathPattern], capture: [JSONPathPattern], bufferSize: Int = 1 << 16)
        throws -> (records: [JSONValue], captured: [Int: JSONValue])
    {
        let reader = JSONRecordReader(
            source: BytesSource(Array(text.utf8)), patterns: records, capture: capture,
            options: JSONReaderOptions(bufferSize: bufferSize))
        var values: [JSONValue] = []
        while let record = try reader.next() { values.append(record.value) }
        return (values, reader.captured)
    }

    @Test(arguments: [1, 3, 7, 64, 4096])
    func capturesValuesBeforeAndAfterTheRecords(bufferSize: Int) throws {
        let text = #"{"meta":{"max_id":674674925823787008},"statuses":[{"id":1},{"id":2}],"next":"abc","more":true}"#
        let result = try read(
            text, records: [JSONPathPattern([.key("statuses"), .anyIndex])],
            capture: [JSONPathPattern([.key("meta"), .key("max_id")]), JSONPathPattern([.key("next")]), JSONPathPattern([.key("absent")])],
            bufferSize: bufferSize)
        #expect(result.records.count == 2)
        #expect(result.captured[0] == .number(JSONNumber(literal: "674674925823787008")))
        #expect(result.captured[1] == .string("abc"))
        #expect(result.captured[2] == nil)
    }

    @Test func aContainerOnTheWayToRecordsIsWalkedNotCaptured() throws {
        let result = try read(
            #"{"data":{"after":"t3_x","children":[{"id":1}]}}"#, records: [JSONPathPattern([.key("data"), .key("children"), .anyIndex])],
            capture: [JSONPathPattern([.key("data")]), JSONPathPattern([.key("data"), .key("after")])])
        #expect(result.records == [.object(JSONObject([JSONMember(key: "id", value: .number(JSONNumber(literal: "1")))]))])
        #expect(result.captured[0] == nil)
        #expect(result.captured[1] == .string("t3_x"))
    }

    @Test func theLatestDocumentOfJSONLinesWins() throws {
        let result = try read(
            "{\"cursor\":\"a\",\"items\":[1]}\n{\"cursor\":\"b\",\"items\":[2]}\n", records: [JSONPathPattern([.key("items"), .anyIndex])],
            capture: [JSONPathPattern([.key("cursor")])])
        #expect(result.records.count == 2)
        #expect(result.captured[0] == .string("b"))
    }
}
