import Foundation
import GraphImportCLI
import GraphImportSchema
import GraphImportStore
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// Metadata read from a wrapped response, kept in the import's transaction, and the run history
/// that every import leaves in `graphimport_runs`, as seen through the command line, on both stores
/// (the busy store's tests hold SQLite's write lock by hand; PostgresConcurrencyTests hold the server's).
@Suite("Command line, metadata and run history")
struct RunHistoryCLITests {
    static let map = """
        meta sinceId <- search_metadata.max_id : Int
        meta cursor <- next : String?
        records at statuses[*] as Item
        entity Item
          key id
          id : Int
          name : String
          owner : User? inverse items
        entity User
          key id
          id : Int
          handle : String
        """

    /// A wrapped response: metadata first, then the records.
    static func response(maxID: String, next: String?, items: String) -> String {
        let cursor = next.map { "\"\($0)\"" } ?? "null"
        return #"{"search_metadata":{"max_id":\#(maxID)},"next":\#(cursor),"statuses":[\#(items)]}"#
    }

    static let firstItems = #"{"id":1,"name":"a","owner":{"id":10,"handle":"ann"}},{"id":2,"name":"b"},{"id":3,"name":"c"}"#

    /// A store of `kind` with one successful run of `firstItems` (sinceId 674674925823787009, cursor "p2").
    static func importedStore(_ dir: TemporaryDirectory, _ kind: StoreKind) throws -> (map: String, store: StoreUnderTest) {
        let map = dir.write("feed.map", Self.map)
        let store = try StoreUnderTest(kind)
        let feed = dir.write("first.json", response(maxID: "674674925823787009", next: "p2", items: firstItems))
        let result = runInProcess([feed, "--map", map, "--store", store.location, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        return (map, store)
    }

    // MARK: Metadata from the response

    @Test(arguments: StoreKind.testable)
    func metadataFromTheResponseIsSavedWithItsType(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let (map, store) = try Self.importedStore(dir, kind)
        #expect(runInProcess(["meta", "get", "sinceId", "--map", map, "--store", store.location]).stdout == "674674925823787009\n")
        #expect(runInProcess(["meta", "get", "cursor", "--map", map, "--store", store.location]).stdout == "p2\n")
        #expect(runInProcess(["meta", "list", "--map", map, "--store", store.location]).stdout == "cursor\tString\tp2\nsinceId\tInt\t674674925823787009\n")
    }

    @Test(arguments: StoreKind.testable)
    func nullCursorRemovesTheKeyAndAMissingOneKeepsIt(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let (map, store) = try Self.importedStore(dir, kind)
        let withoutNext = dir.write("no-next.json", #"{"search_metadata":{"max_id":5},"statuses":[]}"#)
        #expect(runInProcess([withoutNext, "--map", map, "--quiet", "--store", store.location]).status == 0)
        #expect(runInProcess(["meta", "get", "cursor", "--map", map, "--store", store.location]).stdout == "p2\n")
        #expect(runInProcess(["meta", "get", "sinceId", "--map", map, "--store", store.location]).stdout == "5\n")
        let last = dir.write("last.json", Self.response(maxID: "6", next: nil, items: ""))
        let result = runInProcess([last, "--map", map, "--store", store.location])
        #expect(result.status == 0)
        #expect(result.stderr.contains("  meta cursor = (removed)\n"), "\(result.stderr)")
        let get = runInProcess(["meta", "get", "cursor", "--map", map, "--store", store.location])
        #expect(get.status == 1)
        #expect(get.stdout.isEmpty)
    }

    @Test(arguments: StoreKind.testable)
    func failedImportLeavesDataAndMetadataUnchanged(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let (map, store) = try Self.importedStore(dir, kind)
        let before = try store.lines("SELECT id, name, changed_run FROM items ORDER BY id")
        // The first record changes item 1; the second does not fit the map.
        let bad = dir.write("bad.json", Self.response(maxID: "900", next: "p3", items: #"{"id":1,"name":"changed"},{"id":2,"name":7}"#))
        let result = runInProcess([bad, "--map", map, "--set-meta", #"etag=W/"x""#, "--store", store.location])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("graphimport: error: \(bad):"), "\(result.stderr)")
        #expect(try store.lines("SELECT id, name, changed_run FROM items ORDER BY id") == before)
        #expect(runInProcess(["meta", "list", "--map", map, "--store", store.location]).stdout == "cursor\tString\tp2\nsinceId\tInt\t674674925823787009\n")
        #expect(runInProcess(["meta", "get", "etag", "--map", map, "--store", store.location]).status == 1)
    }

    @Test(arguments: StoreKind.testable)
    func setMetaIsWrittenWithASuccessfulImport(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let (map, store) = try Self.importedStore(dir, kind)
        let good = dir.write("good.json", Self.response(maxID: "901", next: "p3", items: #"{"id":4,"name":"d"}"#))
        let result = runInProcess([
            good, "--map", map, "--quiet", "--set-meta", #"etag=W/"x""#, "--set-meta", "fetchedAt:date=2024-05-01T12:00:00Z", "--store", store.location,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(runInProcess(["meta", "get", "etag", "--map", map, "--store", store.location]).stdout == "W/\"x\"\n")
        #expect(
            runInProcess(["meta", "list", "--map", map, "--store", store.location]).stdout
                == "cursor\tString\tp3\netag\tString\tW/\"x\"\nfetchedAt\tDate\t2024-05-01T12:00:00.000Z\nsinceId\tInt\t901\n")
    }

    @Test(arguments: StoreKind.testable)
    func metaValueThatDoesNotFitFailsTheImportAndWritesNothing(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let (map, store) = try Self.importedStore(dir, kind)
        let bad = dir.write("bad-meta.json", Self.response(maxID: #""901""#, next: "p3", items: #"{"id":4,"name":"d"}"#))
        let result = runInProcess([bad, "--map", map, "--store", store.location])
        #expect(result.status == 65)
        #expect(
            result.stderr == """
                graphimport: error: \(bad): metadata 'sinceId': expected an integer, found a string ('901')
                hint: add `| int` to read numbers written as text

                """)
        #expect(try store.value("SELECT count(*) FROM items WHERE id = 4") == "0")
        #expect(runInProcess(["meta", "get", "cursor", "--map", map, "--store", store.location]).stdout == "p2\n")
    }

    @Test(arguments: StoreKind.testable)
    func dryRunWritesNoMetadata(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let (map, store) = try Self.importedStore(dir, kind)
        let next = dir.write("next.json", Self.response(maxID: "902", next: "p9", items: #"{"id":4,"name":"d"}"#))
        #expect(runInProcess([next, "--map", map, "--dry-run", "--quiet", "--set-meta", "etag=e", "--store", store.location]).status == 0)
        #expect(runInProcess(["meta", "list", "--map", map, "--store", store.location]).stdout == "cursor\tString\tp2\nsinceId\tInt\t674674925823787009\n")
    }

    // MARK: Run history

    @Test(arguments: StoreKind.testable)
    func runsRecordSuccessFailureAndSkipNewestFirst(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let (map, store) = try Self.importedStore(dir, kind)
        let badBody = Self.response(maxID: "900", next: nil, items: #"{"id":1,"name":"changed"},{"id":2,"name":7}"#)
        let bad = dir.write("bad.json", badBody)
        #expect(runInProcess([bad, "--map", map, "--quiet", "--store", store.location]).status == 65)
        let skip = runInProcess([dir.path("first.json"), "--map", map, "--if-changed", "--store", store.location])
        #expect(skip.status == 0)
        #expect(try store.lines("SELECT id, outcome FROM graphimport_runs ORDER BY id") == ["1|succeeded", "2|failed", "3|skipped"])
        // The failed run's record survived its rollback and says why it failed.
        #expect(
            try store.value("SELECT error FROM graphimport_runs WHERE id = 2")
                == "record 1 (line 1, column \(column(of: #"{"id":2,"#, in: badBody))): Item.name: expected a string, found a number (7) (at $.statuses[1].name)"
        )
        #expect(try store.lines("SELECT count(*) FROM graphimport_runs WHERE finished_at IS NULL OR finished_at < started_at") == ["0"])
    }

    @Test(arguments: StoreKind.testable)
    func runsJSONListsEveryField(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let (map, store) = try Self.importedStore(dir, kind)
        let feed = dir.path("first.json")
        let result = runInProcess(["runs", "--json", "--map", map, "--store", store.location])
        #expect(result.status == 0)
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        try #require(runs.count == 1)
        let run = runs[0]
        #expect(
            Set(run.keys) == [
                "id", "started_at", "finished_at", "pid", "host", "input", "input_bytes", "input_sha256", "map", "map_sha256",
                "records", "skipped_records", "counts", "outcome", "error",
            ])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: feed)[.size] as? Int)
        #expect(run["id"] as? Int == 1)
        #expect(run["pid"] as? Int == Int(getpid()))
        #expect((run["host"] as? String)?.isEmpty == false)
        #expect(run["input"] as? String == feed)
        #expect(run["input_bytes"] as? Int == size)
        #expect(run["input_sha256"] as? String == (try sha256sum(feed)))
        #expect(run["map"] as? String == map)
        #expect(run["map_sha256"] as? String == (try sha256sum(map)))
        #expect(run["records"] as? Int == 3)
        #expect(run["skipped_records"] as? Int == 0)
        #expect(run["outcome"] as? String == "succeeded")
        #expect(run["error"] is NSNull)
        let counts = try #require(run["counts"] as? [String: [String: Int]])
        #expect(counts["Item"] == ["inserted": 3, "updated": 0, "unchanged": 0, "skipped": 0, "deleted": 0])
        #expect(counts["User"] == ["inserted": 1, "updated": 0, "unchanged": 0, "skipped": 0, "deleted": 0])
        let started = try #require(run["started_at"] as? String)
        let finished = try #require(run["finished_at"] as? String)
        #expect(started.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
        #expect(started <= finished)
    }

    @Test(arguments: StoreKind.testable)
    func runsTextIsATableNewestFirst(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", Self.map)
        let store = try StoreUnderTest(kind)
        let first = Self.response(maxID: "1", next: nil, items: Self.firstItems)
        #expect(runInProcess(["--map", map, "--quiet", "--store", store.location], stdinText: first).status == 0)
        let bad = Self.response(maxID: "2", next: nil, items: #"{"id":2,"name":7}"#)
        #expect(runInProcess(["--map", map, "--quiet", "--store", store.location], stdinText: bad).status == 65)
        #expect(runInProcess(["--map", map, "--quiet", "--if-changed", "--store", store.location], stdinText: first).status == 0)
        #expect(
            runInProcess(
                ["--map", map, "--quiet", "--store", store.location],
                stdinText: Self.response(maxID: "3", next: nil, items: #"{"id":2,"name":"B"},{"id":9,"name":"i"}"#)
            ).status
                == 0)
        let started = try store.lines("SELECT started_at FROM graphimport_runs ORDER BY id DESC")
        try #require(started.count == 4)
        let result = runInProcess(["runs", "--map", map, "--store", store.location])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                run  started                   outcome    records  input    changes
                4    \(started[0])  succeeded  2        <stdin>  +1 ~1 -0
                3    \(started[1])  skipped    3        <stdin>  +0 ~0 -0
                2    \(started[2])  failed     1        <stdin>  record 0 (line 1, column \(column(of: #"{"id":2,"#, in: bad))): Item.name: expected a string, found a number (7) (at $.statuses[0].name)
                1    \(started[3])  succeeded  3        <stdin>  +4 ~0 -0

                """)
        let last = runInProcess(["runs", "--last", "1", "--map", map, "--store", store.location])
        #expect(last.stdout.split(separator: "\n").count == 2)
    }

    // SQLite only: a store file that is not there (PostgresFaultTests name a server's missing database).
    @Test func runsOfAMissingStoreExits66() {
        let dir = TemporaryDirectory()
        let result = runInProcess(["runs", "--store", dir.path("none.sqlite")])
        #expect(result.status == 66)
        #expect(
            result.stderr == "graphimport: error: no store at \(dir.path("none.sqlite"))\nhint: import into it first, or name it with --store\n")
    }

    // MARK: --if-changed

    @Test(arguments: StoreKind.testable)
    func ifChangedSkipsTheSameFileAndWritesNothing(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let (map, store) = try Self.importedStore(dir, kind)
        let feed = dir.path("first.json")
        // A local edit that a real import of the same feed would undo.
        try store.execute("UPDATE items SET name = 'local' WHERE id = 1")
        let result = runInProcess([feed, "--map", map, "--if-changed", "--set-meta", "etag=new", "--store", store.location])
        #expect(result.status == 0)
        #expect(result.stderr == "graphimport: skipped: \(feed) is the same as the last successful run's input (--if-changed)\n")
        #expect(try store.lines("SELECT name FROM items WHERE id = 1") == ["local"])
        #expect(try store.lines("SELECT outcome FROM graphimport_runs ORDER BY id DESC LIMIT 1") == ["skipped"])
        #expect(runInProcess(["meta", "get", "etag", "--map", map, "--store", store.location]).status == 1)
        // Without the flag the same file is imported again.
        #expect(runInProcess([feed, "--map", map, "--quiet", "--store", store.location]).status == 0)
        #expect(try store.lines("SELECT name FROM items WHERE id = 1") == ["a"])
    }

    @Test(arguments: StoreKind.testable)
    func ifChangedSkipsTheSameStandardInput(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", Self.map)
        let store = try StoreUnderTest(kind)
        let body = Self.response(maxID: "1", next: "p2", items: Self.firstItems)
        #expect(runInProcess(["--map", map, "--quiet", "--if-changed", "--store", store.location], stdinText: body).status == 0)
        try store.execute("UPDATE items SET name = 'local' WHERE id = 1")
        let result = runInProcess(["--map", map, "--if-changed", "--json", "--set-meta", "etag=new", "--store", store.location], stdinText: body)
        #expect(result.status == 0)
        #expect(result.stderr == "graphimport: skipped: <stdin> is the same as the last successful run's input (--if-changed)\n")
        let summary = try EndToEnd.summary(result)
        #expect(summary["unchanged_input"] as? Bool == true)
        #expect(summary["changed"] as? Bool == false)
        #expect(try store.lines("SELECT name FROM items WHERE id = 1") == ["local"])
        #expect(try store.lines("SELECT outcome FROM graphimport_runs ORDER BY id") == ["succeeded", "skipped"])
        #expect(runInProcess(["meta", "get", "etag", "--map", map, "--store", store.location]).status == 1)
        // Another body is imported.
        let other = Self.response(maxID: "2", next: nil, items: #"{"id":1,"name":"a2"}"#)
        #expect(runInProcess(["--map", map, "--quiet", "--if-changed", "--store", store.location], stdinText: other).status == 0)
        #expect(try store.lines("SELECT name FROM items WHERE id = 1") == ["a2"])
    }

    @Test(arguments: StoreKind.testable)
    func ifChangedComparesWithTheLastSuccessfulRunNotTheLastRun(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let (map, store) = try Self.importedStore(dir, kind)
        let bad = dir.write("bad.json", Self.response(maxID: "900", next: nil, items: #"{"id":2,"name":7}"#))
        #expect(runInProcess([bad, "--map", map, "--quiet", "--store", store.location]).status == 65)
        #expect(runInProcess([dir.path("first.json"), "--map", map, "--quiet", "--if-changed", "--store", store.location]).status == 0)
        #expect(try store.lines("SELECT outcome FROM graphimport_runs ORDER BY id") == ["succeeded", "failed", "skipped"])
    }

    // MARK: Empty input

    @Test(arguments: StoreKind.testable, ["", "  \n\t\n"])
    func emptyInputExits65AndLeavesNoData(_ kind: StoreKind, _ body: String) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", Self.map)
        let store = try StoreUnderTest(kind)
        let result = runInProcess(["--map", map, "--store", store.location], stdinText: body)
        #expect(result.status == 65)
        #expect(
            result.stderr == """
                graphimport: error: <stdin>: the input is empty
                hint: an empty feed usually means the download failed; pass --allow-empty if it is expected

                """)
        #expect(try store.holdsNoData())
    }

    @Test(arguments: StoreKind.testable)
    func emptyFileIntoAnExistingStoreExits65AndIsRecordedAsFailed(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let (map, store) = try Self.importedStore(dir, kind)
        let empty = dir.write("empty.json", "")
        let result = runInProcess([empty, "--map", map, "--store", store.location])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("graphimport: error: \(empty): the input is empty\n"))
        #expect(try store.lines("SELECT outcome || ': ' || error FROM graphimport_runs WHERE id = 2") == ["failed: the input is empty"])
        #expect(runInProcess(["meta", "get", "cursor", "--map", map, "--store", store.location]).stdout == "p2\n")
    }

    @Test(arguments: StoreKind.testable)
    func allowEmptyAcceptsAnEmptyInputAndCreatesTheStore(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", Self.map)
        let store = try StoreUnderTest(kind)
        let result = runInProcess(["--map", map, "--allow-empty", "--json", "--quiet", "--store", store.location], stdinText: "")
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try EndToEnd.summary(result)
        #expect(summary["records"] as? Int == 0)
        #expect(summary["changed"] as? Bool == false)
        #expect(try store.lines("SELECT count(*) FROM items") == ["0"])
        #expect(try store.lines("SELECT outcome FROM graphimport_runs") == ["succeeded"])
    }

    @Test(arguments: StoreKind.testable)
    func emptyArrayIsNotAnEmptyInput(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", Self.map)
        let store = try StoreUnderTest(kind)
        #expect(runInProcess(["--map", map, "--quiet", "--store", store.location], stdinText: #"{"search_metadata":{"max_id":1},"statuses":[]}"#).status == 0)
        #expect(runInProcess(["--map", map, "--quiet", "--store", store.location], stdinText: "[]").status == 0)
    }

    // MARK: What changed

    @Test(arguments: StoreKind.testable)
    func everyObjectCarriesTheRunsThatInsertedAndLastChangedIt(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let (map, store) = try Self.importedStore(dir, kind)
        // Run 2: item 2 renamed, item 3 unchanged, item 4 new, user 10 renamed, user 11 new.
        let second = dir.write(
            "second.json",
            Self.response(
                maxID: "2", next: nil,
                items: #"{"id":2,"name":"B","owner":{"id":10,"handle":"anna"}},{"id":3,"name":"c"},{"id":4,"name":"d","owner":{"id":11,"handle":"bo"}}"#))
        #expect(runInProcess([second, "--map", map, "--quiet", "--store", store.location]).status == 0)
        // Run 3 fails and run 4 is skipped: neither is "the last run" for what changed.
        let bad = dir.write("bad.json", Self.response(maxID: "3", next: nil, items: #"{"id":1,"name":null}"#))
        #expect(runInProcess([bad, "--map", map, "--quiet", "--store", store.location]).status == 65)
        #expect(runInProcess([second, "--map", map, "--quiet", "--if-changed", "--store", store.location]).status == 0)
        #expect(try store.lines("SELECT id, inserted_run, changed_run FROM items ORDER BY id") == ["1|1|1", "2|1|2", "3|1|1", "4|2|2"])
        #expect(try store.lines("SELECT id, inserted_run, changed_run FROM users ORDER BY id") == ["10|1|2", "11|2|2"])
        let lastSucceeded = "(SELECT max(id) FROM graphimport_runs WHERE outcome = 'succeeded')"
        #expect(try store.lines("SELECT id, name FROM items WHERE changed_run = \(lastSucceeded) ORDER BY id") == ["2|B", "4|d"])
        #expect(try store.lines("SELECT id FROM items WHERE inserted_run = \(lastSucceeded)") == ["4"])
        #expect(try store.lines("SELECT id, handle FROM users WHERE changed_run = \(lastSucceeded) ORDER BY id") == ["10|anna", "11|bo"])
    }

    // MARK: A busy store

    // SQLite only: holds SQLite's write lock by hand (PostgresConcurrencyTests hold the server's advisory lock).
    @Test func busyStoreExits75NamingTheProcessThatHoldsIt() throws {
        let dir = TemporaryDirectory()
        let (map, store) = try Self.importedStore(dir, .sqlite)
        // A live process that is not this one: the test runner's parent. (A child `sleep` would
        // do too, but children of the test runner start with SIGTERM blocked and outlive terminate().)
        let livePID = getppid()
        let holder = try Database(path: store.location)
        try Self.insertRunningRun(holder, pid: livePID)
        try holder.beginImmediate()
        defer { holder.rollback() }
        let result = runInProcess([dir.path("first.json"), "--map", map, "--wait", "0.3", "--store", store.location])
        #expect(result.status == 75)
        #expect(
            result.stderr == """
                graphimport: error: the store \(store.location) is busy: another import holds its write lock \
                (graphimport pid \(livePID) on cronhost, run 2 started at 2024-05-01T03:00:00.000Z)
                hint: retry later, or wait longer with --wait SECONDS

                """)
        #expect(try holder.scalar("SELECT count(*) FROM graphimport_runs") == .integer(2))
    }

    // SQLite only: holds SQLite's write lock by hand (PostgresConcurrencyTests hold the server's advisory lock).
    @Test func busyMessageLeavesOutARunWhoseProcessIsGone() throws {
        let dir = TemporaryDirectory()
        let (map, store) = try Self.importedStore(dir, .sqlite)
        let holder = try Database(path: store.location)
        // Above Linux's largest possible pid (2^22), so no such process exists.
        try Self.insertRunningRun(holder, pid: 4_194_305)
        try holder.beginImmediate()
        defer { holder.rollback() }
        let result = runInProcess([dir.path("first.json"), "--map", map, "--wait", "0.2", "--store", store.location])
        #expect(result.status == 75)
        #expect(result.stderr.hasPrefix("graphimport: error: the store \(store.location) is busy: another import holds its write lock\nhint: "))
    }

    /// A real `graphimport` that reads its feed from a pipe holds the lock while it waits for
    /// input: a second import gives up after --wait and names it; a longer --wait outlasts it.
    // SQLite only: holds SQLite's write lock by hand (PostgresConcurrencyTests hold the server's advisory lock).
    @Test func busyStoreNamesTheRealImportThatHoldsIt() throws {
        let dir = TemporaryDirectory()
        let (map, store) = try Self.importedStore(dir, .sqlite)
        let holder = try BackgroundProcess(graphimportBinary.path, ["--map", map, "--store", store.location, "--quiet"], in: dir, pipeInput: true)
        // Its run row first, then the lock: the write of the row alone, committed before the
        // import takes the lock, would pass for the lock (seen once on a loaded machine).
        try #require(
            waitUntil { (try? store.value("SELECT count(*) FROM graphimport_runs WHERE id = 2")) == "1" && ConcurrencyTests.isWriteLocked(store.location) },
            "the holder never took the lock")
        let patient = try BackgroundProcess(
            graphimportBinary.path, [dir.path("first.json"), "--map", map, "--store", store.location, "--wait", "30", "--quiet"], in: dir)
        let impatient = runInProcess([dir.path("first.json"), "--map", map, "--wait", "0.3", "--store", store.location])
        #expect(impatient.status == 75)
        let running = try sqlite(store.location, "SELECT host, started_at FROM graphimport_runs WHERE id = 2 AND outcome = 'running'").split(separator: "|")
        try #require(running.count == 2)
        #expect(
            impatient.stderr == """
                graphimport: error: the store \(store.location) is busy: another import holds its write lock \
                (graphimport pid \(holder.process.processIdentifier) on \(running[0]), run 2 started at \(running[1]))
                hint: retry later, or wait longer with --wait SECONDS

                """)
        holder.closeInput(writing: Self.response(maxID: "7", next: nil, items: #"{"id":5,"name":"e"}"#))
        let held = holder.finish()
        #expect(held.status == 0, "\(held.stderr)")
        let waited = patient.finish()
        #expect(waited.status == 0, "\(waited.stderr)")
        #expect(try store.lines("SELECT outcome FROM graphimport_runs ORDER BY id") == ["succeeded", "succeeded", "succeeded"])
        #expect(try store.lines("SELECT id FROM items ORDER BY id") == ["1", "2", "3", "5"])
    }

    /// A run row as a real import leaves it while it works (committed before the import takes the lock).
    static func insertRunningRun(_ database: Database, pid: Int32) throws {
        try database.run(
            "INSERT INTO graphimport_runs (started_at, pid, host, input, map_name, map_sha256, outcome) "
                + "VALUES ('2024-05-01T03:00:00.000Z', ?, 'cronhost', 'big.json', 'feed.map', 'x', 'running')",
            [.integer(Int64(pid))])
    }
}

/// The 1-based column where `needle` starts in the one-line `text`.
func column(of needle: String, in text: String) -> Int {
    guard let range = text.range(of: needle) else { return -1 }
    return text.distance(from: text.startIndex, to: range.lowerBound) + 1
}
