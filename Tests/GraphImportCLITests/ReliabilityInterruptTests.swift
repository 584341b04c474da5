import Foundation
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// SIGTERM (a stopped service, a cron timeout), SIGINT (Ctrl-C) or SIGHUP during an import: the import is
/// rolled back, the run is recorded as failed, and the exit status says "try again later". On both
/// stores; the SQLite tests also check that no hot journal is left, the file's own concern.
@Suite("Reliability: interruption")
struct ReliabilityInterruptTests {
    static let map = repoFile("Mappings/tweets.map")

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func signalDuringAnImportExits75AndLeavesTheStoreUnchanged(_ signal: Int32) throws {
        let dir = TemporaryDirectory()
        let store = dir.path("timeline.sqlite")
        try copyStore(try ReliabilityFixtures.shared.baseStore(), to: store)
        let before = try ReliabilityCrashTests.digest(store)
        let feed = try ReliabilityFixtures.shared.revisedFeed()
        let child = try SpawnedTool(graphimportBinary.path, [feed, "--map", Self.map, "--store", store, "--quiet"], in: dir)
        try #require(waitUntil { ConcurrencyTests.isWriteLocked(store) || child.hasEnded }, "the import never took the lock")
        usleep(150_000)
        try #require(!child.hasEnded, "the import ended before the signal: \(child.finish().report)")
        child.send(signal)
        let outcome = child.finish(timeout: 30)
        try Self.expectInterrupted(outcome, store: store, before: before)
    }

    /// The same into PostgreSQL: the process ends its own transaction, so the store is as it was
    /// (every row of the map's tables) and the run is recorded as failed, as on SQLite.
    @Test(needsPostgres, arguments: [SIGTERM, SIGINT, SIGHUP])
    func signalDuringAnImportIntoPostgreSQLExits75AndLeavesTheStoreUnchanged(_ signal: Int32) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(.postgresql)
        let plan = try RoundTripCase.plan("Mappings/tweets.map")
        let base = try runBinary([try ReliabilityFixtures.shared.baseFeed(), "--map", Self.map, "--store", store.location, "--quiet"])
        try #require(base.status == 0, "\(base.stderr)")
        let before = try store.rows(plan: plan)
        let feed = try ReliabilityFixtures.shared.revisedFeed()
        let child = try SpawnedTool(graphimportBinary.path, [feed, "--map", Self.map, "--store", store.location, "--quiet"], in: dir)
        // The import's advisory lock, in this database (the cluster serves other tests too).
        let held =
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        try #require(waitUntil { (try? store.value(held)) == "1" || child.hasEnded }, "the import never took the lock")
        usleep(150_000)
        try #require(!child.hasEnded, "the import ended before the signal: \(child.finish().report)")
        child.send(signal)
        let outcome = child.finish(timeout: 30)
        #expect(outcome.signal == nil, "ended by the signal instead of handling it: \(outcome.report)")
        #expect(outcome.exitStatus == 75, "\(outcome.report)")
        #expect(outcome.stderr.hasPrefix("graphimport: error: ") && outcome.stderr.contains("interrupted"), "\(outcome.report)")
        #expect(try store.rows(plan: plan) == before, "the store changed")
        let last = try store.lines("SELECT outcome, error FROM graphimport_runs ORDER BY id DESC LIMIT 1").first ?? ""
        #expect(last.hasPrefix("failed|") && last.contains("interrupted"), "last run: \(last)")
    }

    /// Waiting for a slow producer (`curl … | graphimport`) is part of the import too.
    @Test func sigtermWhileWaitingForInputExits75() throws {
        let dir = TemporaryDirectory()
        let store = dir.path("timeline.sqlite")
        try copyStore(try ReliabilityFixtures.shared.baseStore(), to: store)
        let before = try ReliabilityCrashTests.digest(store)
        // Half of the revised feed, cut after a whole record: the rest never comes.
        let lines = try String(contentsOfFile: try ReliabilityFixtures.shared.revisedFeed(), encoding: .utf8).split(separator: "\n")
        let half = lines.prefix(lines.count / 2).joined(separator: "\n") + "\n"
        let child = try SpawnedTool(
            graphimportBinary.path, ["--map", Self.map, "--store", store, "--quiet"], pipeInput: true, in: dir)
        child.writeInput(half)
        try #require(waitUntil { ConcurrencyTests.isWriteLocked(store) || child.hasEnded }, "the import never took the lock")
        usleep(300_000)
        try #require(!child.hasEnded, "the import ended before the signal: \(child.finish().report)")
        child.send(SIGTERM)
        // The pipe stays open: only the signal can end the import.
        let deadline = Date().addingTimeInterval(10)
        while !child.hasEnded && Date() < deadline { usleep(10_000) }
        try #require(child.hasEnded, "the import did not stop within 10 s of SIGTERM while reading its input")
        let outcome = child.finish(timeout: 1)
        try Self.expectInterrupted(outcome, store: store, before: before)
    }

    static func expectInterrupted(
        _ outcome: ToolOutcome, store: String, before: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(outcome.signal == nil, "ended by the signal instead of handling it: \(outcome.report)", sourceLocation: sourceLocation)
        #expect(outcome.exitStatus == 75, "\(outcome.report)", sourceLocation: sourceLocation)
        #expect(outcome.stderr.hasPrefix("graphimport: error: "), "\(outcome.report)", sourceLocation: sourceLocation)
        #expect(outcome.stderr.contains("interrupted"), "\(outcome.report)", sourceLocation: sourceLocation)
        // Rolled back by the process itself: no hot journal left for the next reader to roll back.
        #expect(!FileManager.default.fileExists(atPath: store + "-journal"), sourceLocation: sourceLocation)
        #expect(try StoreState.integrity(store) == "ok", sourceLocation: sourceLocation)
        #expect(try ReliabilityCrashTests.digest(store) == before, "the store changed", sourceLocation: sourceLocation)
        let last = try sqlite(store, "SELECT outcome, error FROM graphimport_runs ORDER BY id DESC LIMIT 1")
        #expect(last.hasPrefix("failed|") && last.contains("interrupted"), "last run: \(last)", sourceLocation: sourceLocation)
    }
}
