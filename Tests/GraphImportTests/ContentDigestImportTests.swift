import GraphImport
import GraphImportStoreTestSupport
import Testing

private func refusesBob(_ person: ObjectValues) throws(HookFailure) {
    if person["name"] == .text("Bob") { throw HookFailure("no Bob") }
}

private func acceptsAnyone(_ person: ObjectValues) throws(HookFailure) {}

/// The content digest stored with each object (docs/unchanged-objects-plan.md, step 2): a
/// re-import finds an unchanged object by its digest alone, and anything another program writes
/// clears the digests it makes stale, so that the next import restores it as before.
///
/// The rows and counts are held on both stores; the fast path's counter
/// (`ImportSummary.objectsUnchangedByDigest`) and the digest columns on SQLite, whose half this
/// branch is (PostgreSQL's writes them in its own).
@Suite("Content digests on import")
struct ContentDigestImportTests {
    static let map = """
        records at $[*] as Post
        entity Post
          key id
          id : Int
          title : String
          author : Person
          tags : [Tag]
        entity Person
          key id
          id : Int
          name : String
        entity Tag
          key name
          name : String
        """

    static let feed =
        #"[{"id": 1, "title": "one", "author": {"id": 7, "name": "Ann"}, "tags": [{"name": "a"}, {"name": "b"}]}, "#
        + #"{"id": 2, "title": "two", "author": {"id": 8, "name": "Bob"}, "tags": [{"name": "b"}]}]"#
    /// Every object occurrence of `feed`: two posts, their authors, three tags.
    static let occurrences = 7

    /// Each row's key and whether it holds a digest (1) or none (0), table by table.
    static func digests(_ store: StoreUnderTest) throws -> [[String]] {
        try store.select(
            """
            SELECT 'posts', CAST(id AS TEXT), CASE WHEN content_digest IS NULL THEN 0 ELSE 1 END FROM posts
            UNION ALL SELECT 'people', CAST(id AS TEXT), CASE WHEN content_digest IS NULL THEN 0 ELSE 1 END FROM people
            UNION ALL SELECT 'tags', name, CASE WHEN content_digest IS NULL THEN 0 ELSE 1 END FROM tags
            ORDER BY 1, 2
            """)
    }

    static func allHeld(_ store: StoreUnderTest) throws -> Bool {
        try digests(store).allSatisfy { $0[2] == "1" }
    }

    /// `[inserted, updated, unchanged]` summed over the entities.
    static func totals(_ summary: ImportSummary) -> [Int] {
        summary.entities.reduce(into: [0, 0, 0]) { sums, entity in
            sums[0] += entity.counts.inserted
            sums[1] += entity.counts.updated
            sums[2] += entity.counts.unchanged
        }
    }

    static func expectFastPath(_ summary: ImportSummary, _ kind: StoreKind, _ count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        guard kind == .sqlite else { return }
        #expect(summary.objectsUnchangedByDigest == count, sourceLocation: sourceLocation)
    }

    @Test(arguments: StoreKind.testable)
    func aReimportOfAnUnchangedFeedFindsEveryObjectByItsDigest(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.map)
        let first = try store.importJSON(Self.feed)
        #expect(Self.totals(first) == [6, 0, 0])
        #expect(try kind != .sqlite || Self.allHeld(store.store))
        let rows = try store.store.rows(plan: store.plan)
        let digests = try Self.digests(store.store)
        let again = try store.importJSON(Self.feed)
        #expect(Self.totals(again) == [0, 0, 6])
        Self.expectFastPath(again, kind, Self.occurrences)
        #expect(try store.store.rows(plan: store.plan) == rows)
        #expect(try Self.digests(store.store) == digests)
        #expect(try store.store.value("SELECT max(changed_run) FROM posts") == "1")
    }

    @Test(arguments: StoreKind.testable)
    func anEditByAnotherProgramIsPutBackAndTheOthersStayFast(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.map)
        try store.importJSON(Self.feed)
        let rows = try store.store.rows(plan: store.plan)
        let people = try store.store.select("SELECT id, name FROM people ORDER BY id")
        // A mapped column, a join row deleted and one inserted, a target deleted (its join rows go by cascade).
        try store.store.execute("UPDATE people SET name = 'Anne' WHERE id = 7")
        try store.store.execute("DELETE FROM posts_tags WHERE posts_pk = (SELECT pk FROM posts WHERE id = 2)")
        try store.store.execute("INSERT INTO tags (name, inserted_run, changed_run) VALUES ('c', 1, 1)")
        try store.store.execute(
            "INSERT INTO posts_tags (posts_pk, tags_pk, position) SELECT p.pk, t.pk, 2 FROM posts p, tags t WHERE p.id = 1 AND t.name = 'c'")
        #expect(
            try kind != .sqlite
                || Self.digests(store.store) == [
                    ["people", "7", "0"], ["people", "8", "1"], ["posts", "1", "0"], ["posts", "2", "0"], ["tags", "a", "1"], ["tags", "b", "1"],
                    ["tags", "c", "0"],
                ])
        let restored = try store.importJSON(Self.feed)
        #expect(try store.store.select("SELECT id, name FROM people ORDER BY id") == people)
        #expect(try store.store.rows(plan: store.plan)["posts_tags"] == rows["posts_tags"])
        #expect(Self.totals(restored) == [0, 3, 3])
        // Person 8 and the tags a and b (three times) are still found by their digests.
        Self.expectFastPath(restored, kind, 4)
        #expect(try kind != .sqlite || Self.digests(store.store).filter { $0[1] != "c" }.allSatisfy { $0[2] == "1" })
        // A deleted target clears the digests of the lists that held it (by cascade).
        try store.store.execute("DELETE FROM tags WHERE name = 'a'")
        #expect(try kind != .sqlite || store.store.value("SELECT CASE WHEN content_digest IS NULL THEN 0 ELSE 1 END FROM posts WHERE id = 1") == "0")
        let again = try store.importJSON(Self.feed)
        #expect(Self.totals(again) == [1, 1, 4])
        #expect(try store.store.rows(plan: store.plan)["posts_tags"] == rows["posts_tags"])
    }

    @Test(arguments: StoreKind.testable)
    func aChangedObjectIsUpdatedAndTheLastOccurrenceWins(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.map)
        try store.importJSON(Self.feed)
        let changed =
            #"[{"id": 1, "title": "uno", "author": {"id": 7, "name": "Ann"}, "tags": [{"name": "b"}]}, "#
            + #"{"id": 2, "title": "two", "author": {"id": 7, "name": "Ann B"}, "tags": [{"name": "b"}]}]"#
        let summary = try store.importJSON(changed)
        #expect(countsByEntity(summary)["Post"] == [0, 2, 0, 0])
        #expect(countsByEntity(summary)["Person"] == [0, 1, 0, 0])
        #expect(
            try store.store.select("SELECT p.id, p.title, a.name FROM posts p JOIN people a ON a.pk = p.author_pk ORDER BY p.id") == [
                ["1", "uno", "Ann B"], ["2", "two", "Ann B"],
            ])
        #expect(try store.store.rows(plan: store.plan)["posts_tags"]?.count == 2)
        #expect(try kind != .sqlite || Self.allHeld(store.store))
        // Person 7 is given twice, differently: stored as the last occurrence, and on the same
        // feed again written twice (its digest is the last's) but in the end unchanged.
        let again = try store.importJSON(changed)
        #expect(Self.totals(again) == [0, 0, 4])
        Self.expectFastPath(again, kind, 4)
    }

    @Test(arguments: StoreKind.testable)
    func compareAllComparesEveryObjectAndStillStoresDigests(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.map)
        try store.importJSON(Self.feed)
        try store.store.execute("UPDATE posts SET content_digest = NULL")
        var options = ImportOptions()
        options.comparesAll = true
        let summary = try store.importJSON(Self.feed, options: options)
        #expect(Self.totals(summary) == [0, 0, 6])
        Self.expectFastPath(summary, kind, 0)
        #expect(try kind != .sqlite || Self.allHeld(store.store))
    }

    /// A store whose rows hold no digest (made before the column, or cleared) is compared value by
    /// value once, and holds every digest after it.
    @Test(arguments: StoreKind.testable)
    func rowsWithoutDigestsGetThemOnTheNextReimport(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.map)
        try store.importJSON(Self.feed)
        for table in ["posts", "people", "tags"] { try store.store.execute("UPDATE \(table) SET content_digest = NULL") }
        let summary = try store.importJSON(Self.feed)
        #expect(Self.totals(summary) == [0, 0, 6])
        Self.expectFastPath(summary, kind, 1)
        #expect(try kind != .sqlite || Self.allHeld(store.store))
        #expect(try store.store.value("SELECT max(changed_run) FROM posts") == "1")
        Self.expectFastPath(try store.importJSON(Self.feed), kind, Self.occurrences)
    }

    /// A map whose text differs (a comment is enough) seeds every digest differently: the next
    /// run compares each object once and stores the new digests.
    @Test(arguments: StoreKind.testable)
    func aMapEditComparesEverythingOnce(kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(Self.feed, plan: ImportPlan.compile(text: Self.map, fileName: "test.map")).get()
        let edited = try ImportPlan.compile(text: "# edited\n" + Self.map, fileName: "test.map")
        let summary = try store.importJSON(Self.feed, plan: edited).get()
        #expect(Self.totals(summary) == [0, 0, 6])
        // The tag b met again in the same run is found by the digest that run stored.
        Self.expectFastPath(summary, kind, 1)
        Self.expectFastPath(try store.importJSON(Self.feed, plan: edited).get(), kind, Self.occurrences)
    }

    /// An entity with a `beforeSave` hook stores no digest, and one stored by a run without the
    /// hook is not trusted by a run with it: its objects go through the hook as before.
    @Test(arguments: StoreKind.testable)
    func aBeforeSaveHookLeavesItsEntityWithoutDigests(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.map)
        try store.importJSON(Self.feed)
        var hooks = ImportHooks()
        hooks.beforeSave["Person"] = refusesBob
        #expect(store.recordFailure(Self.feed, hooks: hooks)?.recordIndex == 1)
        hooks.beforeSave["Person"] = acceptsAnyone
        let summary = try store.run(Self.feed, hooks: hooks)
        #expect(Self.totals(summary) == [0, 0, 6])
        // The posts and tags only: each person is compared, through the hook.
        Self.expectFastPath(summary, kind, 5)
        #expect(try kind != .sqlite || store.store.value("SELECT count(*) FROM people WHERE content_digest IS NULL") == "2")
        Self.expectFastPath(try store.run(Self.feed, hooks: hooks), kind, 5)
    }

    /// A record skipped under `--skip-invalid` after its post was found unchanged by its digest
    /// (its author refused by the hook) is undone in the run's memory too: the post is not
    /// counted as met.
    @Test(arguments: StoreKind.testable)
    func aSkippedRecordsUnchangedObjectsAreNotCounted(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.map)
        try store.importJSON(Self.feed)
        let rows = try store.store.rows(plan: store.plan)
        var hooks = ImportHooks()
        hooks.beforeSave["Person"] = refusesBob
        let summary = try store.run(Self.feed, hooks: hooks, options: ImportOptions(skipInvalid: true))
        #expect(summary.skippedRecords == 1)
        #expect(countsByEntity(summary)["Post"]?.prefix(3) == [0, 0, 1])
        #expect(countsByEntity(summary)["Person"]?.prefix(3) == [0, 0, 1])
        #expect(try store.store.rows(plan: store.plan) == rows)
    }

    @Test(arguments: StoreKind.testable)
    func aDryRunOrAFailedRunLeavesTheStoreAsItWas(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.map)
        try store.importJSON(Self.feed)
        try store.store.execute("UPDATE people SET name = 'Anne' WHERE id = 7")
        let rows = try store.store.rows(plan: store.plan)
        let digests = try Self.digests(store.store)
        var options = ImportOptions()
        options.dryRun = true
        #expect(Self.totals(try store.importJSON(Self.feed, options: options)) == [0, 1, 5])
        #expect(try store.store.rows(plan: store.plan) == rows)
        #expect(try Self.digests(store.store) == digests)
        // The second record fails (no title): nothing of the first is kept.
        let failing = #"[{"id": 1, "title": "uno", "author": {"id": 7, "name": "Ann"}, "tags": []}, {"id": 3}]"#
        #expect(throws: (any Error).self) { try store.importJSON(failing) }
        #expect(try store.store.rows(plan: store.plan) == rows)
        #expect(try Self.digests(store.store) == digests)
        if kind == .sqlite { #expect(try store.store.value("SELECT count(*) FROM graphimport_importing") == "0") }
    }
}
