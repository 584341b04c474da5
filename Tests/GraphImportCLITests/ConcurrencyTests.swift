import Foundation
import GraphImportSchema
import GraphImportStore
import GraphImportTestSupport
import Testing

/// Several real `graphimport` processes on one store at once, as overlapping cron jobs would run:
/// SQLite's lock serialises them, `--wait` makes the later ones wait, and the store stays whole.
/// SQLite only: its file lock is the subject; PostgresConcurrencyTests do the same with the server's.
@Suite("Concurrency, real processes")
struct ConcurrencyTests {
    static let map = "Mappings/tweets.map"

    /// Seeds 1 and 2 at revisions 0 and 1: each pair shares every id (the revision changes
    /// ~10% of texts and counts), and all four share the hashtag pool.
    static let feeds: [(seed: Int, revision: Int)] = [(1, 0), (1, 1), (2, 0), (2, 1)]

    @Test func fourProcessesImportingOverlappingFeedsLeaveAConsistentStore() throws {
        let dir = TemporaryDirectory()
        let paths = try Self.feeds.map { feed in
            try EndToEnd.generateTimeline(
                ["--tweets", "300", "--seed", String(feed.seed), "--revision", String(feed.revision)],
                into: dir.path("s\(feed.seed)r\(feed.revision).json"))
        }
        let store = dir.path("timeline.sqlite")
        var succeeded: [String] = []
        var exits: [Int32] = []
        // Round 0 starts on no store at all, so the four also race to create it.
        for round in 0..<3 {
            let workers = try paths.indices.map { index in
                let feed = paths[(index + round) % paths.count]
                let process = try BackgroundProcess(
                    graphimportBinary.path,
                    [feed, "--map", repoFile(Self.map), "--store", store, "--wait", "60", "--json", "--quiet", "--set-meta", "worker=\(round)-\(index)"],
                    in: dir)
                return (feed, process)
            }
            for (feed, process) in workers {
                let result = process.finish()
                exits.append(result.status)
                #expect(result.status == 0 || result.status == 75, "\(feed): \(result.stderr)")
                if result.status == 0 {
                    succeeded.append(feed)
                    #expect(try EndToEnd.summary(result)["records"] as? Int == 300)
                }
            }
        }
        #expect(!succeeded.isEmpty, "exits: \(exits)")

        #expect(try sqlite(store, "PRAGMA integrity_check") == "ok")
        #expect(try sqlite(store, "PRAGMA foreign_key_check") == "")
        for (table, key) in [("tweets", "id"), ("users", "id"), ("hashtags", "text")] {
            #expect(try sqlite(store, "SELECT \(key), count(*) FROM \(table) GROUP BY \(key) HAVING count(*) > 1") == "", "\(table)")
        }
        for (table, columns) in [("tweets_hashtags", "tweets_pk, hashtags_pk"), ("tweets_mentions", "tweets_pk, users_pk")] {
            #expect(try sqlite(store, "SELECT \(columns), count(*) FROM \(table) GROUP BY \(columns) HAVING count(*) > 1") == "", "\(table)")
        }

        let storedTweets = Set(try sqlite(store, "SELECT id FROM tweets").split(separator: "\n").map(String.init))
        let storedUsers = Set(try sqlite(store, "SELECT id FROM users").split(separator: "\n").map(String.init))
        for feed in Set(succeeded) {
            let ids = try Self.ids(feed)
            #expect(ids.tweets.subtracting(storedTweets).isEmpty, "\(feed): missing tweets \(ids.tweets.subtracting(storedTweets).prefix(5))")
            #expect(ids.users.subtracting(storedUsers).isEmpty, "\(feed): missing users \(ids.users.subtracting(storedUsers).prefix(5))")
        }

        // Every run is recorded once, finished, by its own process.
        #expect(try sqlite(store, "SELECT count(*) FROM graphimport_runs WHERE outcome = 'succeeded'") == String(succeeded.count))
        #expect(try sqlite(store, "SELECT count(*) FROM graphimport_runs WHERE outcome = 'running' OR finished_at IS NULL") == "0")
        #expect(try sqlite(store, "SELECT count(DISTINCT pid) = count(*) FROM graphimport_runs") == "1")
        let worker = try sqlite(store, "SELECT value FROM graphimport_meta WHERE key = 'worker'")
        #expect(worker.hasPrefix("2-"), "the last round's worker wrote last: \(worker)")
    }

    /// A first import that fails removes the store it created. When another import has opened
    /// that store meanwhile (here: waiting for the failing one's lock), the removal must not
    /// cost the other import its run or its data.
    @Test func failingFirstImportDoesNotRemoveTheStoreAnotherImportIsWaitingFor() throws {
        let dir = TemporaryDirectory()
        let good = try EndToEnd.generateTimeline(["--tweets", "50", "--seed", "5"], into: dir.path("good.json"))
        let store = dir.path("timeline.sqlite")
        // The failing import reads standard input: it creates the store, takes the lock, and
        // waits for its (bad) input while holding it.
        let failing = try BackgroundProcess(
            graphimportBinary.path, ["--map", repoFile(Self.map), "--store", store, "--wait", "60", "--quiet"], in: dir, pipeInput: true)
        try #require(waitUntil { Self.isWriteLocked(store) }, "the first import never took the lock")
        let waiting = try BackgroundProcess(
            graphimportBinary.path, [good, "--map", repoFile(Self.map), "--store", store, "--wait", "60", "--json", "--quiet"], in: dir)
        try #require(waitUntil { waiting.hasOpen(store) }, "the second import never opened the store")
        failing.closeInput(writing: #"[{"id":"not a number"}]"#)
        let failed = failing.finish()
        #expect(failed.status == 65, "\(failed.stderr)")
        let result = waiting.finish()
        #expect(result.status == 0, "\(result.stderr)")
        try #require(FileManager.default.fileExists(atPath: store))
        let ids = try Self.ids(good)
        let storedTweets = Set(try sqlite(store, "SELECT id FROM tweets").split(separator: "\n").map(String.init))
        #expect(ids.tweets.count > 50)
        #expect(ids.tweets.subtracting(storedTweets).isEmpty)
        // Both runs are recorded: the failed one first, then the good one.
        #expect(try sqlite(store, "SELECT group_concat(outcome) FROM (SELECT outcome FROM graphimport_runs ORDER BY id)") == "failed,succeeded")
    }

    /// The tweet ids (top-level, retweeted and replied-to) and user ids of a generated feed.
    static func ids(_ feed: String) throws -> (tweets: Set<String>, users: Set<String>) {
        var tweets: Set<String> = []
        var users: Set<String> = []
        func visit(_ tweet: [String: Any]) {
            if let id = tweet["id_str"] as? String { tweets.insert(id) }
            if let reply = tweet["in_reply_to_status_id_str"] as? String { tweets.insert(reply) }
            if let user = tweet["user"] as? [String: Any], let id = user["id_str"] as? String { users.insert(id) }
            if let retweeted = tweet["retweeted_status"] as? [String: Any] { visit(retweeted) }
        }
        for tweet in try EndToEnd.records(feed) { visit(tweet) }
        return (tweets, users)
    }

    /// True when another connection holds the store's write lock (BEGIN IMMEDIATE is refused at once).
    /// The probe leaves the store's journal mode as it is (a new store's first import keeps the rollback journal).
    static func isWriteLocked(_ store: String) -> Bool {
        guard FileManager.default.fileExists(atPath: store),
            let probe = try? Database(path: store, options: Database.Options(create: false, readOnly: false, busyTimeout: 0, writeAheadLog: false))
        else { return false }
        do {
            try probe.beginImmediate()
            probe.rollback()
            return false
        } catch {
            return error.isBusy
        }
    }
}
