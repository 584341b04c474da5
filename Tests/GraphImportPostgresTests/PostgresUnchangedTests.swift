import GraphImport
import GraphImportPostgres
import GraphImportSchema
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// Unchanged objects are never sent: a re-import of a feed the store already holds writes no row
/// version and locks no row (PostgreSQL's `xmin` and `xmax` of every row stay as they were; an
/// `INSERT … ON CONFLICT DO UPDATE … WHERE` that updates nothing still locks the row it meets,
/// setting its `xmax`), and a revised feed writes only the objects it changes.
@Suite("PostgreSQL: unchanged objects are never sent", needsPostgres)
struct PostgresUnchangedTests {
    /// Per table of the map's (join tables too): each row's place, `xmin` and `xmax`, with its key.
    static func versions(_ store: StoreUnderTest) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for table in try store.tableNames() {
            result[table] = try store.select("SELECT ctid::text || ' ' || xmin::text || ' ' || xmax::text FROM \"\(table)\" ORDER BY ctid")
                .map { $0.joined(separator: " ") }
        }
        return result
    }

    @Test(arguments: [5000, 3, 1])
    func aReimportOfTheSameFeedWritesAndLocksNoRow(batchSize: Int) throws {
        let plan = try PostgresImportTests.plan("tweets.map")
        let store = try StoreUnderTest(.postgresql, batchSize: batchSize)
        _ = try store.importJSON(PostgresImportTests.firstFeed, plan: plan).get()
        _ = try store.importJSON(PostgresImportTests.secondFeed, plan: plan).get()
        let before = try Self.versions(store)
        #expect(before["tweets"]?.count == 3 && before["tweets_hashtags"]?.isEmpty == false, "\(before)")
        let again = try store.importJSON(PostgresImportTests.secondFeed, plan: plan).get()
        #expect(try Self.versions(store) == before)
        let tweets = try #require(again.entities.first { $0.name == "Tweet" }?.counts)
        #expect([tweets.inserted, tweets.updated, tweets.unchanged] == [0, 0, 2])
    }

    /// The sample feed, whole, then again: the same on the real shapes (retweets, replies to
    /// tweets outside the feed, users met as authors and as mentions).
    @Test func aReimportOfTheSampleWritesAndLocksNoRow() throws {
        let plan = try PostgresImportTests.plan("tweets.map")
        let feed = try PostgresImportTests.sample("tweets.json")
        let store = try StoreUnderTest(.postgresql, batchSize: 500)
        _ = try store.importJSON(feed, plan: plan).get()
        let before = try Self.versions(store)
        let again = try store.importJSON(feed, plan: plan).get()
        #expect(try Self.versions(store) == before)
        #expect(again.entities.allSatisfy { $0.counts.inserted == 0 && $0.counts.updated == 0 }, "\(again.entities)")
    }

    /// A revision that changes one tweet's count and one user's name: those two rows get new
    /// versions, every other row keeps its own.
    @Test func aRevisedFeedWritesOnlyWhatItChanges() throws {
        let plan = try PostgresImportTests.plan("tweets.map")
        let store = try StoreUnderTest(.postgresql)
        _ = try store.importJSON(PostgresImportTests.firstFeed, plan: plan).get()
        let rows = "SELECT id::text || ' ' || xmin::text || ' ' || xmax::text FROM "
        let tweets = try store.select(rows + "tweets ORDER BY id")
        let users = try store.select(rows + "users ORDER BY id")
        let revised = PostgresImportTests.firstFeed
            .replacingOccurrences(of: "\"favorite_count\": 0,\n  \"user\": {\"id\": 11,", with: "\"favorite_count\": 4,\n  \"user\": {\"id\": 11,")
            .replacingOccurrences(of: "\"name\": \"Bob\", \"followers_count\": 7", with: "\"name\": \"Robert\", \"followers_count\": 7")
        #expect(revised.contains("\"favorite_count\": 4") && revised.contains("Robert"))
        let summary = try store.importJSON(revised, plan: plan).get()
        let counts = Dictionary(uniqueKeysWithValues: summary.entities.map { ($0.name, [$0.counts.inserted, $0.counts.updated]) })
        #expect(counts["Tweet"] == [0, 1] && counts["User"] == [0, 1], "\(counts)")
        let tweetsAfter = try store.select(rows + "tweets ORDER BY id")
        let usersAfter = try store.select(rows + "users ORDER BY id")
        #expect(zip(tweets, tweetsAfter).filter { $0 != $1 }.map { $0.0[0].split(separator: " ")[0] } == ["2"])
        #expect(zip(users, usersAfter).filter { $0 != $1 }.map { $0.0[0].split(separator: " ")[0] } == ["11"])
        #expect(try store.value("SELECT name FROM users WHERE id = 11") == "Robert")
    }
}
