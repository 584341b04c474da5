import Foundation
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

extension CorpusSuite {
    /// Mastodon statuses, threads and notifications from two client libraries, one sending ids as
    /// JSON numbers (mastodon4j) and one as strings (bigbone), imported by the binary. Every
    /// expected value was read from the JSON with python3.
    @Suite("Mastodon")
    struct MastodonTests {
        static let map = "Mappings/mastodon.map"
        static let tables = ["statuses", "accounts", "tags", "media", "cards", "statuses_tags", "statuses_mentions", "statuses_media"]

        static func counts(_ values: [Int]) -> [String: Int] { Dictionary(uniqueKeysWithValues: zip(tables, values)) }

        /// 20 statuses of 19 accounts; no tags, media or mentions.
        static let timelineCounts = counts([20, 19, 0, 0, 0, 0, 0, 0])
        /// 20 statuses plus 8 reply stubs; accounts include mentioned and replied-to ones.
        static let tagCounts = counts([28, 29, 21, 4, 0, 43, 16, 4])

        static let timelineRows: [(sql: String, expected: String)] = [
            ("SELECT created_at, visibility FROM statuses WHERE id = '172429'", "2017-04-14T06:11:41.893Z|public"),
            ("SELECT count(*) FROM statuses s JOIN accounts a ON a.pk = s.account_pk WHERE a.id = '16783'", "2"),
        ]

        static let feeds: [FeedCase] = [
            FeedCase(source: .corpus("mastodon/mastodon4j-public_timeline.json"), map: map, counts: timelineCounts, rows: timelineRows),
            FeedCase(source: .corpus("mastodon/bigbone-public_timeline.json"), map: map, counts: timelineCounts, rows: timelineRows),
            FeedCase(
                source: .corpus("mastodon/mastodon4j-tag.json"), map: map, counts: tagCounts,
                rows: [
                    ("SELECT r.id, r.content IS NULL FROM statuses s JOIN statuses r ON r.pk = s.reply_to_pk WHERE s.id = '714859'", "675923|1"),
                    ("SELECT count(*) FROM statuses WHERE content IS NULL", "8"),
                    ("SELECT username FROM accounts WHERE id = '4875'", "sys1yagi"),
                ]),
            FeedCase(
                source: .corpus("mastodon/bigbone-tag_timeline.json"), map: map, counts: tagCounts,
                rows: [("SELECT username FROM accounts WHERE id = '4875'", "testuser")]),
            FeedCase(
                source: .corpus("mastodon/bigbone-status_with_previewcard.json"), map: map, counts: counts([1, 1, 0, 0, 1, 0, 0, 0]),
                rows: [
                    // A snowflake id above 2^53, kept as the string the API sends.
                    ("SELECT id, created_at, edited_at IS NULL FROM statuses", "111337272989523541|2023-11-01T20:52:43.341Z|1"),
                    // A date-only `last_status_at`.
                    ("SELECT display_name, last_status_at FROM accounts", "jaxwxboss :linux: :casio:|2023-11-01T00:00:00.000Z"),
                    ("SELECT c.provider_name, c.kind FROM statuses s JOIN cards c ON c.pk = s.card_pk", "YouTube|video"),
                ]),
            FeedCase(
                source: .corpus("mastodon/mastodon4j-context.json"), map: "Mappings/mastodon-context.map",
                counts: counts([4, 2, 0, 1, 0, 0, 2, 1]),
                rows: [
                    // Two replies: one to the first ancestor, one to a status that is not in the file (a stub).
                    ("SELECT r.id FROM statuses s JOIN statuses r ON r.pk = s.reply_to_pk WHERE s.id = '6884692'", "6884492"),
                    ("SELECT s.id FROM statuses r JOIN statuses s ON s.reply_to_pk = r.pk WHERE r.id = '6886100' AND r.content IS NULL", "6886129"),
                ]),
            FeedCase(
                source: .corpus("mastodon/mastodon4j-notifications.json"), map: "Mappings/mastodon-notifications.map",
                counts: ["notifications": 1, "statuses": 1, "accounts": 2],
                rows: [
                    (
                        "SELECT n.kind, n.created_at, a.username, s.id FROM notifications n JOIN accounts a ON a.pk = n.account_pk"
                            + " JOIN statuses s ON s.pk = n.status_pk",
                        "favourite|2017-05-02T05:28:01.703Z|test|6567717"
                    )
                ]),
        ]

        @Test(arguments: feeds)
        func importsExactRows(_ feed: FeedCase) throws { try feed.expectImportsExactRows() }

        @Test(arguments: feeds)
        func reimportChangesNothing(_ feed: FeedCase) throws { try feed.expectReimportChangesNothing() }

        @Test(needsPostgres, arguments: feeds)
        func postgresHoldsTheGraphSQLiteHolds(_ feed: FeedCase) throws { try feed.expectTheSameGraphOnBothStores() }

        /// The int-id and string-id captures of one timeline, imported one after the other into one
        /// store, give one graph: as many rows as distinct objects, the second import changing nothing.
        @Test(arguments: [
            ("mastodon4j-public_timeline.json", "bigbone-public_timeline.json", "Mappings/mastodon.map"),
            ("mastodon4j-tag.json", "bigbone-tag_timeline.json", "Mappings/mastodon.map"),
            ("mastodon4j-context.json", "bigbone-context.json", "Mappings/mastodon-context.map"),
        ])
        func intAndStringIdsGiveOneGraph(_ pair: (String, String, String)) throws {
            let dir = TemporaryDirectory()
            let store = dir.path("one.sqlite")
            let first = try #require(Corpus.file("mastodon/" + pair.0)).path
            let second = try #require(Corpus.file("mastodon/" + pair.1)).path
            #expect(try EndToEnd.importFeed(first, map: pair.2, store: store).status == 0)
            let before = try EndToEnd.counts(store, Self.tables)
            let result = try EndToEnd.importFeed(second, map: pair.2, store: store, ["--json"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try EndToEnd.counts(store, Self.tables) == before)
            let entities = try #require(try EndToEnd.summary(result)["entities"] as? [String: [String: Int]])
            #expect(entities.values.allSatisfy { $0["inserted"] == 0 }, "\(entities)")
        }

        /// bigbone renamed one user (sys1yagi → testuser) in its copy of the tag timeline: the second
        /// import updates exactly that account and the one status whose url names it.
        @Test func stringIdCaptureUpdatesTheRenamedAccount() throws {
            let dir = TemporaryDirectory()
            let store = dir.path("tag.sqlite")
            #expect(try EndToEnd.importFeed(try #require(Corpus.file("mastodon/mastodon4j-tag.json")).path, map: Self.map, store: store).status == 0)
            let result = try EndToEnd.importFeed(
                try #require(Corpus.file("mastodon/bigbone-tag_timeline.json")).path, map: Self.map, store: store, ["--json"])
            let entities = try #require(try EndToEnd.summary(result)["entities"] as? [String: [String: Int]])
            #expect(entities["Account"]?["updated"] == 1)
            #expect(entities["Status"]?["updated"] == 1)
            EndToEnd.expectRows(store, [("SELECT username, acct FROM accounts WHERE id = '4875'", "testuser|testuser@mstdn.jp")])
        }
    }
}
