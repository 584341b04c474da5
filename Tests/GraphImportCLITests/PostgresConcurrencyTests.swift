import Foundation
import GraphImportPostgres
import GraphImportTestSupport
import Testing

/// Imports that meet on one PostgreSQL store: their writes one after the other under the store's
/// lock, never interleaved, never duplicating an object; their reading of the input meanwhile.
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
        // The map's tables are not made; the store's own may be, to record the run that failed.
        #expect(
            try database.cluster.psql(database.name, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'graphimport%'")
                == "0\n")
        #expect(try database.cluster.psql(database.name, "SELECT outcome FROM graphimport_runs") == "failed\n")

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

    /// Once the store's tables exist, an import records its run and reads and drafts its input
    /// while another holds the store's lock (here a test's connection): the whole feed, 2.5 MB
    /// through a pipe, is taken before the lock is free, and written once it is.
    @Test func anImportReadsItsInputWhileAnotherHoldsTheStoresLock() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let store = database.connectionString
        let dir = TemporaryDirectory()
        #expect(runInProcess([Self.feed, "--map", Self.map, "--store", store]).status == 0)
        let feed = try String(
            contentsOfFile: EndToEnd.generateTimeline(["--tweets", "1500", "--seed", "3"], into: dir.path("feed.json")), encoding: .utf8)
        #expect(feed.utf8.count > 1_000_000)

        let holder = try PostgresConnection(#require(ConnectionString(store)))
        try holder.begin()
        try holder.lockStore(wait: 0)
        let waiting = try BackgroundProcess(graphimportBinary.path, ["--map", Self.map, "--store", store, "--wait", "60"], in: dir, pipeInput: true)
        let input = try #require(waiting.process.standardInput as? Pipe).fileHandleForWriting
        let written = Written()
        signal(SIGPIPE, SIG_IGN)
        Thread.detachNewThread {
            try? input.write(contentsOf: Data(feed.utf8))
            try? input.close()
            written.set()
        }
        #expect(waitUntil(seconds: 60) { written.isSet }, "the input was not read while the lock was held")
        // The reading thread may take the whole feed before the import asks for the lock.
        let waits = waitUntil {
            (try? database.cluster.psql(database.name, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")) == "1\n"
        }
        #expect(waits, "the import does not wait for the lock")
        #expect(try database.cluster.psql(database.name, "SELECT count(*) FROM graphimport_runs WHERE outcome = 'running'") == "1\n")
        try holder.commit()
        let result = waiting.finish()
        #expect(result.status == 0, "\(result.stderr)")
        let texts = try Self.tweetTexts([dir.path("feed.json")])
        let ids = texts.keys.map(String.init).joined(separator: ",")
        #expect(texts.count >= 1500)
        #expect(try database.cluster.psql(database.name, "SELECT count(*) FROM tweets WHERE id IN (\(ids)) AND text IS NOT NULL") == "\(texts.count)\n")
    }

    /// Four processes at once import feeds that share their objects (two revisions of two
    /// timelines: every tweet in two feeds, users and hashtags in all four): each exits 0, the
    /// store holds each object once, every object of every feed, and each tweet as the feed that
    /// committed last of those holding it wrote it.
    @Test func fourImportsAtOnceOfOverlappingFeedsLeaveEachObjectOnceAsTheLastCommitterWroteIt() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let store = database.connectionString
        let dir = TemporaryDirectory()
        let feeds = try [(1, 0), (2, 0), (1, 1), (2, 1)].map { seed, revision in
            try EndToEnd.generateTimeline(
                ["--tweets", "400", "--seed", String(seed), "--revision", String(revision)], into: dir.path("s\(seed)r\(revision).json"))
        }
        // The first into an empty store makes the tables; the others then all meet at once.
        #expect(runInProcess([Self.feed, "--map", Self.map, "--store", store]).status == 0)
        let processes = try feeds.map { feed in
            try BackgroundProcess(graphimportBinary.path, [feed, "--map", Self.map, "--store", store, "--wait", "120", "--quiet"], in: dir)
        }
        for process in processes {
            let result = process.finish()
            #expect(result.status == 0, "\(result.stderr)")
        }
        for (table, key) in [("tweets", "id"), ("users", "id"), ("hashtags", "text")] {
            #expect(try database.cluster.psql(database.name, "SELECT count(*) = count(DISTINCT \(key)) FROM \(table)") == "t\n", "\(table)")
        }
        for table in ["tweets_hashtags", "tweets_mentions"] {
            let columns = try database.cluster.psql(
                database.name,
                "SELECT string_agg(column_name, ',') FROM information_schema.columns WHERE table_name = '\(table)' AND column_name LIKE '%_pk'")
            let pair = columns.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(
                try database.cluster.psql(database.name, "SELECT count(*) FROM (SELECT \(pair) FROM \(table) GROUP BY \(pair) HAVING count(*) > 1) d") == "0\n",
                "\(table)")
        }
        // The feeds in the order their runs committed (ids grow in commit order).
        let committed = try database.cluster.psql(
            database.name, "SELECT input FROM graphimport_runs WHERE outcome = 'succeeded' ORDER BY id OFFSET 1"
        ).split(separator: "\n").map { URL(fileURLWithPath: String($0)).lastPathComponent }
        #expect(committed.count == 4 && Set(committed) == Set(feeds.map { URL(fileURLWithPath: $0).lastPathComponent }), "\(committed)")
        let expected = try Self.tweetTexts(committed.map { dir.path($0) })
        let stored = try database.cluster.psql(database.name, "SELECT id || ' ' || replace(text, chr(10), ' ') FROM tweets WHERE text IS NOT NULL").split(
            separator: "\n")
        var texts: [Int64: String] = [:]
        for line in stored {
            let parts = line.split(separator: " ", maxSplits: 1)
            if let id = Int64(parts[0]) { texts[id] = parts.count > 1 ? String(parts[1]) : "" }
        }
        let wrong = expected.filter { texts[$0.key] != $0.value.replacingOccurrences(of: "\n", with: " ") }
        #expect(wrong.isEmpty, "\(wrong.count) of \(expected.count) tweets missing or not as the last committer wrote them: \(wrong.prefix(3))")
    }

    /// Each tweet's text (retweeted ones' too) as the feeds at `paths`, applied in order, leave it.
    static func tweetTexts(_ paths: [String]) throws -> [Int64: String] {
        var texts: [Int64: String] = [:]
        func visit(_ tweet: [String: Any]) {
            if let id = (tweet["id"] as? NSNumber)?.int64Value, let text = tweet["text"] as? String { texts[id] = text }
            if let retweeted = tweet["retweeted_status"] as? [String: Any] { visit(retweeted) }
        }
        for path in paths {
            for tweet in try EndToEnd.records(path) { visit(tweet) }
        }
        return texts
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

/// A flag one thread sets and another polls.
private final class Written: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
