import Foundation
import GraphImport
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// The README's change feed: a downstream job runs `changes --since-run N` and keeps the largest
/// `run` it read as its next N. Runs that overlap must not make it skip one: a run commits under
/// an id above every run committed before it, on either store.
@Suite("Change feed under overlapping runs")
struct ChangeFeedTests {
    static let map = """
        records at $[*] as Post
        entity Post
          key id
          id : Int
          title : String
        """

    /// Run 1 begins, then run 2 begins and commits while run 1 waits for the lock, and the feed
    /// is read in between: run 1 must commit under an id above 2, or the reader never lists it.
    @Test(arguments: StoreKind.testable) func aRunThatBeganFirstAndCommitsLastIsListedAfterTheOneBeforeIt(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let mapPath = store.directory.write("posts.map", Self.map)
        let plan = try ImportPlan.compile(text: Self.map, fileName: mapPath)
        let consumer = FeedConsumer(map: mapPath, store: store.location)
        var began: Int64 = 0
        let summary = try store.importJSON(
            #"[{"id":1,"title":"first"}]"#, plan: plan,
            onRunBegan: { id in
                began = id
                // The later run, whole, while this one has its id and not yet the lock.
                let later = store.importJSON(#"[{"id":2,"title":"later"}]"#, plan: plan)
                #expect((try? later.get())?.runID == 2, "\(later)")
                consumer.poll()
            }
        ).get()
        consumer.poll()
        #expect(began == 1)
        #expect(summary.runID == 3)
        #expect(consumer.listed == ["Post {\"id\":2} run 2", "Post {\"id\":1} run 3"])
        #expect(consumer.problems == [])
        #expect(try store.lines("SELECT id, outcome FROM graphimport_runs ORDER BY id") == ["2|succeeded", "3|succeeded"])

        // A run that moved and then failed (or was dry) is recorded under the id it began with.
        var failedBegan: Int64 = 0
        let failed = store.importJSON(
            #"[{"id":"x","title":"bad"}]"#, plan: plan,
            onRunBegan: { id in
                failedBegan = id
                _ = store.importJSON(#"[{"id":5,"title":"meanwhile"}]"#, plan: plan)
            })
        #expect(throws: (any Error).self) { try failed.get() }
        var dryBegan: Int64 = 0
        var options = ImportOptions()
        options.dryRun = true
        let dry = try store.importJSON(
            #"[{"id":6,"title":"dry"}]"#, plan: plan, options: options,
            onRunBegan: { id in
                dryBegan = id
                _ = store.importJSON(#"[{"id":7,"title":"meanwhile"}]"#, plan: plan)
            }
        ).get()
        #expect(dry.runID == dryBegan)
        #expect(
            try store.lines("SELECT id, outcome FROM graphimport_runs ORDER BY id")
                == ["2|succeeded", "3|succeeded", "\(failedBegan)|failed", "\(failedBegan + 1)|succeeded", "\(dryBegan)|dry-run", "\(dryBegan + 1)|succeeded"])
        consumer.poll()
        #expect(consumer.listed.suffix(2) == ["Post {\"id\":5} run \(failedBegan + 1)", "Post {\"id\":7} run \(dryBegan + 1)"])
    }

    /// Six processes at a time import disjoint feeds, three rounds, while a consumer polls the
    /// feed as the README says: it lists every object exactly once.
    @Test(arguments: StoreKind.testable) func overlappingWritersAndAPollingConsumerSeeEveryObjectOnce(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let mapPath = store.directory.write("posts.map", Self.map)
        let (writers, rounds, posts) = (6, 3, 1500)
        let consumer = FeedConsumer(map: mapPath, store: store.location)
        var polls = 0
        let deadline = Date().addingTimeInterval(240)
        for round in 0..<rounds {
            let processes = try (0..<writers).map { writer in
                let first = (round * writers + writer) * posts
                let feed = store.directory.write(
                    "r\(round)w\(writer).json", "[" + (first..<first + posts).map { #"{"id":\#($0),"title":"t\#($0)"}"# }.joined(separator: ",") + "]")
                return try BackgroundProcess(
                    graphimportBinary.path, [feed, "--map", mapPath, "--store", store.location, "--wait", "120", "--quiet"], in: store.directory)
            }
            while processes.contains(where: { $0.process.isRunning }) && Date() < deadline && polls < 10_000 {
                // Until the first writer has made the SQLite file, `changes` says there is no
                // store (exit 66, as for any path with nothing at it); a loaded machine can
                // start the writers after the consumer's first poll, so polling begins with it.
                if kind == .sqlite && !FileManager.default.fileExists(atPath: store.location) {
                    Thread.sleep(forTimeInterval: 0.01)
                    continue
                }
                consumer.poll()
                polls += 1
            }
            for process in processes {
                let result = process.finish()
                #expect(result.status == 0, "\(result.stderr)")
            }
        }
        consumer.poll()
        #expect(consumer.problems == [])
        #expect(consumer.times.count == writers * rounds * posts, "objects listed: \(consumer.times.count)")
        #expect(consumer.times.values.allSatisfy { $0 == 1 }, "an object was listed more than once")
        #expect(try store.lines("SELECT count(*) FROM graphimport_runs WHERE outcome = 'succeeded'") == [String(writers * rounds)])
        // Each run's end is written under the lock, just before its commit: in commit order, the
        // ids grow (the consumer above may poll too seldom to fall into every gap; this cannot).
        let committed = try store.lines("SELECT id FROM graphimport_runs ORDER BY finished_at, id").compactMap { Int($0) }
        #expect(committed == committed.sorted(), "runs in commit order: \(committed)")
    }
}

/// A downstream job as the README describes it: `changes --since-run N`, then the largest `run`
/// read as the next N.
final class FeedConsumer {
    let map: String
    let store: String
    private(set) var cursor: Int64 = 0
    /// Each line read, as "entity key run", in order.
    private(set) var listed: [String] = []
    /// How often each object ("entity key") was listed.
    private(set) var times: [String: Int] = [:]
    private(set) var problems: [String] = []

    init(map: String, store: String) {
        self.map = map
        self.store = store
    }

    func poll() {
        let result = runInProcess(["changes", "--map", map, "--store", store, "--since-run", String(cursor)])
        guard result.status == 0 else { return problems.append("exit \(result.status): \(result.stderr)") }
        var largest = cursor
        for line in result.stdout.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let entity = object["entity"] as? String,
                let key = object["key"], let run = object["run"] as? Int,
                let keyText = try? String(decoding: JSONSerialization.data(withJSONObject: key, options: [.sortedKeys]), as: UTF8.self)
            else {
                problems.append("unreadable line: \(line)")
                continue
            }
            listed.append("\(entity) \(keyText) run \(run)")
            times["\(entity) \(keyText)", default: 0] += 1
            largest = max(largest, Int64(run))
        }
        cursor = largest
    }
}
