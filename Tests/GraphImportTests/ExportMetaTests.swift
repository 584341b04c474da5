import GraphImport
import GraphImportStoreTestSupport
import Testing

/// `meta` values the document has no place for: named when the store holds one, with what to do.
@Suite("Export: meta values beside records")
struct ExportMetaTests {
    /// JSON Lines whose lines are records with records inside: an import takes each line whole as
    /// a record, and reads no meta value inside it.
    static let map = """
        records at $[*] as Repo
        records at issues[*] as Issue
        meta cursor <- next : String?
        entity Repo
          key id
          id : Int
          issues : [Issue]
        entity Issue
          key id
          id : Int
        """

    static let lines = """
        {"id": 1, "next": "a", "issues": [{"id": 10}]}
        {"id": 2, "next": "b", "issues": []}

        """

    @Test(arguments: StoreKind.testable)
    func aMetaValueNoRecordLineHoldsIsNotNamedWhenTheStoreHasNone(kind: StoreKind) throws {
        let exported = try ExportRoundTripShapeTests.expectRoundTrip(Self.map, Self.lines, kind: kind)
        #expect(exported == #"{"id":1,"issues":[{"id":10}]}"# + "\n" + #"{"id":2,"issues":[]}"# + "\n")
    }

    @Test(arguments: StoreKind.testable)
    func aStoredMetaValueTheDocumentHasNoPlaceForIsNamedWithWhatToDo(kind: StoreKind) throws {
        let plan = try ImportPlan.compile(text: Self.map, fileName: "test.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(Self.lines, plan: plan, options: ImportOptions(setMeta: [("cursor", .string("b"))])).get()
        let (_, limits) = try ExportRoundTripShapeTests.export(store, plan: plan)
        #expect(
            limits == [
                "meta cursor: the store holds b; the document is the records of `records at $[*]`, one a line, and an import reads no meta value "
                    + "inside a record; not written (read a value of each record with an attribute of its entity, which export writes back)"
            ])
        let (_, entityLimits) = try ExportRoundTripShapeTests.export(store, plan: plan, ExportRequest(entity: "Repo", jsonLines: true))
        #expect(entityLimits == ["meta cursor: the store holds b; only an export of the document writes the map's meta values; not written"])
    }
}
