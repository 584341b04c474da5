import GraphImportJSON
import Testing

/// `{*}`: every member of an object is a record, in document order.
@Suite struct KeyedStepReaderTests {
    let users = pattern(.key("users"), .anyMember)

    @Test func takesEveryMemberInDocumentOrder() throws {
        let records = try readRecords(#"{"users": {"bob": {"n": 2}, "alice": {"n": 1}, "x": true}, "meta": {}}"#, [users])
        #expect(records.map(\.value.jsonText) == [#"{"n":2}"#, #"{"n":1}"#, "true"])
        #expect(records.map(\.path.description) == ["$.users.bob", "$.users.alice", "$.users.x"])
    }

    @Test func emptyObjectIsAnEmptyFeed() throws {
        #expect(try outcome(#"{"users": {}}"#) == .empty)
    }

    @Test func arrayIsAMiss() throws {
        guard case .missed(let miss) = try outcome(#"{"users": [{"n": 1}]}"#) else {
            Issue.record("expected a miss")
            return
        }
        #expect(miss.reason == .wrongKind)
        #expect(miss.level.description == "$.users")
        #expect(miss.pattern.description == "$.users{*}")
    }

    private func outcome(_ text: String) throws -> JSONPatternOutcome {
        let reader = JSONRecordReader(source: BytesSource(Array(text.utf8)), patterns: [users])
        while try reader.next() != nil {}
        return reader.outcome(ofPattern: 0)
    }
}
