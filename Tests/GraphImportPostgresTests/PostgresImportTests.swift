import Foundation
import GraphImport
import GraphImportPostgres
import GraphImportSchema
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// Imports into PostgreSQL give the rows and the counts the SQLite store gives for the same feed.
@Suite("PostgreSQL: imports as into SQLite", needsPostgres)
struct PostgresImportTests {
    static func plan(_ map: String) throws -> ImportPlan {
        let path = repositoryRoot.appendingPathComponent("Mappings/\(map)").path
        return try ImportPlan.compile(text: String(contentsOfFile: path, encoding: .utf8), fileName: map)
    }

    static func sample(_ name: String) throws -> String {
        try String(contentsOfFile: repositoryRoot.appendingPathComponent("Samples/\(name)").path, encoding: .utf8)
    }

    /// Both stores after importing `feeds` in turn with `plan`: their rows, and each import's counts.
    static func importsIntoBothStores(_ plan: ImportPlan, feeds: [String], batchSize: Int) throws -> (
        rows: [StoreKind: [String: [String]]], counts: [StoreKind: [[String: [Int]]]]
    ) {
        var rows: [StoreKind: [String: [String]]] = [:]
        var counts: [StoreKind: [[String: [Int]]]] = [:]
        for kind in StoreKind.allCases {
            let store = try StoreUnderTest(kind, batchSize: batchSize)
            counts[kind] = try feeds.map { try countsByEntity(store.importJSON($0, plan: plan).get()) }
            rows[kind] = try store.rows(plan: plan)
        }
        return (rows, counts)
    }

    /// Both stores after the same imports: the first of the sample, then a second of the same feed.
    @Test(arguments: [("tweets.map", "tweets.json", 5000), ("tweets.map", "tweets.json", 50), ("issues.map", "issues.json", 5000)])
    func theSameFeedGivesTheSameRowsAndCountsInBothStores(map: String, sample: String, batchSize: Int) throws {
        let plan = try Self.plan(map)
        let feed = try Self.sample(sample)
        var rows: [StoreKind: [String: [String]]] = [:]
        var counts: [StoreKind: [[String: [Int]]]] = [:]
        for kind in StoreKind.allCases {
            let store = try StoreUnderTest(kind, batchSize: batchSize)
            let first = try store.importJSON(feed, plan: plan).get()
            let second = try store.importJSON(feed, plan: plan).get()
            rows[kind] = try store.rows(plan: plan)
            counts[kind] = [countsByEntity(first), countsByEntity(second)]
        }
        #expect(rows[.postgresql] == rows[.sqlite])
        #expect(counts[.postgresql] == counts[.sqlite])
        #expect(rows[.sqlite]?.values.contains { !$0.isEmpty } == true)
    }

    /// A second feed that changes some objects, leaves some out, gives a user without the
    /// attributes a mention lacks, and names a reply that is not in the feed (a stub).
    static let firstFeed = """
        [{"id": 1, "text": "one", "created_at": "Wed Aug 27 13:08:45 +0000 2008", "source": "web", "lang": "en",
          "retweet_count": 0, "favorite_count": 0,
          "user": {"id": 10, "screen_name": "ann", "name": "Ann", "followers_count": 5, "created_at": "Wed Aug 27 13:08:45 +0000 2008"},
          "entities": {"hashtags": [{"text": "Swift"}, {"text": "swift"}, {"text": "Go"}], "user_mentions": [{"id": 11, "screen_name": "bob", "name": "Bob"}]},
          "in_reply_to_status_id": 99},
         {"id": 2, "text": "two", "created_at": "Wed Aug 27 13:08:45 +0000 2008", "source": "web", "lang": "en",
          "retweet_count": 1, "favorite_count": 0,
          "user": {"id": 11, "screen_name": "bob", "name": "Bob", "followers_count": 7},
          "entities": {"hashtags": [], "user_mentions": []},
          "retweeted_status": {"id": 1, "text": "one", "created_at": "Wed Aug 27 13:08:45 +0000 2008", "source": "web", "lang": "en",
            "retweet_count": 1, "favorite_count": 0, "user": {"id": 10, "screen_name": "ann", "name": "Ann"},
            "entities": {"hashtags": [{"text": "go"}], "user_mentions": []}}}]
        """
    static let secondFeed = """
        [{"id": 2, "text": "two, edited", "created_at": "Wed Aug 27 13:08:45 +0000 2008", "source": "web", "lang": "en",
          "retweet_count": 1, "favorite_count": 3,
          "user": {"id": 11, "screen_name": "bob", "name": "Bob", "followers_count": 7},
          "entities": {"hashtags": [{"text": "Rust"}], "user_mentions": [{"id": 10, "screen_name": "ann", "name": "Ann B."}]},
          "in_reply_to_status_id": 1},
         {"id": 99, "text": "now known", "created_at": "Wed Aug 27 13:08:45 +0000 2008", "source": "web", "lang": "en",
          "retweet_count": 0, "favorite_count": 0, "user": {"id": 12, "screen_name": "cy", "name": "Cy"},
          "entities": {"hashtags": [], "user_mentions": []}}]
        """

    /// Batches of 5000 objects hold each feed whole; batches of 1 and 4 split records and repeat objects across batches.
    @Test(arguments: [5000, 4, 1])
    func changesStubsAndPartialObjectsGiveTheSameRowsAndCountsInBothStores(batchSize: Int) throws {
        let (rows, counts) = try Self.importsIntoBothStores(Self.plan("tweets.map"), feeds: [Self.firstFeed, Self.secondFeed], batchSize: batchSize)
        #expect(rows[.postgresql] == rows[.sqlite])
        #expect(counts[.postgresql] == counts[.sqlite])
        // The stub tweet 99 made by the first feed, filled in by the second.
        #expect(counts[.sqlite]?[0]["Tweet"] == [3, 0, 0, 0])
        #expect(rows[.sqlite]?["tweets"]?.contains { $0.hasPrefix("99|now known|") } == true)
    }

    /// `always run` and `onchange run` on tweets and users: the same rows in both stores (the run
    /// ids are, where the import's time would not be) after the two feeds and a re-import of the
    /// second, which moves `always` only; in batches that hold the feeds whole or split them.
    @Test(arguments: [5000, 4, 1])
    func alwaysAndOnchangeGiveTheSameRowsAndCountsInBothStores(batchSize: Int) throws {
        let path = repositoryRoot.appendingPathComponent("Mappings/tweets.map").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(
                of: "entity Tweet table tweets\n  key id\n",
                with: "entity Tweet table tweets\n  key id\n  seenIn: Int always run\n  changedIn: Int onchange run\n"
            )
            .replacingOccurrences(
                of: "entity User table users\n  key id\n", with: "entity User table users\n  key id\n  seenIn: Int always run\n  changedIn: Int onchange run\n")
        let plan = try ImportPlan.compile(text: text, fileName: "tweets.map")
        let (rows, counts) = try Self.importsIntoBothStores(plan, feeds: [Self.firstFeed, Self.secondFeed, Self.secondFeed], batchSize: batchSize)
        #expect(rows[.postgresql] == rows[.sqlite])
        #expect(counts[.postgresql] == counts[.sqlite])
        // The re-import changes nothing: tweet 2, changed by the second run, was last seen by the
        // third (`seenIn`, `changedIn`, `id` lead the row); tweet 1, only named since, by the first.
        #expect(counts[.sqlite]?[2]["Tweet"] == [0, 0, 2, 0])
        #expect(rows[.sqlite]?["tweets"]?.contains { $0.hasPrefix("3|2|2|two, edited|") } == true, "\(rows[.sqlite]?["tweets"] ?? [])")
        #expect(rows[.sqlite]?["tweets"]?.contains { $0.hasPrefix("1|1|1|one|") } == true, "\(rows[.sqlite]?["tweets"] ?? [])")
    }

    @Test(arguments: StoreKind.allCases)
    func aNewObjectWithoutARequiredValueFailsTheImportAndWritesNothing(kind: StoreKind) throws {
        let plan = try Self.plan("tweets.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(Self.firstFeed, plan: plan).get()
        let before = try store.rows(plan: plan)
        let lacking = """
            [{"id": 3, "created_at": "Wed Aug 27 13:08:45 +0000 2008", "source": "web", "lang": "en", "retweet_count": 0, "favorite_count": 0,
              "user": {"id": 10, "screen_name": "ann", "name": "Ann"}, "entities": {"hashtags": [], "user_mentions": []}}]
            """
        guard case .failure(let failure) = store.importJSON(lacking, plan: plan) else {
            Issue.record("imported a new tweet without its text")
            return
        }
        #expect(failure.text.contains("is required, and this new Tweet has no 'text'"), "\(failure.text)")
        #expect(try store.rows(plan: plan) == before)
        // An object already stored may lack it: it keeps its stored value.
        let known = lacking.replacingOccurrences(of: "\"id\": 3", with: "\"id\": 1")
        #expect(throws: Never.self) { try store.importJSON(known, plan: plan).get() }
        #expect(try store.rows(plan: plan)["tweets"]?.contains { $0.hasPrefix("1|one|") } == true)
    }

    /// `default` values: set on a new object (a stub too) that lacks the attribute, never on an update.
    @Test func defaultsGiveTheSameRowsInBothStores() throws {
        let plan = try ImportPlan.compile(
            text: """
                records at $[*] as Repo
                entity Repo table repos
                  key id
                  id: Int
                  status: String default "new"
                  stars <- stargazers: Int default 0
                  importRun: Int default run
                  parent <- parent_id: Repo?
                """, fileName: "repos.map")
        let first = #"[{"id": 1, "stargazers": 5, "parent_id": 9}, {"id": 2, "status": "old"}]"#
        let second = #"[{"id": 1, "status": "kept"}, {"id": 3, "parent_id": 1}, {"id": 9, "stargazers": 2}]"#
        var rows: [StoreKind: [String: [String]]] = [:]
        var counts: [StoreKind: [[String: [Int]]]] = [:]
        for kind in StoreKind.allCases {
            let store = try StoreUnderTest(kind)
            let one = try store.importJSON(first, plan: plan).get()
            let two = try store.importJSON(second, plan: plan).get()
            rows[kind] = try store.rows(plan: plan)
            counts[kind] = [countsByEntity(one), countsByEntity(two)]
        }
        #expect(rows[.postgresql] == rows[.sqlite])
        #expect(counts[.postgresql] == counts[.sqlite])
        #expect(rows[.sqlite]?["repos"]?.contains("9|new|2|1|1|2|NULL") == true, "\(rows[.sqlite] ?? [:])")
    }

    /// Under `--skip-invalid`, a record whose new object lacks a required value is skipped, and
    /// one that does not fit the map, and the rest are imported.
    @Test func skippedRecordsAreTheSameInBothStores() throws {
        let plan = try Self.plan("tweets.map")
        let feed = """
            [{"id": 3, "created_at": "Wed Aug 27 13:08:45 +0000 2008", "source": "web", "lang": "en", "retweet_count": 0, "favorite_count": 0,
              "user": {"id": 10, "screen_name": "ann", "name": "Ann"}, "entities": {"hashtags": [], "user_mentions": []}},
             {"id": "four"},
             {"id": 5, "text": "five", "created_at": "Wed Aug 27 13:08:45 +0000 2008", "source": "web", "lang": "en", "retweet_count": 0,
              "favorite_count": 0, "user": {"id": 10, "screen_name": "ann", "name": "Ann"}, "entities": {"hashtags": [], "user_mentions": []}}]
            """
        var options = ImportOptions()
        options.skipInvalid = true
        var rows: [StoreKind: [String: [String]]] = [:]
        var summaries: [StoreKind: [String: [Int]]] = [:]
        for kind in StoreKind.allCases {
            let store = try StoreUnderTest(kind)
            let summary = try store.importJSON(feed, plan: plan, options: options).get()
            #expect(summary.skippedRecords == 2)
            rows[kind] = try store.rows(plan: plan)
            summaries[kind] = countsByEntity(summary)
        }
        #expect(rows[.postgresql] == rows[.sqlite])
        #expect(summaries[.postgresql] == summaries[.sqlite])
        #expect(rows[.postgresql]?["tweets"]?.count == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func ifChangedSkipsAFeedAlreadyImported(kind: StoreKind) throws {
        let plan = try Self.plan("tweets.map")
        let store = try StoreUnderTest(kind)
        var options = ImportOptions()
        options.ifChanged = true
        let first = try store.importJSON(Self.firstFeed, plan: plan, options: options).get()
        #expect(!first.unchangedInput)
        let again = try store.importJSON(Self.firstFeed, plan: plan, options: options).get()
        #expect(again.unchangedInput)
        let changed = try store.importJSON(Self.secondFeed, plan: plan, options: options).get()
        #expect(!changed.unchangedInput && changed.changed)
    }

    @Test(arguments: StoreKind.allCases)
    func aDryRunWritesNoObject(kind: StoreKind) throws {
        let plan = try Self.plan("tweets.map")
        let store = try StoreUnderTest(kind)
        var options = ImportOptions()
        options.dryRun = true
        let summary = try store.importJSON(Self.firstFeed, plan: plan, options: options).get()
        #expect(summary.entities.first { $0.name == "Tweet" }?.counts.inserted == 3)
        _ = try store.importJSON(Self.firstFeed, plan: plan).get()
        #expect(try store.rows(plan: plan)["tweets"]?.count == 3)
    }
}
