import GraphImport
import GraphImportStoreTestSupport
import Testing

/// A stub's row is marked (`stub_run`, the run that made it) until the feed gives its object, on
/// both stores: a dangling reference is one query away, and a stub an earlier run made counts as
/// completed when a later run gives it.
@Suite("Stub marks")
struct StubMarkTests {
    /// Per tweet in key order: `id`, then `stub` (marked by the run that inserted it), `no` (not
    /// marked) or `other` (marked by another run than the one that inserted it).
    static let marks = """
        SELECT id, CASE WHEN stub_run IS NULL THEN 'no' WHEN stub_run = inserted_run THEN 'stub' ELSE 'other' END FROM tweets ORDER BY id
        """

    /// The tweets whose reply links to a stub: a dangling reference.
    static let dangling = "SELECT t.id FROM tweets t JOIN tweets r ON r.pk = t.reply_to_pk WHERE r.stub_run IS NOT NULL ORDER BY t.id"

    static func options(small: Bool) -> ImportOptions {
        var options = ImportOptions()
        if small { options.objectsInMemory = 1 }
        return options
    }

    /// Tweet 2 and user 7 are stubs the same run completes; tweet 4 and user 8 stay stubs.
    /// `small`: a batch of one object on PostgreSQL, one object kept whole in SQLite's memory.
    @Test(arguments: StoreKind.testable, [false, true])
    func aStubIsMarkedUntilTheFeedGivesIt(_ kind: StoreKind, small: Bool) throws {
        let store = try MappedStore(kind, map: StubCountTests.map, batchSize: small ? 1 : 5000)
        let summary = try store.importJSON(
            #"[{"id":1,"text":"a","in_reply_to":2,"user":7,"mentioned":[{"id":7,"handle":"ann"}]},"#
                + #"{"id":3,"text":"c","in_reply_to":4,"user":8},{"id":2,"text":"b"}]"#, options: Self.options(small: small))
        #expect(StubCountTests.stubCounts(summary, "Tweet") == [4, 1, 1])
        #expect(try store.select(Self.marks) == [["1", "no"], ["2", "no"], ["3", "no"], ["4", "stub"]])
        #expect(try store.select("SELECT id FROM users WHERE stub_run IS NOT NULL") == [["8"]])
        #expect(try store.select(Self.dangling) == [["3"]])
        // The mark is the engine's: export writes the stub by its key, never the column.
        let exported = try store.store.export(plan: store.plan)
        #expect(exported.contains("in_reply_to") && !exported.contains("stub"), "\(exported)")
    }

    /// A stub an earlier run made is completed when a later run gives it (with new values or its
    /// key alone), and one named again by key keeps the mark its run gave it; a re-import changes
    /// nothing.
    @Test(arguments: StoreKind.testable, [false, true])
    func aLaterRunCompletesAnEarlierRunsStub(_ kind: StoreKind, small: Bool) throws {
        let store = try MappedStore(kind, map: StubCountTests.map, batchSize: small ? 1 : 5000)
        let options = Self.options(small: small)
        let first = try store.importJSON(#"[{"id":1,"text":"a","in_reply_to":2},{"id":3,"text":"c","in_reply_to":4}]"#, options: options)
        #expect(StubCountTests.stubCounts(first, "Tweet") == [4, 2, 0])
        let feed = #"[{"id":2,"text":"b"},{"id":5,"text":"e","in_reply_to":4}]"#
        let second = try store.importJSON(feed, options: options)
        #expect(StubCountTests.stubCounts(second, "Tweet") == [1, 0, 1])
        #expect(countsByEntity(second)["Tweet"] == [1, 1, 0, 0])
        let marks = [["1", "no"], ["2", "no"], ["3", "no"], ["4", "stub"], ["5", "no"]]
        #expect(try store.select(Self.marks) == marks)
        #expect(try store.select(Self.dangling) == [["3"], ["5"]])

        let again = try store.importJSON(feed, options: options)
        #expect(StubCountTests.stubCounts(again, "Tweet") == [0, 0, 0])
        #expect(countsByEntity(again)["Tweet"] == [0, 0, 2, 0])
        #expect(try store.select(Self.marks) == marks)

        // Given with its key alone: unchanged, but no longer a stub.
        let keyOnly = try store.importJSON(#"[{"id":4}]"#, options: options)
        #expect(StubCountTests.stubCounts(keyOnly, "Tweet") == [0, 0, 1])
        #expect(countsByEntity(keyOnly)["Tweet"] == [0, 0, 1, 0])
        #expect(try store.select(Self.marks) == [["1", "no"], ["2", "no"], ["3", "no"], ["4", "no"], ["5", "no"]])
        #expect(try store.select(Self.dangling) == [])
    }

    /// An object its mode keeps as stored is not written: a stub stays marked though the feed gives it.
    @Test(arguments: StoreKind.testable)
    func aStubItsModeKeepsStaysMarked(_ kind: StoreKind) throws {
        let store = try MappedStore(kind, map: StubCountTests.map + "\n  mode insert", batchSize: 1)
        try store.importJSON(#"[{"id":1,"text":"a","user":7}]"#)
        let second = try store.importJSON(#"[{"id":2,"text":"b","user":{"id":7,"handle":"ann"}}]"#)
        #expect(StubCountTests.stubCounts(second, "User") == [0, 0, 0])
        #expect(try store.select("SELECT id, handle FROM users WHERE stub_run IS NOT NULL") == [["7", "NULL"]])
    }

    /// A store made before the mark (no `stub_run` column) gains the column on its next import;
    /// the rows it held are not known to be stubs, so one given now counts as updated, while the
    /// run's new stubs are marked.
    @Test(arguments: StoreKind.testable)
    func anOlderStoreGainsTheColumn(_ kind: StoreKind) throws {
        let store = try MappedStore(kind, map: StubCountTests.map)
        try store.importJSON(#"[{"id":1,"text":"a","in_reply_to":2,"user":7}]"#)
        try store.execute("ALTER TABLE tweets DROP COLUMN stub_run")
        try store.execute("ALTER TABLE users DROP COLUMN stub_run")
        let second = try store.importJSON(#"[{"id":2,"text":"b","in_reply_to":6}]"#)
        #expect(second.schemaChanges.contains("add column tweets.stub_run"))
        #expect(second.schemaChanges.contains("add column users.stub_run"))
        #expect(StubCountTests.stubCounts(second, "Tweet") == [1, 1, 0])
        #expect(countsByEntity(second)["Tweet"] == [1, 1, 0, 0])
        #expect(try store.select(Self.marks) == [["1", "no"], ["2", "no"], ["6", "stub"]])
        #expect(try store.select("SELECT id FROM users WHERE stub_run IS NOT NULL") == [])
    }
}
