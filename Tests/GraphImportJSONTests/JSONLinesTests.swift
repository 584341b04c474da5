import GraphImportJSON
import Testing

/// JSON Lines framing and how `.auto` decides between one text and one text per line.
@Suite struct JSONLinesTests {
    static let lines = "{\"a\": 1}\n\n  {\"a\": 2}\r\n[3, 4]\n"

    @Test func readsOneDocumentPerLineSkippingBlankLines() throws {
        let records = try readRecords(Self.lines, [.everyElement], format: .jsonLines)
        #expect(records.map(\.value.jsonText) == ["{\"a\":1}", "{\"a\":2}", "3", "4"])
        #expect(records.map(\.path.description) == ["$", "$", "$[0]", "$[1]"])
        #expect(records.map(\.documentIndex) == [0, 1, 2, 2])
        #expect(
            records.map(\.position.description) == [
                "line 1, column 1", "line 3, column 3", "line 4, column 2", "line 4, column 5",
            ])
        #expect(records.map(\.index) == [0, 1, 2, 3])
    }

    @Test func autoSwitchesToJSONLinesAfterTheFirstText() throws {
        let reader = JSONRecordReader(source: BytesSource(Array(Self.lines.utf8)), patterns: [pattern(.key("a"))])
        #expect(reader.format == .auto)
        #expect(try reader.next()?.value == .number(JSONNumber(literal: "1")))
        #expect(reader.format == .auto)
        #expect(try reader.next()?.position.line == 3)
        #expect(reader.format == .jsonLines)
        #expect(try reader.next() == nil)
        #expect(reader.bytesRead == Self.lines.utf8.count)
    }

    @Test func autoSettlesOnJSONForOneText() throws {
        let reader = JSONRecordReader(source: BytesSource(Array("[1]\n\n".utf8)), patterns: [.everyElement])
        #expect(try reader.next()?.value.jsonText == "1")
        #expect(try reader.next() == nil)
        #expect(reader.format == .json)
    }

    @Test(arguments: [
        ("{\"a\": 1} {\"a\": 2}", JSONInputFormat.auto, "line 1, column 10: unexpected '{' after the end of the JSON text"),
        ("{\"a\": 1} {\"a\": 2}", .jsonLines, "line 1, column 10: expected a line break after the JSON text, found '{'"),
        ("{\"a\": 1}\n{\"a\": 2}", .json, "line 2, column 1: unexpected '{' after the end of the JSON text"),
        ("{\"a\": 1}\n{\"a\": 2", .jsonLines, "line 2, column 8: unexpected end of input inside an object"),
        ("{\"a\": 1}\n{\"a\": 2}\n]", .auto, "line 3, column 1: expected a value, found ']'"),
        ("", .auto, "line 1, column 1: expected a value, found end of input"),
        ("\n", .json, "line 2, column 1: expected a value, found end of input"),
    ])
    func refusesBadFraming(text: String, format: JSONInputFormat, message: String) {
        var failure = "accepted"
        do throws(JSONError) {
            _ = try readRecords(text, [.everyElement], format: format)
        } catch {
            failure = error.description
        }
        #expect(failure == message)
    }

    @Test func emptyJSONLinesHasNoRecords() throws {
        #expect(try readRecords("", [.everyElement], format: .jsonLines).isEmpty)
        #expect(try readRecords("\n \n", [.everyElement], format: .jsonLines).isEmpty)
    }
}
