import Foundation
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

extension CorpusSuite {
    /// Twitter v1.1 user lists and v2 responses with side-loaded `includes`, imported by the binary.
    /// Every expected value was read from the JSON with python3. (The v1.1 timelines are in
    /// EndToEndCorpusTests.)
    @Suite("Twitter")
    struct TwitterTests {
        static let v2Tables = ["tweets", "users", "annotations", "tweets_annotations"]

        static let feeds: [FeedCase] = [
            FeedCase(
                source: .corpus("twitter-v1.1/get_followers_0.json"), map: "Mappings/twitter-v1.1-followers.map",
                counts: ["users": 200],
                rows: [
                    ("SELECT id, handle, created_at FROM users WHERE id = 2386149065", "2386149065|hkarolam|2014-03-05T18:48:39.000Z"),
                    ("SELECT handle FROM users ORDER BY followers DESC LIMIT 1", "LILBTHEBASEDGOD"),
                ]),
            FeedCase(
                source: .corpus("twitter-v2/tweet_quote_tweets_resp.json"), map: "Mappings/twitter-v2.map",
                counts: ["tweets": 15, "users": 14, "annotations": 4, "tweets_annotations": 34],
                rows: [
                    // A decimal-string id above 2^53, stored as an exact integer.
                    ("SELECT id, created_at FROM tweets WHERE id = 1495979553889697792", "1495979553889697792|2022-02-22T04:31:34.000Z"),
                    // author_id → includes.users, both ways.
                    ("SELECT count(*) FROM tweets t JOIN users u ON u.pk = t.author_pk WHERE u.username = 'suhemparack'", "2"),
                    ("SELECT u.name FROM tweets t JOIN users u ON u.pk = t.author_pk WHERE t.id = 1495979553889697792", "Joshua Tucker"),
                    (
                        "SELECT a.entity_name, count(*) FROM annotations a JOIN tweets_annotations j ON j.annotations_pk = a.pk"
                            + " GROUP BY a.pk ORDER BY 2 DESC, 1",
                        "Computer programming|15\nTechnology|15\nServices|2\nTwitter|2"
                    ),
                    ("SELECT domain_id, entity_id FROM annotations WHERE entity_name = 'Technology'", "65|848920371311001600"),
                    // No tweet here has `referenced_tweets`: every typed reference stays empty.
                    ("SELECT count(*) FROM tweets WHERE in_reply_to_pk IS NOT NULL OR quotes_pk IS NOT NULL OR retweet_of_pk IS NOT NULL", "0"),
                ]),
            FeedCase(
                source: .corpus("twitter-v2/search_tweets_query.json"), map: "Mappings/twitter-v2.map",
                counts: ["tweets": 6, "users": 3, "annotations": 0, "tweets_annotations": 0],
                rows: [
                    // data[1] replies to 1273733248749690880 before includes.tweets brings it: the stub is filled in.
                    (
                        "SELECT r.id, r.text IS NOT NULL, u.username FROM tweets t JOIN tweets r ON r.pk = t.in_reply_to_pk"
                            + " JOIN users u ON u.pk = r.author_pk WHERE t.id = 1275882613572583424",
                        "1273733248749690880|1|snowman"
                    ),
                    // `referenced_tweets where type = "replied_to"`: every reply of the file, by its `id`.
                    (
                        "SELECT t.id, r.id FROM tweets t JOIN tweets r ON r.pk = t.in_reply_to_pk ORDER BY t.id",
                        "1274086728471461889|1273733248749690880\n1275653067283759104|1274086728471461889\n1275763727908798470|1275653067283759104"
                            + "\n1275882613572583424|1273733248749690880\n1276035977375477760|1275653067283759104"
                    ),
                    ("SELECT count(*) FROM tweets WHERE quotes_pk IS NOT NULL OR retweet_of_pk IS NOT NULL", "0"),
                    ("SELECT count(*) FROM tweets WHERE text IS NULL", "0"),
                    ("SELECT hex(name), created_at FROM users WHERE id = 63046977", "\(EndToEnd.hex("Emily Waligoske 🏕"))|2009-08-05T05:46:48.000Z"),
                    ("SELECT count(*) FROM tweets t JOIN users u ON u.pk = t.reply_to_user_pk WHERE u.username = 'snowman'", "4"),
                ]),
        ]

        @Test(arguments: feeds)
        func importsExactRows(_ feed: FeedCase) throws { try feed.expectImportsExactRows() }

        @Test(arguments: feeds)
        func reimportChangesNothing(_ feed: FeedCase) throws { try feed.expectReimportChangesNothing() }

        @Test(needsPostgres, arguments: feeds)
        func postgresHoldsTheGraphSQLiteHolds(_ feed: FeedCase) throws { try feed.expectTheSameGraphOnBothStores() }

        @Test func followersKeepTheirCursorsExactly() throws {
            let dir = TemporaryDirectory()
            let store = dir.path("followers.sqlite")
            let feed = try #require(Corpus.file("twitter-v1.1/get_followers_0.json")).path
            #expect(try EndToEnd.importFeed(feed, map: "Mappings/twitter-v1.1-followers.map", store: store).status == 0)
            #expect(try FeedCase.meta(store, "nextCursor") == "1516850034842747602")
            #expect(try FeedCase.meta(store, "previousCursor") == "0")
        }

        @Test func searchKeepsNewestAndOldestIds() throws {
            let dir = TemporaryDirectory()
            let store = dir.path("v2.sqlite")
            let feed = try #require(Corpus.file("twitter-v2/search_tweets_query.json")).path
            #expect(try EndToEnd.importFeed(feed, map: "Mappings/twitter-v2.map", store: store).status == 0)
            #expect(try FeedCase.meta(store, "newestId") == "1276035977375477760")
            #expect(try FeedCase.meta(store, "oldestId") == "1275653067283759104")
            #expect(try FeedCase.meta(store, "resultCount") == "4")
        }

        /// `id` (a JSON number above 2^53) and `id_str` read with `| int` are the same key: the
        /// timeline imported again through `id_str` finds every tweet, user and medium unchanged.
        @Test func idAndIdStrGiveTheSameKey() throws {
            let dir = TemporaryDirectory()
            let store = dir.path("home.sqlite")
            let feed = try #require(Corpus.file("twitter-v1.1/get_home_timeline.json")).path
            #expect(try EndToEnd.importFeed(feed, map: "Mappings/twitter-v1.1.map", store: store).status == 0)
            // The map and the files it includes, each key read from `id_str` instead of `id`.
            let idLine = "  id                                      : Int\n"
            var keys = 0
            for name in ["twitter-v1.1.map", "twitter-v1.1-entities.map", "twitter-v1.1-user.map"] {
                let byId = try String(contentsOfFile: repoFile("Mappings/" + name), encoding: .utf8)
                let byIdStr = byId.replacingOccurrences(of: idLine, with: "  id <- id_str                            : Int | int\n")
                keys += byIdStr.components(separatedBy: "id <- id_str").count - 1
                dir.write(name == "twitter-v1.1.map" ? "by-id-str.map" : name, byIdStr)
            }
            try #require(keys == 3, "Tweet, User and Media keys")
            let map = dir.path("by-id-str.map")
            try EndToEnd.expectReimportChangesNothing([feed, "--map", map, "--store", store])
        }
    }
}
