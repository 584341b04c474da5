import GraphImport
import GraphImportStoreTestSupport
import GraphImportJSON
import GraphImportSchema
import Testing

/// `records at data[*?]`: one map for a service that sends an array for a collection and one
/// object for a single resource (JSON:API).
@Suite("Records at [*?]")
struct LoneObjectRecordsTests {
    static let map = """
        records at data[*?] as Article
        entity Article
          key id
          id : String
          title <- attributes.title : String
        """

    @Test(arguments: StoreKind.testable)
    func oneMapImportsACollectionAndASingleResource(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.map)
        try fixture.importJSON(#"{"data": [{"id": "1", "attributes": {"title": "a"}}, {"id": "2", "attributes": {"title": "b"}}]}"#)
        try fixture.importJSON(#"{"data": {"id": "3", "attributes": {"title": "c"}}}"#)
        #expect(try fixture.select("SELECT id, title FROM articles ORDER BY id") == [["1", "a"], ["2", "b"], ["3", "c"]])
    }

    @Test(arguments: StoreKind.testable)
    func aScalarStillMissesWithWhatTheInputHolds(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.map)
        let caught = fixture.failure(#"{"data": "none"}"#)
        guard case .noRecords(_, let message, _, _)? = caught else {
            Issue.record("expected noRecords, got \(String(describing: caught))")
            return
        }
        #expect(message == "the records path `data[*?]` matches nothing: `data` is a string, not an array or an object")
    }

    @Test(arguments: StoreKind.testable)
    func plainAnyIndexOnALoneObjectSuggestsTheLoneObjectStep(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.map.replacingOccurrences(of: "data[*?]", with: "data[*]"))
        let caught = fixture.failure(#"{"data": {"id": "3", "attributes": {"title": "c"}}}"#)
        guard case .noRecords(_, let message, let hint, _)? = caught else {
            Issue.record("expected noRecords, got \(String(describing: caught))")
            return
        }
        #expect(message == "the records path `data[*]` matches nothing: `data` is an object with keys id, attributes, not an array")
        #expect(hint == "fix the `records at` line of the map; if the feed sends one object when it has one record, write `data[*?]`")
    }
}
