import GraphImport
import GraphImportStoreTestSupport
import Testing

/// A required value the feed leaves out is refused on both stores, also where a parent-scoped
/// child links back to a parent that is new in the same record.
@Suite("Required values under a parent-scoped child")
struct ParentScopedRequiredTests {
    static let map = """
        records at repos[*] as Repo
        entity Repo
          key id
          id : Int
          name <- full_name : String
          issues : [Issue]
        entity Issue
          key repoId, number
          repoId <- @parent.id : Int
          number : Int
          title : String
          owner <- @parent.id : Repo
        """

    @Test(arguments: StoreKind.testable)
    func aNewParentWithoutItsRequiredValueIsRefusedThoughItsChildLinksBack(kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: Self.map, fileName: "test.map")
        let result = store.importJSON(#"{"repos":[{"id":5,"issues":[{"number":1,"title":"t"}]}]}"#, plan: plan)
        guard case .failure(let failure) = result else {
            Issue.record("the repo without full_name was accepted: \(result)")
            return
        }
        #expect(failure.text.contains("Repo.name"), "\(failure.text)")
        // Nothing written: on SQLite not even the tables.
        if try store.tableNames().contains("repo") {
            #expect(try store.select("SELECT (SELECT count(*) FROM repo) + (SELECT count(*) FROM issue)") == [["0"]])
        }
    }

    @Test(arguments: StoreKind.testable)
    func theParentWithItsRequiredValueIsStoredWithItsChild(kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: Self.map, fileName: "test.map")
        _ = try store.importJSON(#"{"repos":[{"id":5,"full_name":"o/r","issues":[{"number":1,"title":"t"}]}]}"#, plan: plan).get()
        #expect(try store.select("SELECT id, name FROM repos") == [["5", "o/r"]])
        #expect(try store.select("SELECT repo_id, number, title FROM issues") == [["5", "1", "t"]])
    }
}
