import Foundation
import GraphImportSchema
import GraphImportStore
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// `Samples/mirror-feed.sh`, the cron recipe, end to end with the built binary: feeds served as
/// `file://` URLs, and over HTTP by a small local python3 server that speaks ETag and 304.
/// The tests that check a store's rows set STORE to a store of either kind; the rest use the
/// recipe's default (the SQLite file beside the map), where no store must be made, or hold its lock.
@Suite("Cron recipe: Samples/mirror-feed.sh")
struct CronRecipeTests {
    static let script = repoFile("Samples/mirror-feed.sh")

    static let pagesMap = """
        meta cursor <- next : String?
        records at items[*] as Item
        entity Item
          key id
          id : Int
          name : String
        """

    /// page1 -> page2 -> page3 (next: null), four items in all.
    static func writePages(_ dir: TemporaryDirectory) {
        dir.write("page1.json", #"{"next":"page2","items":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}"#)
        dir.write("page2.json", #"{"next":"page3","items":[{"id":3,"name":"c"}]}"#)
        dir.write("page3.json", #"{"next":null,"items":[{"id":4,"name":"d"}]}"#)
    }

    /// The environment of a paged run over `dir`'s page files, the store beside `pages.map`.
    static func pagedEnvironment(_ dir: TemporaryDirectory) -> [String: String] {
        dir.write("pages.map", pagesMap)
        return [
            "FEED_URL": "file://" + dir.path("page1.json"), "PAGE_URL": "file://" + dir.path("{cursor}.json"),
            "MAP": dir.path("pages.map"),
        ]
    }

    @Test func scriptIsExecutableStrictBash() throws {
        let text = try String(contentsOfFile: Self.script, encoding: .utf8)
        #expect(text.hasPrefix("#!/usr/bin/env bash\n"))
        #expect(text.contains("\nset -euo pipefail\n"))
        #expect(FileManager.default.isExecutableFile(atPath: Self.script))
        let check = try runProcess("/bin/bash", ["-n", Self.script])
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test(arguments: StoreKind.testable)
    func fileFeedIsImportedOnceThenReportedUnchanged(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let feed = try EndToEnd.generateTimeline(["--tweets", "300", "--seed", "3"], into: dir.path("timeline.json"))
        let store = try StoreUnderTest(kind)
        let environment = ["FEED_URL": "file://" + feed, "MAP": repoFile("Mappings/tweets.map"), "STORE": store.location]
        let first = try runScript(environment)
        #expect(first.status == 0, "\(first.stderr)")
        let imported = try summaries(first)
        try #require(imported.count == 1)
        #expect(imported[0]["records"] as? Int == 300)
        #expect(imported[0]["changed"] as? Bool == true)
        let ids = try EndToEnd.records(feed).compactMap { $0["id_str"] as? String }
        #expect(ids.count == 300)
        #expect(try store.value("SELECT count(*) FROM tweets WHERE id IN (\(ids.joined(separator: ",")))") == "300")

        let second = try runScript(environment)
        #expect(second.status == 0, "\(second.stderr)")
        let skipped = try summaries(second)
        try #require(skipped.count == 1)
        #expect(skipped[0]["unchanged_input"] as? Bool == true)
        #expect(skipped[0]["changed"] as? Bool == false)
        // Without --if-changed the body is imported again, and nothing changes.
        var again = environment
        again["IF_CHANGED"] = "0"
        let third = try runScript(again)
        #expect(third.status == 0, "\(third.stderr)")
        #expect(try summaries(third).first?["changed"] as? Bool == false)
        #expect(try store.lines("SELECT outcome FROM graphimport_runs ORDER BY id") == ["succeeded", "skipped", "succeeded"])
    }

    @Test(arguments: StoreKind.testable)
    func pagingFollowsTheCursorUntilTheResponseSaysNull(kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        Self.writePages(dir)
        let store = try StoreUnderTest(kind)
        var environment = Self.pagedEnvironment(dir)
        environment["STORE"] = store.location
        let result = try runScript(environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try summaries(result).map { $0["records"] as? Int } == [2, 1, 1])
        #expect(try store.select("SELECT id FROM items ORDER BY id").flatMap { $0 } == ["1", "2", "3", "4"])
        #expect(try store.select("SELECT key FROM graphimport_meta WHERE key = 'cursor'").flatMap { $0 } == [])
        #expect(try store.select("SELECT outcome FROM graphimport_runs ORDER BY id").flatMap { $0 } == ["succeeded", "succeeded", "succeeded"])
    }

    @Test(arguments: StoreKind.testable)
    func pageLimitStopsTheWalkAndTheNextRunResumesAtTheCursor(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        Self.writePages(dir)
        let store = try StoreUnderTest(kind)
        var environment = Self.pagedEnvironment(dir)
        environment["MAX_PAGES"] = "2"
        environment["STORE"] = store.location
        let first = try runScript(environment)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr == "mirror-feed: stopped after 2 pages; the next run resumes at cursor page3\n")
        #expect(try store.lines("SELECT id FROM items ORDER BY id") == ["1", "2", "3"])
        #expect(try store.lines("SELECT value FROM graphimport_meta WHERE key = 'cursor'") == ["page3"])
        let second = try runScript(environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr == "mirror-feed: resuming at cursor page3\n")
        #expect(try summaries(second).count == 1)
        #expect(try store.lines("SELECT id FROM items ORDER BY id") == ["1", "2", "3", "4"])
        #expect(try store.value("SELECT count(*) FROM graphimport_meta WHERE key = 'cursor'") == "0")
    }

    @Test(arguments: StoreKind.testable)
    func failedPageStopsTheWalkAndTheNextRunRetriesIt(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        Self.writePages(dir)
        dir.write("page2.json", #"{"next":"page3","items":[{"id":3,"name":3}]}"#)
        let store = try StoreUnderTest(kind)
        var environment = Self.pagedEnvironment(dir)
        environment["STORE"] = store.location
        let failed = try runScript(environment)
        #expect(failed.status == 65)
        #expect(failed.stderr.contains("graphimport: error: <stdin>:1:"), "\(failed.stderr)")
        #expect(failed.stderr.hasSuffix("mirror-feed: import of file://\(dir.path("page2.json")) failed (graphimport exit 65)\n"))
        #expect(try store.lines("SELECT id FROM items ORDER BY id") == ["1", "2"])
        #expect(try store.lines("SELECT value FROM graphimport_meta WHERE key = 'cursor'") == ["page2"])
        dir.write("page2.json", #"{"next":"page3","items":[{"id":3,"name":"c"}]}"#)
        let retried = try runScript(environment)
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(retried.stderr == "mirror-feed: resuming at cursor page2\n")
        #expect(try store.lines("SELECT id FROM items ORDER BY id") == ["1", "2", "3", "4"])
    }

    @Test func missingFeedFileExitsWithCurlsStatusAndCreatesNoStore() throws {
        let dir = TemporaryDirectory()
        dir.write("pages.map", Self.pagesMap)
        let result = try runScript(["FEED_URL": "file://" + dir.path("gone.json"), "MAP": dir.path("pages.map")])
        #expect(result.status == 37)  // curl: "Couldn't read a file:// file"
        #expect(result.stderr.hasSuffix("mirror-feed: cannot fetch file://\(dir.path("gone.json")) (curl exit 37); nothing was imported\n"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("pages.sqlite")))
    }

    @Test func emptyBodyExits65UnlessAllowed() throws {
        let dir = TemporaryDirectory()
        dir.write("pages.map", Self.pagesMap)
        let empty = dir.write("empty.json", "")
        var environment = ["FEED_URL": "file://" + empty, "MAP": dir.path("pages.map")]
        let refused = try runScript(environment)
        #expect(refused.status == 65)
        #expect(refused.stderr.hasPrefix("graphimport: error: <stdin>: the input is empty\n"), "\(refused.stderr)")
        environment["ALLOW_EMPTY"] = "1"
        let allowed = try runScript(environment)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try summaries(allowed).first?["records"] as? Int == 0)
    }

    @Test func busyStoreExits75AfterTheWait() throws {
        let dir = TemporaryDirectory()
        Self.writePages(dir)
        var environment = Self.pagedEnvironment(dir)
        environment["WAIT"] = "0.3"
        let holder = try Database(path: dir.path("pages.sqlite"))
        try holder.beginImmediate()
        defer { holder.rollback() }
        let result = try runScript(environment)
        #expect(result.status == 75)
        #expect(result.stderr.contains("is busy: another import holds its write lock"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("failed (graphimport exit 75)\n"))
    }

    // MARK: Over HTTP

    @Test(arguments: StoreKind.testable)
    func etagIsSentAndA304IsNothingToDo(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        Self.writePages(dir)
        try FileManager.default.copyItem(atPath: dir.path("page3.json"), toPath: dir.path("feed.json"))
        let server = try LocalFeedServer(root: dir)
        defer { server.stop() }
        dir.write("pages.map", Self.pagesMap)
        let environment = ["FEED_URL": server.url("/feed"), "MAP": dir.path("pages.map"), "STORE": store.location]
        let first = try runScript(environment)
        #expect(first.status == 0, "\(first.stderr)")
        let etag = try server.etag(of: "feed.json")
        #expect(try store.lines("SELECT value FROM graphimport_meta WHERE key = 'etag'") == [etag])
        let second = try runScript(environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.isEmpty)
        #expect(second.stderr == "mirror-feed: \(server.url("/feed")) not modified (304); nothing to do\n")
        #expect(server.requests() == ["/feed -", "/feed \(etag)"])
        #expect(try store.value("SELECT count(*) FROM graphimport_runs") == "1")
    }

    @Test(arguments: StoreKind.testable)
    func etagIsNotKeptWhenTheImportFails(kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        dir.write("feed.json", #"{"next":null,"items":[{"id":1,"name":"a"}]}"#)
        let server = try LocalFeedServer(root: dir)
        defer { server.stop() }
        dir.write("pages.map", Self.pagesMap)
        let store = try StoreUnderTest(kind)
        let environment = ["FEED_URL": server.url("/feed"), "MAP": dir.path("pages.map"), "STORE": store.location]
        let etag = "SELECT value FROM graphimport_meta WHERE key = 'etag'"
        #expect(try runScript(environment).status == 0)
        let firstETag = try server.etag(of: "feed.json")
        // The feed changes into one that does not fit the map: its new ETag must not be kept.
        dir.write("feed.json", #"{"next":null,"items":[{"id":1,"name":"b"},{"id":2,"name":2}]}"#)
        let failed = try runScript(environment)
        #expect(failed.status == 65)
        #expect(try store.select(etag).flatMap { $0 } == [firstETag])
        #expect(try store.select("SELECT name FROM items").flatMap { $0 } == ["a"])
        // So the next run asks with the old ETag, gets the fixed body and keeps its ETag.
        dir.write("feed.json", #"{"next":null,"items":[{"id":1,"name":"b"},{"id":2,"name":"c"}]}"#)
        let fixed = try runScript(environment)
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(server.requests() == ["/feed -", "/feed \(firstETag)", "/feed \(firstETag)"])
        #expect(try store.select(etag).flatMap { $0 } == [try server.etag(of: "feed.json")])
        #expect(try store.select("SELECT name FROM items ORDER BY id").flatMap { $0 } == ["b", "c"])
    }

    @Test(arguments: StoreKind.testable)
    func cursorParamCarriesThePercentEncodedCursor(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        dir.write("feed.json", #"{"next":"t3_a b+c","items":[{"id":1,"name":"a"}]}"#)
        dir.write("t3_a b+c.json", #"{"next":null,"items":[{"id":2,"name":"b"}]}"#)
        let server = try LocalFeedServer(root: dir)
        defer { server.stop() }
        dir.write("pages.map", Self.pagesMap)
        let result = try runScript(["FEED_URL": server.url("/feed?limit=2"), "CURSOR_PARAM": "after", "MAP": dir.path("pages.map"), "STORE": store.location])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests() == ["/feed?limit=2 -", "/feed?limit=2&after=t3_a%20b%2Bc -"])
        #expect(try store.lines("SELECT id FROM items ORDER BY id") == ["1", "2"])
    }

    @Test func httpErrorExitsWithCurlsStatus() throws {
        let dir = TemporaryDirectory()
        let server = try LocalFeedServer(root: dir)
        defer { server.stop() }
        dir.write("pages.map", Self.pagesMap)
        let result = try runScript(["FEED_URL": server.url("/missing"), "MAP": dir.path("pages.map")])
        #expect(result.status == 22)  // curl -f: HTTP 404
        #expect(result.stderr.contains("The requested URL returned error: 404"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("pages.sqlite")))
    }
}

/// Runs Samples/mirror-feed.sh with `environment` over this process's, graphimport being the built
/// binary and proxies unset (the HTTP tests talk to 127.0.0.1).
func runScript(_ environment: [String: String]) throws -> CommandResult {
    var merged = ProcessInfo.processInfo.environment.filter { !$0.key.lowercased().hasSuffix("_proxy") }
    merged["GRAPHIMPORT"] = graphimportBinary.path
    merged.merge(environment) { $1 }
    return try runProcess(CronRecipeTests.script, [], environment: merged)
}

/// The `--json` summaries a script printed, one per line.
func summaries(_ result: CommandResult) throws -> [[String: Any]] {
    try result.stdout.split(separator: "\n").map { line in
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
    }
}
