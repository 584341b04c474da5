import GraphImport
import GraphImportPostgres
import GraphImportSchema
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// The content digest on PostgreSQL (docs/unchanged-objects-plan.md, step 2): stored with each
/// object the import writes, cleared by the triggers when another program writes the object or
/// its lists (FK cascades included), and compared first, so that an object whose row holds its
/// draft's digest is left out with nothing of it read back. Where a rule holds for objects on
/// any store, the test runs on both (`StoreKind.testable`).
@Suite("PostgreSQL: content digests stored, kept honest, compared first")
struct PostgresDigestTests {
    static let feed = PostgresImportTests.firstFeed

    /// Each tweet's and user's id with whether its row holds a digest (`t`/`f`), in id order.
    static func digests(_ store: StoreUnderTest, _ table: String) throws -> [String] {
        try store.select("SELECT id, CASE WHEN content_digest IS NULL THEN 'f' ELSE 't' END FROM \(table) ORDER BY id")
            .map { $0.joined(separator: ":") }
    }

    @Test(needsPostgres) func aFirstImportStoresDigestsAndMakesTheTriggersAfterTheLoad() throws {
        let store = try StoreUnderTest(.postgresql)
        _ = try store.importJSON(Self.feed, plan: PostgresImportTests.plan("tweets.map")).get()
        // Tweet 99 is a stub (a reply's bare id): no digest.
        #expect(try Self.digests(store, "tweets") == ["1:t", "2:t", "99:f"])
        #expect(try Self.digests(store, "users") == ["10:t", "11:t"])
        #expect(try store.value("SELECT min(length(content_digest)) FROM tweets") == "16")
        let triggers = try store.select(
            "SELECT c.relname || '.' || t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal ORDER BY 1"
        ).map { $0[0] }
        #expect(
            triggers == [
                "hashtags.graphimport_digest", "tweets.graphimport_digest", "tweets_hashtags.graphimport_digest_list",
                "tweets_mentions.graphimport_digest_list", "users.graphimport_digest",
            ])
        // The tables are still the map's and nothing else: the triggers are graphimport's.
        let again = try store.importJSON(Self.feed, plan: PostgresImportTests.plan("tweets.map")).get()
        #expect(again.schemaChanges.isEmpty)
    }

    /// Fails without compare-first: an edit made with the triggers stood aside (as the import
    /// itself writes) leaves the row's digest in place, so a re-import reads nothing of the tweet
    /// and leaves the edit; `--compare-all` compares value by value and puts it back.
    @Test(needsPostgres) func aReimportTrustsTheDigestAndCompareAllDoesNot() throws {
        let plan = try PostgresImportTests.plan("tweets.map")
        let store = try StoreUnderTest(.postgresql)
        _ = try store.importJSON(Self.plainFeed, plan: plan).get()
        try store.execute("SET graphimport.writing = 'on'; UPDATE tweets SET text = 'unseen' WHERE id = 1")
        let again = try store.importJSON(Self.plainFeed, plan: plan).get()
        #expect(try store.value("SELECT text FROM tweets WHERE id = 1") == "unseen")
        #expect(countsByEntity(again)["Tweet"]?.prefix(3) == [0, 0, 2])
        var options = ImportOptions()
        options.comparesAll = true
        let compared = try store.importJSON(Self.plainFeed, plan: plan, options: options).get()
        #expect(try store.value("SELECT text FROM tweets WHERE id = 1") == "one")
        #expect(countsByEntity(compared)["Tweet"]?.prefix(3) == [0, 1, 1])
    }

    /// What the map holds of the plain feed, without the run stamps (which move when an edit is put back).
    static func content(_ store: StoreUnderTest) throws -> [[String]] {
        try store.select("SELECT t.id, t.text, u.id FROM tweets t LEFT JOIN users u ON u.pk = t.author_pk ORDER BY t.id")
            + store.select("SELECT id, handle, name FROM users ORDER BY id")
            + store.select("SELECT text FROM hashtags ORDER BY text")
            + store.select(
                "SELECT t.id, h.text, j.position FROM tweets_hashtags j JOIN tweets t ON t.pk = j.tweets_pk JOIN hashtags h ON h.pk = j.hashtags_pk ORDER BY 1, 3"
            )
            + store.select(
                "SELECT t.id, u.id, j.position FROM tweets_mentions j JOIN tweets t ON t.pk = j.tweets_pk JOIN users u ON u.pk = j.users_pk ORDER BY 1, 3"
            )
    }

    /// Two tweets, each once, with an author each; tweet 1 mentions a user known only from it.
    static let plainFeed = """
        [{"id": 1, "text": "one", "created_at": "Wed Aug 27 13:08:45 +0000 2008", "source": "web", "lang": "en",
          "retweet_count": 0, "favorite_count": 0, "user": {"id": 10, "screen_name": "ann", "name": "Ann"},
          "entities": {"hashtags": [{"text": "Swift"}], "user_mentions": [{"id": 11, "screen_name": "bob", "name": "Bob"}]}},
         {"id": 2, "text": "two", "created_at": "Wed Aug 27 13:08:45 +0000 2008", "source": "web", "lang": "en",
          "retweet_count": 0, "favorite_count": 0, "user": {"id": 12, "screen_name": "cy", "name": "Cy"},
          "entities": {"hashtags": [{"text": "go"}], "user_mentions": []}}]
        """

    /// Hand edits by another program (another connection, no setting), one at a time: a mapped
    /// column updated, a join row deleted and one inserted, a list's target deleted (its join
    /// rows cascade), a to-one's target deleted (set null). The triggers clear the digests of the
    /// objects they touch, the cascades' too, and a re-import of the same feed puts each edit back.
    @Test(arguments: StoreKind.testable)
    func handEditsArePutBackByAReimport(kind: StoreKind) throws {
        let plan = try PostgresImportTests.plan("tweets.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(Self.plainFeed, plan: plan).get()
        let before = try Self.content(store)
        let allDigests = ["tweets": ["1:t", "2:t"], "users": ["10:t", "11:t", "12:t"]]
        if kind == .postgresql { #expect(try ["tweets", "users"].map { try Self.digests(store, $0) } == [allDigests["tweets"]!, allDigests["users"]!]) }
        let edits: [(sql: String, cleared: (table: String, id: String))] = [
            ("UPDATE users SET name = 'Edited' WHERE id = 10", ("users", "10")),
            ("DELETE FROM tweets_hashtags WHERE tweets_pk = (SELECT pk FROM tweets WHERE id = 1)", ("tweets", "1")),
            (
                "INSERT INTO tweets_hashtags (tweets_pk, hashtags_pk, position) SELECT t.pk, h.pk, 7 FROM tweets t, hashtags h WHERE t.id = 2 AND h.text = 'swift'",
                ("tweets", "2")
            ),
            // Its join row with tweet 2 cascades.
            ("DELETE FROM hashtags WHERE text = 'go'", ("tweets", "2")),
            // Mentioned by tweet 1 alone: its join row cascades.
            ("DELETE FROM users WHERE id = 11", ("tweets", "1")),
            // Tweet 2's author: its to-one is set null.
            ("DELETE FROM users WHERE id = 12", ("tweets", "2")),
        ]
        for edit in edits {
            try store.execute((kind == .sqlite ? "PRAGMA foreign_keys = ON; " : "") + edit.sql)
            if kind == .postgresql {
                var expected = allDigests[edit.cleared.table]!
                expected = expected.map { $0 == "\(edit.cleared.id):t" ? "\(edit.cleared.id):f" : $0 }
                #expect(try Self.digests(store, edit.cleared.table) == expected, "\(edit.sql)")
            }
            _ = try store.importJSON(Self.plainFeed, plan: plan).get()
            #expect(try Self.content(store) == before, "\(edit.sql)")
            if kind == .postgresql {
                #expect(try ["tweets", "users"].map { try Self.digests(store, $0) } == [allDigests["tweets"]!, allDigests["users"]!], "\(edit.sql)")
            }
        }
    }

    /// A store made before digests (every digest NULL) is compared value by value once: the
    /// objects get their digests without counting as changed (`changed_run` stays), and the next
    /// re-import leaves them out.
    @Test(needsPostgres) func nullDigestsAreFilledInByOneReimport() throws {
        let plan = try PostgresImportTests.plan("tweets.map")
        let store = try StoreUnderTest(.postgresql)
        _ = try store.importJSON(Self.feed, plan: plan).get()
        try store.execute("UPDATE tweets SET content_digest = NULL; UPDATE users SET content_digest = NULL")
        let changedRuns = try store.select("SELECT id, changed_run FROM tweets ORDER BY id")
        let again = try store.importJSON(Self.feed, plan: plan).get()
        #expect(countsByEntity(again)["Tweet"]?.prefix(3) == [0, 0, 2])
        #expect(try Self.digests(store, "tweets") == ["1:t", "2:t", "99:f"])
        #expect(try Self.digests(store, "users") == ["10:t", "11:t"])
        #expect(try store.select("SELECT id, changed_run FROM tweets ORDER BY id") == changedRuns)
    }

    /// The map's text is in every digest: after an edit of the map (a comment alone), a re-import
    /// finds the objects equal value by value and gives each its new digest.
    @Test(needsPostgres) func aMapEditChangesEveryDigest() throws {
        let plan = try PostgresImportTests.plan("tweets.map")
        let store = try StoreUnderTest(.postgresql)
        _ = try store.importJSON(Self.feed, plan: plan).get()
        let digest = "SELECT id, encode(content_digest, 'hex') FROM tweets WHERE content_digest IS NOT NULL ORDER BY id"
        let before = try store.select(digest)
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("Mappings/tweets.map"), encoding: .utf8)
        let edited = try ImportPlan.compile(text: text + "\n# edited\n", fileName: "tweets.map")
        let again = try store.importJSON(Self.feed, plan: edited).get()
        #expect(countsByEntity(again)["Tweet"]?.prefix(3) == [0, 0, 2])
        let after = try store.select(digest)
        #expect(after.map { $0[0] } == before.map { $0[0] })
        #expect(zip(before, after).allSatisfy { $0[1] != $1[1] })
    }

    /// An entity a `beforeSave` hook sees stores no digest: the hook's result depends on more than
    /// the feed. A digest stored by an earlier run without the hook is set back to NULL.
    @Test(needsPostgres) func aBeforeSaveEntityStoresNoDigest() throws {
        let plan = try PostgresImportTests.plan("tweets.map")
        let store = try StoreUnderTest(.postgresql)
        var hooks = ImportHooks()
        hooks.beforeSave["Tweet"] = { _ in }
        try store.run(Self.feed, plan: plan, hooks: hooks)
        #expect(try Self.digests(store, "tweets") == ["1:f", "2:f", "99:f"])
        #expect(try Self.digests(store, "users") == ["10:t", "11:t"])
        let other = try StoreUnderTest(.postgresql)
        _ = try other.importJSON(Self.feed, plan: plan).get()
        try other.run(Self.feed, plan: plan, hooks: hooks)
        #expect(try Self.digests(other, "tweets") == ["1:f", "2:f", "99:f"])
    }

    /// `ObjectGraph.delete` opens a run but never says it writes drafts: the triggers fire for its
    /// cascades. Deleting a label cascades to its join rows, so the issues that listed it lose
    /// their digests (the other keeps its own), and a re-import gives them their lists and
    /// digests back.
    @Test(needsPostgres) func aDeletionThroughTheGraphClearsTheDigestsItsCascadesTouch() throws {
        let map = """
            records at $[*] as Issue
            entity Issue
              key id
              id : Int
              labels : [Label] inverse issues
            entity Label
              key name
              name : String
            """
        let feed = #"[{"id": 1, "labels": [{"name": "bug"}]}, {"id": 2, "labels": [{"name": "docs"}]}, {"id": 3, "labels": [{"name": "bug"}]}]"#
        let store = try MappedStore(.postgresql, map: map)
        try store.importJSON(feed)
        let digests = "SELECT id, content_digest IS NOT NULL FROM issues ORDER BY id"
        #expect(try store.select(digests) == [["1", "t"], ["2", "t"], ["3", "t"]])
        try withExtendedLifetime(store) {
            let graph = try ObjectGraph(store: store.store.location, plan: store.plan)
            _ = try graph.delete(try #require(try graph.object("Label", key: "bug")))
        }
        #expect(try store.select(digests) == [["1", "f"], ["2", "t"], ["3", "f"]])
        let again = try store.importJSON(feed)
        #expect(countsByEntity(again)["Issue"]?.prefix(3) == [0, 2, 1])
        #expect(try store.select(digests) == [["1", "t"], ["2", "t"], ["3", "t"]])
        #expect(try store.value("SELECT count(*) FROM issues_labels") == "3")
    }

    /// After a batch whose stored objects mostly differ by their digests, the next batch of the
    /// entity reads its rows in full at once and still leaves out the objects whose digest
    /// holds: tweet 1 (its digest cleared, compared and given it back) makes the batch of tweet
    /// 2 read in full, and tweet 2, edited behind the triggers, is still found unchanged by its
    /// digest (the edit stays); `--compare-all` puts it back.
    @Test(needsPostgres) func afterABatchOfChangedDigestsTheNextReadsInFullAndStillTrustsTheDigests() throws {
        let plan = try PostgresImportTests.plan("tweets.map")
        let store = try StoreUnderTest(.postgresql, batchSize: 1)
        _ = try store.importJSON(Self.plainFeed, plan: plan).get()
        try store.execute("UPDATE tweets SET content_digest = NULL WHERE id = 1")
        try store.execute("SET graphimport.writing = 'on'; UPDATE tweets SET text = 'unseen' WHERE id = 2")
        let again = try store.importJSON(Self.plainFeed, plan: plan).get()
        #expect(countsByEntity(again)["Tweet"]?.prefix(3) == [0, 0, 2])
        #expect(try store.select("SELECT id, text FROM tweets ORDER BY id") == [["1", "one"], ["2", "unseen"]])
        #expect(try Self.digests(store, "tweets") == ["1:t", "2:t"])
        var options = ImportOptions()
        options.comparesAll = true
        _ = try store.importJSON(Self.plainFeed, plan: plan, options: options).get()
        #expect(try store.select("SELECT id, text FROM tweets ORDER BY id") == [["1", "one"], ["2", "two"]])
    }
}
