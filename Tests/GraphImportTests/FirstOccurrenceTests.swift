import GraphImport
import GraphImportJSON
import GraphImportStoreTestSupport
import Testing

/// `occurrence first`: the first occurrence of an object in a run wins (a feed that lists newest
/// first); the last wins by default.
@Suite("Which occurrence of an object wins")
struct FirstOccurrenceTests {
    static func map(_ occurrence: String) -> String {
        """
        records at $[*] as Post
        entity Post
          key id
          \(occurrence)
          id : Int
          title : String
          author : Person
        entity Person
          key id
          \(occurrence)
          id : Int
          name : String
        """
    }

    static let newestFirst =
        #"[{"id": 1, "title": "new", "author": {"id": 7, "name": "Ann (new)"}}, {"id": 1, "title": "old", "author": {"id": 7, "name": "Ann (old)"}}, "#
        + #"{"id": 2, "title": "x", "author": {"id": 7, "name": "Ann (older)"}}]"#

    static let posts = "SELECT p.id, p.title, a.name FROM posts p JOIN people a ON a.pk = p.author_pk ORDER BY p.id"

    @Test(arguments: StoreKind.testable)
    func theFirstOccurrenceInARunWinsAndUpdatesTheStoredObject(kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: Self.map("occurrence first"), fileName: "test.map")
        _ = try store.importJSON(Self.newestFirst, plan: plan).get()
        #expect(try store.select(Self.posts) == [["1", "new", "Ann (new)"], ["2", "x", "Ann (new)"]])
        // The next run's first occurrence updates what the store holds; its later ones do not.
        let next =
            #"[{"id": 1, "title": "newer", "author": {"id": 7, "name": "Ann (newer)"}}, {"id": 1, "title": "old", "author": {"id": 7, "name": "Ann (old)"}}]"#
        _ = try store.importJSON(next, plan: plan).get()
        #expect(try store.select(Self.posts) == [["1", "newer", "Ann (newer)"], ["2", "x", "Ann (newer)"]])
        // A re-import of the same feed changes nothing.
        let again = try store.importJSON(next, plan: plan).get()
        #expect(again.entities.allSatisfy { $0.counts.inserted + $0.counts.updated == 0 })
    }

    @Test(arguments: StoreKind.testable)
    func theOccurrencesPassedOverAreCountedPerEntity(kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: Self.map("occurrence first"), fileName: "test.map")
        // The second record is a later Post 1, passed over with its author; the third's author is a
        // later Person 7, linked by its key.
        let summary = try store.importJSON(Self.newestFirst, plan: plan).get()
        #expect(summary.entities.map { "\($0.name): \($0.counts.inserted) \($0.counts.passedOver)" } == ["Post: 2 1", "Person: 1 2"])
        #expect(summary.countsValue.jsonText.contains(#""Post":{"inserted":2,"updated":0,"unchanged":0,"skipped":0,"deleted":0,"passed_over":1}"#))
        // Under `occurrence last` every occurrence is written: none is passed over.
        let last = try StoreUnderTest(kind)
        let written = try last.importJSON(Self.newestFirst, plan: ImportPlan.compile(text: Self.map("occurrence last"), fileName: "test.map")).get()
        #expect(written.entities.allSatisfy { $0.counts.passedOver == 0 })
        #expect(!written.countsValue.jsonText.contains("passed_over"))
    }

    @Test(arguments: StoreKind.testable)
    func theLastOccurrenceWinsByDefault(kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: Self.map("occurrence last"), fileName: "test.map")
        _ = try store.importJSON(Self.newestFirst, plan: plan).get()
        #expect(try store.select(Self.posts) == [["1", "old", "Ann (older)"], ["2", "x", "Ann (older)"]])
    }

    @Test(arguments: StoreKind.testable)
    func aSkippedRecordsOccurrenceIsNotTheFirst(kind: StoreKind) throws {
        // The new Post 1 lacks its title: the store refuses the record, which wrote nothing.
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: Self.map("occurrence first"), fileName: "test.map")
        var options = ImportOptions()
        options.skipInvalid = true
        let feed =
            #"[{"id": 1, "author": {"id": 7, "name": "Ann (refused)"}}, {"id": 1, "title": "kept", "author": {"id": 7, "name": "Ann (kept)"}}]"#
        let summary = try store.importJSON(feed, plan: plan, options: options).get()
        #expect(summary.skippedRecords == 1)
        #expect(try store.select(Self.posts) == [["1", "kept", "Ann (kept)"]])
    }
}
