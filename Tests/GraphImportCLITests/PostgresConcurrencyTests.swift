import Foundation
import GraphImportPostgres
import GraphImportTestSupport
import Testing

/// Imports that meet on one PostgreSQL store: one after the other under the store's lock, never
/// interleaved, never duplicating an object.
@Suite("PostgreSQL: imports at once", PostgresCLITests.needsPostgres)
struct PostgresConcurrencyTests {
    static let map = repoFile("Mappings/tweets.map")
    static let feed = repoFile("Samples/tweets.json")

    @Test func anImportWaitsForTheStoresLockOrExits75WithWaitZero() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let store = database.connectionString
        let holder = try PostgresConnection(#require(ConnectionString(store)))
        try holder.begin()
        try holder.lockStore(wait: 0)
        let refused = runInProcess([Self.feed, "--map", Self.map, "--store", store, "--wait", "0"])
        #expect(refused.status == 75, "\(refused.stderr)")
        #expect(refused.stderr.contains("busy"), "\(refused.stderr)")
        #expect(try database.cluster.psql(database.name, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == "0\n")

        let dir = TemporaryDirectory()
        let waiting = try BackgroundProcess(graphimportBinary.path, [Self.feed, "--map", Self.map, "--store", store, "--wait", "60"], in: dir)
        let blocked = waitUntil {
            (try? database.cluster.psql(database.name, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")) == "1\n"
        }
        #expect(blocked, "the second import never waited for the lock")
        try holder.commit()
        let result = waiting.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try database.cluster.psql(database.name, "SELECT count(*) > 0 FROM tweets") == "t\n")
    }

    @Test func twoImportsAtOnceOfOneFeedWriteEachObjectOnce() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let store = database.connectionString
        let dir = TemporaryDirectory()
        let arguments = [Self.feed, "--map", Self.map, "--store", store, "--json"]
        let first = try BackgroundProcess(graphimportBinary.path, arguments, in: dir)
        let second = try BackgroundProcess(graphimportBinary.path, arguments, in: dir)
        let results = [first.finish(), second.finish()]
        for result in results { #expect(result.status == 0, "\(result.stderr)") }
        for table in ["tweets", "users", "hashtags"] {
            let counts = try database.cluster.psql(database.name, "SELECT count(*) = count(DISTINCT (\(table == "hashtags" ? "text" : "id"))) FROM \(table)")
            #expect(counts == "t\n", "\(table) holds an object twice")
        }
        let inserted = try database.cluster.psql(
            database.name,
            "SELECT string_agg(outcome || ':' || (counts::json -> 'Tweet' ->> 'inserted'), ',' ORDER BY (counts::json -> 'Tweet' ->> 'inserted')::bigint DESC) FROM graphimport_runs"
        )
        let tweets = try database.cluster.psql(database.name, "SELECT count(*) FROM tweets").dropLast()
        #expect(inserted == "succeeded:\(tweets),succeeded:0\n", "\(inserted)")
    }
}
