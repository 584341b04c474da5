import GraphImport
import GraphImportStoreTestSupport
import Testing

/// The stubs a run makes (objects made from a reference alone) and completes (given by the feed
/// later in the run), counted per entity the same on both stores: decided once
/// (`ObjectDecisions.stubState`), counted by SQLite from its memory of objects and by PostgreSQL
/// from the keys its batches made.
@Suite("Stub counts")
struct StubCountTests {
    static let map = """
        records at $[*] as Tweet
        entity Tweet
          key id
          id : Int
          text : String?
          author <- user : User?
          mentions <- mentioned : [User]
          replyTo <- in_reply_to : Tweet?
        entity User
          key id
          id : Int
          handle : String?
        """

    /// `[inserted, stubs, stubs completed]` of `entity`.
    static func stubCounts(_ summary: ImportSummary, _ entity: String) -> [Int] {
        guard let counts = summary.entities.first(where: { $0.name == entity })?.counts else { return [] }
        return [counts.inserted, counts.stubs, counts.stubsCompleted]
    }

    /// Tweet 2 is a reply's stub that arrives later in the feed (completed); tweet 4 never does
    /// (a stub); user 7 is a stub the same record then gives (completed); user 8 only a stub.
    /// `small`: a batch of one object on PostgreSQL, one object kept whole in SQLite's memory
    /// (the others' stub states kept in their fates).
    @Test(arguments: StoreKind.testable, [false, true])
    func aRunCountsTheStubsItMadeAndThoseItCompleted(_ kind: StoreKind, small: Bool) throws {
        let store = try MappedStore(kind, map: Self.map, batchSize: small ? 1 : 5000)
        var options = ImportOptions()
        if small { options.objectsInMemory = 1 }
        let summary = try store.importJSON(
            #"[{"id":1,"text":"a","in_reply_to":2,"user":7,"mentioned":[{"id":7,"handle":"ann"}]},"#
                + #"{"id":3,"text":"c","in_reply_to":4,"user":8},{"id":2,"text":"b"}]"#, options: options)
        #expect(Self.stubCounts(summary, "Tweet") == [4, 1, 1])
        #expect(Self.stubCounts(summary, "User") == [2, 1, 1])
        #expect(try store.select("SELECT id, text FROM tweets ORDER BY id") == [["1", "a"], ["2", "b"], ["3", "c"], ["4", "NULL"]])
    }

    /// The store marks a stub (`stub_run`, `StubMarkTests`): one an earlier run made, given now,
    /// is an update that completes it, and a stub named again by key is nothing new.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func anEarlierRunsStubIsUpdatedAndCompleted(_ kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: Self.map, batchSize: batchSize)
        try store.importJSON(#"[{"id":1,"text":"a","in_reply_to":2}]"#)
        let second = try store.importJSON(#"[{"id":2,"text":"b"},{"id":3,"text":"c","in_reply_to":2}]"#)
        #expect(Self.stubCounts(second, "Tweet") == [1, 0, 1])
        #expect(countsByEntity(second)["Tweet"] == [1, 1, 0, 0])
    }

    /// An object its mode keeps as stored (`mode insert`: the first occurrence wins) is not
    /// written: a stub the run made stays a stub though the feed gives it later.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func aStubItsModeKeepsIsStillAStub(_ kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: Self.map + "\n  mode insert", batchSize: batchSize)
        let summary = try store.importJSON(#"[{"id":1,"text":"a","user":7},{"id":2,"text":"b","user":{"id":7,"handle":"ann"}}]"#)
        #expect(Self.stubCounts(summary, "User") == [1, 1, 0])
        #expect(try store.select(#"SELECT id, handle FROM users"#) == [["7", "NULL"]])
    }

    /// A record skipped under `--skip-invalid` takes its stubs with it, from the store and the counts.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func aSkippedRecordsStubsAreNotCounted(_ kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: Self.map.replacingOccurrences(of: "text : String?", with: "text : String"), batchSize: batchSize)
        var skipped = 0
        let summary = try store.importJSON(
            #"[{"id":1,"user":7,"in_reply_to":9},{"id":2,"text":"b","user":8}]"#, options: ImportOptions(skipInvalid: true),
            onSkip: { _ in skipped += 1 })
        #expect(skipped == 1)
        #expect(Self.stubCounts(summary, "User") == [1, 1, 0])
        #expect(Self.stubCounts(summary, "Tweet") == [1, 0, 0])
    }
}
