import GraphImportJSON
import Testing

/// Reads every record, skipping malformed texts of JSON Lines; each skipped text as "line:column".
private func readSkipping(_ text: String, format: JSONInputFormat = .jsonLines, bufferSize: Int) throws -> (values: [String], skipped: [String]) {
    let reader = JSONRecordReader(
        source: BytesSource(Array(text.utf8)), patterns: [.everyElement], format: format, options: JSONReaderOptions(bufferSize: bufferSize))
    var values: [String] = []
    var skipped: [String] = []
    while true {
        do throws(JSONError) {
            guard let record = try reader.next() else { break }
            values.append(record.value.jsonText)
        } catch {
            guard try reader.skipMalformedText(after: error) else { throw error }
            skipped.append("\(error.position.line):\(error.position.column)")
        }
    }
    return (values, skipped)
}

/// A malformed line of JSON Lines can be skipped and the reading resumed at the next line;
/// a malformed JSON document cannot (there is no next record to resume at).
@Suite struct JSONLinesRecoveryTests {
    /// Line 2 breaks mid-line, line 3 is cut off (its error is found on line 4), line 5 has a raw
    /// newline in a string (found at the end of line 5).
    static let feed = "{\"id\":1}\n{\"id\":2,,}\n{\"id\":3\n{\"id\":4}\n{\"id\":\"abc\n{\"id\":5}\n"

    @Test(arguments: [1, 2, 3, 7, 64, 1 << 16])
    func skipsEachMalformedLineAndReadsTheRest(bufferSize: Int) throws {
        let (values, skipped) = try readSkipping(Self.feed, bufferSize: bufferSize)
        #expect(values == [#"{"id":1}"#, #"{"id":4}"#, #"{"id":5}"#])
        #expect(skipped == ["2:9", "4:1", "5:11"])
    }

    @Test(arguments: [1, 4, 64])
    func lineWithAStringPastTheLimitIsSkipped(bufferSize: Int) throws {
        let text = "{\"id\":1}\n{\"id\":\"" + String(repeating: "x", count: 40) + "\"}\n{\"id\":3}\n"
        let reader = JSONRecordReader(
            source: BytesSource(Array(text.utf8)), patterns: [.everyElement], format: .jsonLines,
            options: JSONReaderOptions(maxStringBytes: 8, bufferSize: bufferSize))
        var values: [String] = []
        var kinds: [JSONError.Kind] = []
        while true {
            do throws(JSONError) {
                guard let record = try reader.next() else { break }
                values.append(record.value.jsonText)
            } catch {
                guard try reader.skipMalformedText(after: error) else { throw error }
                kinds.append(error.kind)
            }
        }
        #expect(values == [#"{"id":1}"#, #"{"id":3}"#])
        #expect(kinds == [.limit])
    }

    @Test func malformedLineKeepsItsRecordIndex() throws {
        let reader = JSONRecordReader(source: BytesSource(Array("{\"id\":1}\n{x}\n{\"id\":3}\n".utf8)), patterns: [.everyElement], format: .jsonLines)
        #expect(try reader.next()?.index == 0)
        do throws(JSONError) {
            _ = try reader.next()
            Issue.record("line 2 is malformed")
        } catch {
            #expect(reader.nextRecordIndex == 1)
            #expect(try reader.skipMalformedText(after: error))
        }
        #expect(try reader.next()?.index == 2)
    }

    @Test func malformedJSONDocumentCannotBeSkipped() throws {
        #expect(throws: JSONError.self) { try readSkipping("[{\"id\":1},\n{\"id\":2,,}]\n", format: .json, bufferSize: 64) }
        // `.auto` knows JSON Lines only once a second text begins: an error in the first is final.
        #expect(throws: JSONError.self) { try readSkipping("{\"id\":1,,}\n{\"id\":2}\n", format: .auto, bufferSize: 64) }
        #expect(try readSkipping("{\"id\":1}\n{\"id\":2,,}\n{\"id\":3}\n", format: .auto, bufferSize: 64).values.count == 2)
    }

    /// Decided: texts of JSON Lines may span lines (concatenated pretty-printed documents, as jq
    /// and mongoimport write and read them); only a line break must separate two texts.
    @Test func prettyPrintedTextsReadAsJSONLines() throws {
        let records = try readRecords("{\n  \"id\": 1\n}\n{\n  \"id\": 2\n}\n", [.everyElement], format: .jsonLines)
        #expect(records.map(\.value.jsonText) == [#"{"id":1}"#, #"{"id":2}"#])
        #expect(records.map(\.position.line) == [1, 4])
    }

    /// Decided: a UTF-8 byte order mark is skipped at the start of the input only (RFC 8259
    /// allows a parser to ignore it there); columns on line 1 do not count it. Anywhere else it is
    /// not whitespace, and is an error.
    @Test func byteOrderMarkIsSkippedOnlyAtTheStart() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let records = try readRecords(bom + Array("{\"id\":1}\n{\"id\":2}\n".utf8), [.everyElement], format: .jsonLines)
        #expect(records.map(\.position.description) == ["line 1, column 1", "line 2, column 1"])
        #expect(throws: JSONError.self) { try readRecords(Array("{\"id\":1}\n".utf8) + bom + Array("{\"id\":2}\n".utf8), [.everyElement]) }
    }

    /// Decided: `\u0000` is valid JSON and reads as U+0000; what the store does with it is the engine's rule.
    @Test func escapedNULReadsAsAScalar() throws {
        #expect(try readRecords(#"["a\u0000b"]"#, [.everyElement]).first?.value == .string("a\u{0}b"))
    }
}

/// What each pattern met, kept by the reader, so that a path that fits nothing can be told from an empty feed.
@Suite struct JSONPatternOutcomeTests {
    private func outcomes(_ text: String, _ patterns: [JSONPathPattern], capture: [JSONPathPattern] = []) throws -> [JSONPatternOutcome] {
        let reader = JSONRecordReader(source: BytesSource(Array(text.utf8)), patterns: patterns, capture: capture)
        while try reader.next() != nil {}
        return (0..<reader.patternCount).map { reader.outcome(ofPattern: $0) }
    }

    @Test func selectedEmptyAndMissedAreToldApart() throws {
        let items = pattern(.key("items"), .anyIndex)
        #expect(try outcomes(#"{"items":[1]}"#, [items]) == [.selected])
        #expect(try outcomes(#"{"items":[]}"#, [items]) == [.empty])
        #expect(try outcomes(#"{"items":null}"#, [items]) == [.empty])
        #expect(try outcomes("[]", [items]) == [.empty])
        let miss = JSONPathMiss(
            reason: .absent, pattern: items, depth: 0, level: .root,
            found: .object([.init(key: "data", kind: .array), .init(key: "meta", kind: .object)]),
            position: JSONPosition(offset: 0, line: 1, column: 1))
        #expect(try outcomes(#"{"data":[1],"meta":{}}"#, [items]) == [.missed(miss)])
    }

    @Test func wrongKindIsDescribedOneLevelDeep() throws {
        let items = pattern(.key("items"), .anyIndex)
        guard case .missed(let miss) = try outcomes(#"{"items":{"a":[1],"b":"x"}}"#, [items])[0] else {
            Issue.record("expected a miss")
            return
        }
        #expect(miss.reason == .wrongKind)
        #expect(miss.level == pattern(.key("items")))
        #expect(miss.found == .object([.init(key: "a", kind: .array), .init(key: "b", kind: .string)]))
        #expect(miss.position.column == 10)
    }

    @Test func capturePatternsHaveOutcomesToo() throws {
        let result = try outcomes(
            #"{"items":[],"paging":{"prev":1}}"#, [pattern(.key("items"), .anyIndex)], capture: [pattern(.key("paging"), .key("next"))])
        #expect(result[0] == .empty)
        guard case .missed(let miss) = result[1] else {
            Issue.record("expected a miss")
            return
        }
        #expect(miss.found.description == "an object with key prev")
    }
}

extension JSONPatternOutcomeTests {
    /// A null or `[]` met by one value does not make a miss by another an empty feed, in an array
    /// as in JSON Lines: the path fits none of the values it meets.
    @Test(arguments: [
        "{\"x\":1}\nnull\n{\"x\":2}\n", "[{\"x\":1},null,{\"x\":2}]", "null\n{\"x\":1}\n", "[[],{\"x\":1}]",
        "{\"user\":{\"id\":1}}\nnull\n",
    ])
    func aMissElsewhereOutweighsANull(_ text: String) throws {
        guard case .missed = try outcomes(text, [pattern(.anyIndex, .key("user"))])[0] else {
            Issue.record("expected a miss for \(text.debugDescription)")
            return
        }
    }

    @Test func onlyNullsAndEmptyArraysAreAnEmptyFeed() throws {
        let user = pattern(.anyIndex, .key("user"))
        #expect(try outcomes("null\nnull\n", [user]) == [.empty])
        #expect(try outcomes("[null,[],{\"user\":{\"id\":1}}]", [user]) == [.selected])
        #expect(try outcomes(#"{"items":[]}"# + "\n" + #"{"items":null}"#, [pattern(.key("items"), .anyIndex)]) == [.empty])
    }

    /// A pattern that misses where another selects the whole value must not take the value away.
    @Test func missOfOnePatternDoesNotHideAnotherPatternsRecord() throws {
        let reader = JSONRecordReader(source: BytesSource(Array("[1,2]".utf8)), patterns: [pattern(.key("items"), .anyIndex), .root])
        #expect(try reader.next()?.value.jsonText == "[1,2]")
        #expect(try reader.next() == nil)
        #expect(reader.outcome(ofPattern: 1) == .selected)
    }
}
