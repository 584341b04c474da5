import GraphImportJSON
import Testing

/// `[*?]`: every element of an array, or a lone object as the one element.
@Suite struct LoneObjectStepTests {
    let data = pattern(.key("data"), .anyIndexOrOne)

    @Test func takesEveryElementOfAnArray() throws {
        let records = try readRecords(#"{"data": [{"id": "1"}, {"id": "2"}], "meta": {}}"#, [data])
        #expect(records.map(\.value.jsonText) == [#"{"id":"1"}"#, #"{"id":"2"}"#])
        #expect(records.map(\.path.description) == ["$.data[0]", "$.data[1]"])
    }

    @Test func takesALoneObjectAsTheOneElement() throws {
        let records = try readRecords(#"{"data": {"id": "1", "tags": [1]}, "included": []}"#, [data])
        #expect(records.map(\.value.jsonText) == [#"{"id":"1","tags":[1]}"#])
        #expect(records.map(\.path.description) == ["$.data"])
    }

    @Test(arguments: [#"{"data": []}"#, #"{"data": null}"#])
    func isAnEmptyFeedOverAnEmptyArrayOrNull(_ text: String) throws {
        #expect(try outcome(text) == .empty)
    }

    @Test func missesOnAScalar() throws {
        guard case .missed(let miss) = try outcome(#"{"data": "none"}"#) else {
            Issue.record("expected a miss")
            return
        }
        #expect(miss.reason == .wrongKind)
        #expect(miss.level.description == "$.data")
    }

    @Test func plainAnyIndexStillMissesOnALoneObject() throws {
        let reader = JSONRecordReader(
            source: BytesSource(Array(#"{"data": {"id": "1"}}"#.utf8)), patterns: [pattern(.key("data"), .anyIndex)])
        while try reader.next() != nil {}
        guard case .missed = reader.outcome(ofPattern: 0) else {
            Issue.record("expected a miss, got \(reader.outcome(ofPattern: 0))")
            return
        }
    }

    private func outcome(_ text: String) throws -> JSONPatternOutcome {
        let reader = JSONRecordReader(source: BytesSource(Array(text.utf8)), patterns: [data])
        while try reader.next() != nil {}
        return reader.outcome(ofPattern: 0)
    }
}
