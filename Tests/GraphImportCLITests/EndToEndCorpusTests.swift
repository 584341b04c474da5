import Foundation
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// One feed imported by the binary with its map: the rows it must give. The counts and values were
/// read from the JSON with python3 (nested and stub objects included), not from graphimport.
struct FeedCase: Sendable, CustomTestStringConvertible {
    /// Where the feed is: in the repository's Samples, or in the shared corpus of real payloads.
    enum Source: Sendable {
        case sample(String)
        case corpus(String)
    }

    let source: Source
    let map: String
    let counts: [String: Int]
    let rows: [(sql: String, expected: String)]

    var testDescription: String {
        switch source {
        case .sample(let path), .corpus(let path): "\(path) with \(map)"
        }
    }

    /// The feed's path; fails the test when the corpus is not there (it must not pass silently).
    func feedPath() throws -> String {
        switch source {
        case .sample(let path):
            return repoFile(path)
        case .corpus(let path):
            let url = try #require(
                Corpus.file(path), "the shared corpus was not found: put it at ../shared/corpus or set GRAPHIMPORT_CORPUS")
            try #require(FileManager.default.fileExists(atPath: url.path), "corpus file missing: \(url.path)")
            return url.path
        }
    }
}

extension FeedCase {
    static let tweetTables = [
        "tweets", "users", "hashtags", "links", "media", "places", "tweets_hashtags", "tweets_mentions", "tweets_links", "tweets_media",
    ]

    static func tweetCounts(_ values: [Int], extra: [String: Int] = [:]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: zip(tweetTables, values)).merging(extra) { $1 }
    }

    /// The feeds of the repository's own Samples.
    static var samples: [FeedCase] { all.filter { if case .sample = $0.source { true } else { false } } }
    /// The feeds read from the shared corpus.
    static var corpusFeeds: [FeedCase] { all.filter { if case .corpus = $0.source { true } else { false } } }

    static let all: [FeedCase] = [
        FeedCase(
            source: .sample("Samples/questions.json"), map: "Mappings/questions.map",
            counts: ["questions": 30, "tags": 38, "owners": 11, "questions_tags": 84],
            rows: [
                (
                    "SELECT questions.id FROM tags JOIN questions_tags ON questions_tags.tags_pk = tags.pk"
                        + " JOIN questions ON questions.pk = questions_tags.questions_pk WHERE tags.name = 'codable' ORDER BY questions.id",
                    "77500041\n77503186"
                ),
                (
                    "SELECT tags.name FROM questions_tags JOIN tags ON tags.pk = tags_pk JOIN questions ON questions.pk = questions_pk"
                        + " WHERE questions.id = 77500571 ORDER BY position",
                    "javascript\njson\ntwitter"
                ),
                (
                    "SELECT owners.id, owners.display_name FROM questions JOIN owners ON owners.pk = questions.owner_pk WHERE questions.id = 77500192",
                    "1100238|Dennis &quot;Sqlite&quot; Mao"
                ),
                ("SELECT count(*) FROM questions JOIN owners ON owners.pk = owner_pk WHERE owners.id = 1100231", "5"),
                // Epoch seconds 1700000617 and 1700101250.
                ("SELECT created_at, closed_at IS NULL FROM questions WHERE id = 77500041", "2023-11-14T22:23:37.000Z|1"),
                ("SELECT closed_at, closed_reason FROM questions WHERE id = 77500571", "2023-11-16T02:20:50.000Z|Duplicate"),
            ]),
        FeedCase(
            source: .sample("Samples/issues.json"), map: "Mappings/issues.map",
            counts: ["issues": 25, "users": 7, "labels": 6, "milestones": 3, "issues_labels": 31, "issues_assignees": 22],
            rows: [
                ("SELECT milestone_pk IS NULL, body IS NULL FROM issues WHERE number = 41", "1|1"),
                (
                    "SELECT m.title, m.due_on IS NULL, u.login FROM issues i JOIN milestones m ON m.pk = i.milestone_pk"
                        + " JOIN users u ON u.pk = m.creator_pk WHERE i.number = 66",
                    "v0.2 — streaming|1|monalisa"
                ),
                (
                    "SELECT i.number FROM issues i JOIN milestones m ON m.pk = i.milestone_pk WHERE m.id = 5014001 ORDER BY i.number",
                    "53\n60\n76\n79"
                ),
                (
                    "SELECT labels.name FROM issues_labels JOIN labels ON labels.pk = labels_pk JOIN issues ON issues.pk = issues_pk"
                        + " WHERE issues.number = 42 ORDER BY position",
                    "good first issue\nbug\nparser"
                ),
                (
                    "SELECT users.login FROM issues_assignees JOIN users ON users.pk = users_pk JOIN issues ON issues.pk = issues_pk"
                        + " WHERE issues.number = 42 ORDER BY position",
                    "octocat\nmonalisa"
                ),
                ("SELECT created_at, closed_at FROM issues WHERE number = 41", "2023-12-01T19:07:56.000Z|2023-12-03T15:26:59.000Z"),
                ("SELECT due_on FROM milestones WHERE id = 5014003", "2024-09-30T07:00:00.000Z"),
            ]),
        FeedCase(
            source: .corpus("twitter-v1.1/get_home_timeline.json"), map: "Mappings/twitter-v1.1.map",
            counts: tweetCounts([35, 20, 1, 11, 5, 0, 2, 20, 21, 10]),
            rows: [
                (
                    "SELECT id, created_at FROM tweets WHERE text = 'RT @NASAJPL: Calling all citizen scientists! Help choose + process"
                        + " images of Jupiter for @NASAJuno https://t.co/mfBzxzpxly https://t.co/7a2\u{2026}'",
                    "672852550614458369|2015-12-04T18:58:43.000Z"
                ),
                (
                    "SELECT o.id FROM tweets r JOIN tweets o ON o.pk = r.retweet_of_pk WHERE r.id = 672852550614458369", "672830989895254016"
                ),
                (
                    "SELECT r.id FROM tweets r JOIN tweets o ON o.pk = r.retweet_of_pk WHERE o.id = 672830989895254016", "672852550614458369"
                ),
                ("SELECT count(*) FROM tweets JOIN users ON users.pk = author_pk WHERE users.handle = '__jcbl__'", "14"),
            ]),
        FeedCase(
            source: .corpus("twitter-v1.1/get_user_timeline_count.json"), map: "Mappings/twitter-v1.1.map",
            counts: tweetCounts([113, 54, 17, 32, 26, 2, 46, 76, 54, 49]),
            rows: [
                (
                    "SELECT id, created_at FROM tweets WHERE text = 'RT @Square: Introducing Scheduled Deposits. \u{23F0}\u{1F4B0}"
                        + " https://t.co/lhPCt3NRmn https://t.co/pqGhUl84bp'",
                    "758679213679321088|2016-07-28T15:03:14.000Z"
                ),
                (
                    "SELECT o.id FROM tweets r JOIN tweets o ON o.pk = r.retweet_of_pk WHERE r.id = 759226539879858176", "759071263004459008"
                ),
                (
                    "SELECT r.id FROM tweets r JOIN tweets o ON o.pk = r.retweet_of_pk WHERE o.id = 759071263004459008", "759226539879858176"
                ),
                ("SELECT count(*) FROM tweets JOIN users ON users.pk = author_pk WHERE users.id = 12", "63"),
                ("SELECT places.full_name FROM tweets JOIN places ON places.pk = place_pk WHERE tweets.id = 757223455041261568", "Elko, NV"),
            ]),
        FeedCase(
            source: .corpus("twitter-v1.1/get_retweets.json"), map: "Mappings/twitter-v1.1.map",
            counts: tweetCounts([15, 15, 0, 0, 0, 0, 0, 14, 0, 0]),
            rows: [
                ("SELECT count(*) FROM tweets WHERE retweet_of_pk IS NOT NULL", "14"),
                ("SELECT count(*) FROM tweets r JOIN tweets o ON o.pk = r.retweet_of_pk WHERE o.id = 397", "14"),
                (
                    "SELECT o.text, o.created_at, users.handle FROM tweets o JOIN users ON users.pk = o.author_pk WHERE o.id = 397",
                    "getting waxed!|2006-03-26T19:17:08.000Z|jack"
                ),
                ("SELECT id FROM tweets WHERE created_at = '2015-12-03T14:19:01.000Z'", "672419773767028736"),
            ]),
        FeedCase(
            source: .corpus("twitter-v1.1/get_search_raw.json"), map: "Mappings/twitter-v1.1-search.map",
            counts: tweetCounts([190, 202, 36, 31, 76, 4, 60, 117, 45, 143], extra: ["search_pages": 1]),
            rows: [
                (
                    "SELECT id, created_at FROM tweets WHERE text = 'RT @nataliexsarah: \u{1F60D}such a beauty https://t.co/BPiUCsSazS'",
                    "690992334201294848|2016-01-23T20:19:45.000Z"
                ),
                ("SELECT o.id FROM tweets q JOIN tweets o ON o.pk = q.quotes_pk WHERE q.id = 690992334247428096", "690989412197515264"),
                ("SELECT q.id FROM tweets q JOIN tweets o ON o.pk = q.quotes_pk WHERE o.id = 690989412197515264", "690992334247428096"),
                // Three quoted statuses nested in retweets carry no `user`.
                ("SELECT count(*) FROM tweets WHERE author_pk IS NULL AND text IS NOT NULL", "3"),
                ("SELECT max_id, since_id, count, completed_in FROM search_pages", "690992334247477249|0|100|0.217"),
            ]),
        FeedCase(
            source: .corpus("github/octokit.rb-issues.json"), map: "Mappings/github-issues.map",
            counts: ["issues": 30, "users": 24, "labels": 5, "milestones": 3, "issues_labels": 23],
            rows: [
                (
                    "SELECT labels.name FROM issues_labels JOIN labels ON labels.pk = labels_pk JOIN issues ON issues.pk = issues_pk"
                        + " WHERE issues.number = 323 ORDER BY position",
                    "bug\ni18n"
                ),
                (
                    "SELECT m.title, u.login, i.created_at FROM issues i JOIN milestones m ON m.pk = i.milestone_pk"
                        + " JOIN users u ON u.pk = m.creator_pk WHERE i.number = 323",
                    "0.0|sferik|2011-03-16T07:40:46.000Z"
                ),
                (
                    "SELECT i.number FROM issues i JOIN milestones m ON m.pk = i.milestone_pk WHERE m.title = '0.1' ORDER BY i.number DESC",
                    "359\n314\n279"
                ),
                ("SELECT users.login FROM issues JOIN users ON users.pk = assignee_pk WHERE issues.number = 370", "kaapa"),
                ("SELECT count(*) FROM issues WHERE assignee_pk IS NOT NULL", "4"),
                ("SELECT count(*) FROM issues JOIN users ON users.pk = author_pk WHERE users.login = 'bbenezech'", "4"),
                // The one user object without a `name` key.
                ("SELECT name IS NULL FROM users WHERE login = 'davelab'", "1"),
            ]),
    ]
}

/// Runs the built binary on the samples that are not the timeline, the feeds that need no corpus:
/// the exact rows on SQLite, and the same graph on PostgreSQL.
@Suite("EndToEnd feeds: other samples")
struct EndToEndSampleFeedTests {
    @Test(arguments: FeedCase.samples)
    func importsExactRows(_ feed: FeedCase) throws { try feed.expectImportsExactRows() }

    @Test(arguments: FeedCase.samples)
    func reimportChangesNothing(_ feed: FeedCase) throws { try feed.expectReimportKeepsEveryRow() }

    @Test(needsPostgres, arguments: FeedCase.samples)
    func postgresHoldsTheGraphSQLiteHolds(_ feed: FeedCase) throws { try feed.expectTheSameGraphOnBothStores() }
}

extension CorpusSuite {
    /// Runs the built binary on real payloads of the shared corpus.
    @Suite("EndToEnd feeds: the corpus")
    struct EndToEndCorpusTests {
        @Test(arguments: FeedCase.corpusFeeds)
        func importsExactRows(_ feed: FeedCase) throws { try feed.expectImportsExactRows() }

        @Test(arguments: FeedCase.corpusFeeds)
        func reimportChangesNothing(_ feed: FeedCase) throws { try feed.expectReimportKeepsEveryRow() }

        @Test(needsPostgres, arguments: FeedCase.corpusFeeds)
        func postgresHoldsTheGraphSQLiteHolds(_ feed: FeedCase) throws { try feed.expectTheSameGraphOnBothStores() }
    }
}

extension FeedCase {
    /// Imports the feed twice: the second run changes nothing, and every row of the feed's tables is as it was.
    func expectReimportKeepsEveryRow() throws {
        let dir = TemporaryDirectory()
        let store = dir.path("feed.sqlite")
        let arguments = [try feedPath(), "--map", repoFile(map), "--store", store]
        #expect(try runBinary(arguments).status == 0)
        let before = try EndToEnd.dump(store, counts.keys.sorted())
        try EndToEnd.expectReimportChangesNothing(arguments)
        #expect(try EndToEnd.dump(store, counts.keys.sorted()) == before)
    }
    /// Imports the feed with the binary into a store of each kind: PostgreSQL holds the graph
    /// SQLite holds, row for row (the exact rows are the SQLite tests'), with the same counts, and
    /// importing it again changes nothing there either.
    func expectTheSameGraphOnBothStores(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let plan = try RoundTripCase.plan(map)
        var graphs: [StoreKind: [String: [String]]] = [:]
        var entities: [StoreKind: [String: [String: Int]]] = [:]
        for kind in StoreKind.allCases {
            let store = try StoreUnderTest(kind)
            let arguments = [try feedPath(), "--map", repoFile(map), "--store", store.location]
            let result = try runBinary(arguments + ["--json"])
            #expect(result.status == 0, "\(kind): \(result.stderr)", sourceLocation: sourceLocation)
            entities[kind] = try EndToEnd.summary(result)["entities"] as? [String: [String: Int]]
            graphs[kind] = try store.rows(plan: plan)
            if kind == .postgresql { try EndToEnd.expectReimportChangesNothing(arguments) }
        }
        #expect(graphs[.sqlite]?.values.contains { !$0.isEmpty } == true, "the feed imported nothing", sourceLocation: sourceLocation)
        let differences = GraphDump.differences(graphs[.sqlite] ?? [:], graphs[.postgresql] ?? [:])
        #expect(differences.isEmpty, "SQLite, then PostgreSQL:\n\(differences.joined(separator: "\n"))", sourceLocation: sourceLocation)
        #expect(entities[.postgresql] == entities[.sqlite], sourceLocation: sourceLocation)
    }
}
