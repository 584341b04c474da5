import GraphImport
import GraphImportStoreTestSupport
import Testing

/// `@root` values: written once at the document's root, before the records, when every object
/// that reads one agrees on it; named exactly otherwise.
@Suite("Export: values read from the response's root")
struct ExportRootValueTests {
    static let map = """
        records at items[*] as Issue
        entity Issue
          key number
          number : Int
          generatedAt <- @root.meta.generated_at : String
          repoId <- @root.repository.id : Int
          repo <- @root.repository : Repo
        entity Repo
          key id
          id : Int
          name <- full_name : String
        """

    static func page(_ generatedAt: String, _ numbers: [Int]) -> String {
        let items = numbers.map { #"{"number": \#($0)}"# }.joined(separator: ", ")
        return #"{"meta": {"generated_at": "\#(generatedAt)"}, "repository": {"id": 7, "full_name": "o/r"}, "items": [\#(items)]}"#
    }

    @Test(arguments: StoreKind.testable)
    func aValueEveryObjectAgreesOnIsWrittenAtTheRootBeforeTheRecords(kind: StoreKind) throws {
        let exported = try ExportRoundTripShapeTests.expectRoundTrip(Self.map, Self.page("2024-05-01", [1, 2]), kind: kind)
        #expect(
            exported == #"{"repository":{"id":7,"full_name":"o/r"},"meta":{"generated_at":"2024-05-01"},"items":[{"number":1},{"number":2}]}"# + "\n")
    }

    /// A root value beside the records inside one wrapper goes before them, as the records need it.
    @Test(arguments: StoreKind.testable)
    func aValueBesideTheRecordsInTheirWrapperIsWrittenBeforeThem(kind: StoreKind) throws {
        let map = "records at data.items[*] as Item\nentity Item\n  key id\n  id : Int\n  page <- @root.data.page : Int\n"
        let exported = try ExportRoundTripShapeTests.expectRoundTrip(map, #"{"data": {"page": 3, "items": [{"id": 1}, {"id": 2}]}}"#, kind: kind)
        #expect(exported == #"{"data":{"page":3,"items":[{"id":1},{"id":2}]}}"# + "\n")
    }

    /// A document that is the records' array has no root member: the records are written, the value named.
    @Test(arguments: StoreKind.testable)
    func aValueWhereTheRecordsAreIsNamedAndTheRecordsWritten(kind: StoreKind) throws {
        let plan = try ImportPlan.compile(text: "records at $[*] as A\nentity A\n  key id\n  id : Int\n  x <- @root.x : String?\n", fileName: "test.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(#"[{"id": 1}]"#, plan: plan).get()
        let (exported, limits) = try ExportRoundTripShapeTests.export(store, plan: plan)
        #expect(exported == #"[{"id":1}]"# + "\n")
        #expect(limits == ["@root.x: read by A.x: its path is where records or a meta value are written; not written"])
    }

    @Test(arguments: StoreKind.testable)
    func objectsThatHoldSeveralValuesAreNamedWithThem(kind: StoreKind) throws {
        let plan = try ImportPlan.compile(text: Self.map, fileName: "test.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(Self.page("2024-05-01", [1, 2]), plan: plan).get()
        _ = try store.importJSON(Self.page("2024-05-02", [3]), plan: plan).get()
        var (exported, limits) = try ExportRoundTripShapeTests.export(store, plan: plan)
        #expect(exported.contains(#""meta":{"generated_at":"2024-05-01"}"#))
        #expect(
            limits == [
                #"@root.meta.generated_at: read by Issue.generatedAt, whose objects hold 2 values ("2024-05-01", "2024-05-02") where the document holds one; written as the first, which an import gives to every object"#
            ])
        // A value read inside another root value (the repository's id inside the repository)
        // that its objects do not hold there.
        try store.execute("UPDATE issues SET generated_at = '2024-05-01', repo_id = 8 WHERE number = 3")
        (_, limits) = try ExportRoundTripShapeTests.export(store, plan: plan)
        #expect(
            limits == [
                "Issue.repoId: it is read from inside @root.repository, where the value written is Issue.repo's, and its objects hold others"
            ])
    }

    @Test(arguments: StoreKind.testable)
    func anEntitysExportNamesTheRootValuesItCannotWrite(kind: StoreKind) throws {
        let plan = try ImportPlan.compile(text: Self.map, fileName: "test.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(Self.page("2024-05-01", [1]), plan: plan).get()
        let (_, limits) = try ExportRoundTripShapeTests.export(store, plan: plan, ExportRequest(entity: "Issue"))
        #expect(
            limits == [
                "Issue.repo: it is read from @root.repository, which only an export of the document writes",
                "Issue.repoId: it is read from @root.repository, which only an export of the document writes",
                "Issue.generatedAt: it is read from @root.meta.generated_at, which only an export of the document writes",
            ])
    }
}
