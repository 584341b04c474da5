import Foundation
import GraphImport
import GraphImportMapping
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

extension CorpusSuite {
    /// Twitter v1.1 mentions keep their `indices` on the link (`link start`, `link end` in
    /// twitter-v1.1.map and twitter-v1.1-search.map). Every expected value was read from the
    /// JSON with python3: each tweet once (nested retweets and quotes included), its mentions in
    /// order.
    @Suite("Link attributes in the corpus")
    struct LinkAttributeTests {
        static let feeds: [FeedCase] = [
            FeedCase(
                source: .corpus("twitter-v1.1/get_home_timeline.json"), map: "Mappings/twitter-v1.1.map", counts: ["tweets_mentions": 20],
                rows: [
                    ("SELECT count(*), sum(start), sum(\"end\") FROM tweets_mentions", "20|584|769"),
                    (
                        "SELECT u.handle, m.start, m.\"end\" FROM tweets_mentions m JOIN tweets t ON t.pk = m.tweets_pk"
                            + " JOIN users u ON u.pk = m.users_pk WHERE t.id = 672852550614458369 ORDER BY m.position",
                        "NASAJPL|3|11\nNASAJuno|89|98"
                    ),
                ]),
            FeedCase(
                source: .corpus("twitter-v1.1/get_user_timeline_count.json"), map: "Mappings/twitter-v1.1.map",
                counts: ["tweets_mentions": 76],
                rows: [
                    ("SELECT count(*), sum(start), sum(\"end\") FROM tweets_mentions", "76|1697|2410"),
                    // From the user's side: where each tweet mentions @jack.
                    (
                        "SELECT t.id, m.start, m.\"end\" FROM users u JOIN tweets_mentions m ON m.users_pk = u.pk"
                            + " JOIN tweets t ON t.pk = m.tweets_pk WHERE u.handle = 'jack' ORDER BY t.id",
                        "759225577027072000|5|10\n759226298409549824|24|29"
                    ),
                ]),
            FeedCase(
                source: .corpus("twitter-v1.1/get_retweets.json"), map: "Mappings/twitter-v1.1.map", counts: ["tweets_mentions": 14],
                rows: [("SELECT count(*), sum(start), sum(\"end\") FROM tweets_mentions", "14|42|112")]),
            FeedCase(
                source: .corpus("twitter-v1.1/get_search_raw.json"), map: "Mappings/twitter-v1.1-search.map",
                counts: ["tweets_mentions": 117],
                rows: [("SELECT count(*), sum(start), sum(\"end\") FROM tweets_mentions", "117|2163|3565")]),
        ]

        @Test(arguments: feeds)
        func importsMentionOffsetsOnTheLink(_ feed: FeedCase) throws { try feed.expectImportsExactRows() }

        @Test(arguments: feeds)
        func reimportWithTheSameOffsetsChangesNothing(_ feed: FeedCase) throws { try feed.expectReimportChangesNothing() }

        /// The same payload imported twice into each store: the same rows, link values included, and the same counts.
        @Test(needsPostgres, arguments: feeds)
        func postgresHoldsTheSameMentionsAsSQLite(_ feed: FeedCase) throws {
            let includes = IncludeResolver { name, includer in
                let path = IncludeResolver.relativePath(name, from: includer.name)
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return .failure(IncludeFailure("cannot read \(path)")) }
                return .success(MapFile(name: path, text: text))
            }
            let plan = try ImportPlan.compile(
                text: String(contentsOfFile: repoFile(feed.map), encoding: .utf8), fileName: repoFile(feed.map), includes: includes)
            let json = try String(contentsOfFile: feed.feedPath(), encoding: .utf8)
            var rows: [StoreKind: [String: [String]]] = [:]
            var counts: [StoreKind: [[String: [Int]]]] = [:]
            for kind in StoreKind.allCases {
                let store = try StoreUnderTest(kind, batchSize: 100)
                let first = try store.importJSON(json, plan: plan).get()
                let again = try store.importJSON(json, plan: plan).get()
                rows[kind] = try store.rows(plan: plan)
                counts[kind] = [countsByEntity(first), countsByEntity(again)]
            }
            #expect(rows[.postgresql] == rows[.sqlite])
            #expect(counts[.postgresql] == counts[.sqlite])
            #expect(rows[.sqlite]?["tweets_mentions"]?.count == feed.counts["tweets_mentions"])
        }
    }
}
