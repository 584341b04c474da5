import GraphImport
import GraphImportPostgres
import GraphImportSchema
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// A first import into an empty store COPYs its rows straight into the tables, with the
/// foreign keys and secondary indexes dropped and made again in its transaction: a failure
/// leaves the store empty with every key and index in place (`PostgresStoredReadsTests` shows
/// that a store that already holds rows keeps them while it is written).
@Suite("PostgreSQL: a first import loads straight", needsPostgres)
struct PostgresFirstLoadTests {
    /// The store's foreign keys and indexes, by name and definition.
    static func constraints(_ store: StoreUnderTest) throws -> [String] {
        try store.select(
            "SELECT conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace "
                + "UNION ALL SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1"
        ).map { $0.joined() }
    }

    /// The first import's last record lacks a required value after batches of one have been
    /// COPYed: the store is as empty as before, with its keys and indexes.
    @Test(arguments: [1, 5000])
    func aFailedFirstImportLeavesTheStoreEmptyWithItsKeys(batchSize: Int) throws {
        let plan = try PostgresImportTests.plan("tweets.map")
        let store = try StoreUnderTest(.postgresql, batchSize: batchSize)
        // A store with the tables, then without their rows.
        _ = try store.importJSON(PostgresImportTests.firstFeed, plan: plan).get()
        let tables = try store.tableNames().map { "\"\($0)\"" }.joined(separator: ", ")
        try store.execute("TRUNCATE \(tables)")
        let keys = try Self.constraints(store)
        #expect(keys.contains { $0.contains("FOREIGN KEY") } && keys.contains { $0.contains("CREATE INDEX") }, "\(keys)")
        let lacking = """
            {"id": 3, "created_at": "Wed Aug 27 13:08:45 +0000 2008", "source": "web", "lang": "en", "retweet_count": 0, "favorite_count": 0,
              "user": {"id": 10, "screen_name": "ann", "name": "Ann"}, "entities": {"hashtags": [], "user_mentions": []}}]
            """
        let feed = PostgresImportTests.firstFeed.dropLast() + ", " + lacking
        guard case .failure(let failure) = store.importJSON(String(feed), plan: plan) else {
            Issue.record("imported a new tweet without its text")
            return
        }
        #expect(failure.text.contains("has no 'text'"), "\(failure.text)")
        for table in try store.tableNames() { #expect(try store.value("SELECT count(*) FROM \"\(table)\"") == "0", "\(table)") }
        #expect(try Self.constraints(store) == keys)
        // The same feed without the failing record then loads, keys and all.
        _ = try store.importJSON(PostgresImportTests.firstFeed, plan: plan).get()
        #expect(try Self.constraints(store) == keys)
        #expect(try store.value("SELECT count(*) FROM tweets") == "3")
    }
}
