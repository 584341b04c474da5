import Foundation
import GraphImportTestSupport
import Testing

/// An import killed with SIGKILL at a random moment leaves the store exactly as it was before or
/// exactly as a complete import makes it, never in between, and a later run completes it.
/// SQLite only: the file's journal recovery is the subject; on PostgreSQL the server ends a dead
/// client's transaction (PostgresFaultTests terminate the backend and stop the server mid-import).
///
/// `GRAPHIMPORT_CRASH_ITERATIONS` sets the number of kills (default 50; long mode: 1000) and
/// `GRAPHIMPORT_CRASH_SEED` the random seed, printed when a check fails so a run can be repeated.
@Suite("Reliability: crash safety", .serialized)
struct ReliabilityCrashTests {
    static let map = repoFile("Mappings/tweets.map")

    static var iterations: Int {
        ProcessInfo.processInfo.environment["GRAPHIMPORT_CRASH_ITERATIONS"].flatMap { Int($0) } ?? 50
    }

    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["GRAPHIMPORT_CRASH_SEED"].flatMap { UInt64($0) } ?? 20_261_122
    }

    /// Kills land 0-400 ms after the start, except every fifth, which lands around the time a whole
    /// import takes (0.7 to 1.3 times it), so that some kills hit the commit itself.
    static func delay(iteration: Int, importSeconds: Double, random: inout SplitMix64) -> Double {
        if iteration % 5 == 4 { return importSeconds * (0.7 + 0.6 * random.unit()) }
        return 0.4 * random.unit()
    }

    @Test func killedImportLeavesTheBeforeOrAfterStateAndARerunCompletesIt() throws {
        let fixtures = ReliabilityFixtures.shared
        let feed = try fixtures.revisedFeed()
        let base = try fixtures.baseStore()
        let revised = try fixtures.revisedStore()
        let before = try Self.digest(base)
        let after = try Self.digest(revised)
        try #require(before != after, "the revised feed must change the store")

        // How long a whole import takes here, to aim some kills at its end.
        let dir = TemporaryDirectory("graphimport-crash")
        let store = dir.path("timeline.sqlite")
        try copyStore(base, to: store)
        let timed = try runTool([feed, "--map", Self.map, "--store", store, "--quiet"], in: dir)
        try #require(timed.exitStatus == 0, "\(timed.report)")
        try #require(try Self.digest(store) == after, "a clean import of the revised feed must reach the after state")

        var random = SplitMix64(seed: Self.seed)
        var landed: [String: Int] = ["before": 0, "after": 0, "neither": 0]
        let iterations = Self.iterations
        for iteration in 0..<iterations {
            let context = "iteration \(iteration) (GRAPHIMPORT_CRASH_SEED=\(Self.seed))"
            try copyStore(base, to: store)
            let delay = Self.delay(iteration: iteration, importSeconds: timed.seconds, random: &random)
            let child = try SpawnedTool(graphimportBinary.path, [feed, "--map", Self.map, "--store", store, "--quiet"], in: dir)
            usleep(useconds_t(delay * 1_000_000))
            child.send(SIGKILL)
            let outcome = child.finish()
            // Either the kill landed, or the import had already finished, successfully.
            #expect(outcome.signal == SIGKILL || outcome.exitStatus == 0, "\(context): \(outcome.report)")

            #expect(try StoreState.integrity(store) == "ok", "\(context), killed after \(delay) s")
            let state = try Self.digest(store)
            let runs = try StoreState.runOutcomes(store)
            switch state {
            case before:
                landed["before", default: 0] += 1
                // The killed run is recorded as running, or not at all if it was killed before it began.
                #expect(runs == ["succeeded"] || runs == ["succeeded", "running"], "\(context): runs \(runs)")
            case after:
                landed["after", default: 0] += 1
                #expect(runs == ["succeeded", "succeeded"], "\(context): runs \(runs)")
            default:
                landed["neither", default: 0] += 1
                Issue.record("\(context), killed after \(delay) s: the store is in neither state:\n\(state)\nbefore:\n\(before)\nafter:\n\(after)")
            }

            // Every tenth store, and the last, is completed by a new run.
            if iteration % 10 == 9 || iteration == iterations - 1 {
                let rerun = try runTool([feed, "--map", Self.map, "--store", store, "--quiet"], in: dir)
                #expect(rerun.exitStatus == 0, "\(context): the re-run failed: \(rerun.report)")
                #expect(try Self.digest(store) == after, "\(context): the re-run did not reach the after state")
                #expect(try StoreState.integrity(store) == "ok", "\(context)")
                let rerunRuns = try StoreState.runOutcomes(store)
                #expect(rerunRuns.last == "succeeded" && Array(rerunRuns.dropLast()) == runs, "\(context): runs \(rerunRuns)")
                // A kill may leave a journal that is not hot (its header is zeroed until SQLite first
                // writes the store itself); a reader ignores it, and the next commit removes it.
                #expect(!FileManager.default.fileExists(atPath: store + "-journal"), "\(context): a journal is left beside the store")
            }
        }
        print("crash safety: \(iterations) kills, seed \(Self.seed): \(landed["before"]!) left the before state, \(landed["after"]!) the after state")
    }

    /// The content of a timeline store: each table's row count and sums over values the revision
    /// changes. Equal digests mean the same import state.
    static func digest(_ store: String) throws -> String {
        let sums = try sqlite(
            store,
            "SELECT count(*), total(favorite_count), total(retweet_count), count(text), sum(length(text)) FROM tweets; "
                + "SELECT count(*), total(followers), sum(length(description)) FROM users; "
                + "SELECT count(*), sum(position) FROM tweets_hashtags; SELECT count(*), sum(position) FROM tweets_mentions")
        return try StoreState.counts(store) + "\n" + sums
    }
}

/// A small seeded random number generator (SplitMix64), so a failing run can be repeated.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<1.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
