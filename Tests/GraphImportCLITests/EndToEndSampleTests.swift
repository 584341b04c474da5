import Foundation
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// Runs the built `graphimport` binary on the sample timeline and checks the rows, on both stores.
/// Every expected value was read from the JSON with python3, not from graphimport.
@Suite("EndToEnd samples")
struct EndToEndSampleTests {
    static let map = "Mappings/tweets.map"
    static let tables = ["tweets", "users", "hashtags", "tweets_hashtags", "tweets_mentions"]
    /// Samples/tweets.json: 200 records, 223 tweets with content plus 3 reply stubs; one tweet
    /// names `#Swift` twice (case differs), so its join table has one row fewer than the feed lists.
    static let timelineCounts = ["tweets": 226, "users": 33, "hashtags": 25, "tweets_hashtags": 256, "tweets_mentions": 216]

    @Test(arguments: StoreKind.testable)
    func sampleTimelineImportsExactRows(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let result = try EndToEnd.importFeed(repoFile("Samples/tweets.json"), map: Self.map, store: store.location)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try EndToEnd.counts(store, Self.tables) == Self.timelineCounts)
        EndToEnd.expectRows(
            store,
            [
                // A snowflake id above 2^53 found by another column, so a rounded id would show.
                ("SELECT id FROM tweets WHERE sent_at = '2015-12-09T19:59:32.110Z'", "674679792402036672"),
                ("SELECT created_at FROM tweets WHERE id = 674679792402036672", "2015-12-09T19:59:32.000Z"),
                // Compared byte for byte (`expectRows`), so a normalized or re-encoded text would show.
                (
                    "SELECT text FROM tweets WHERE id = 674679792402036672",
                    "@pablo42_v today 𝕏 \u{2018}single\u{2019} 👍🏽 tonight just \u{C5}ngstr\u{F6}m 🇫🇷"
                ),
                (
                    "SELECT text FROM tweets WHERE id = 674679619798078180",
                    "@jose42_0 Z\u{FC}rich C:\\Users\\me tab\there 🎉 new &lt;3 🙈 see #macOS"
                ),
                // A retweet and its original, followed both ways.
                (
                    "SELECT o.id FROM tweets r JOIN tweets o ON o.pk = r.retweet_of_pk WHERE r.id = 674701860254585719",
                    "674679188495179930"
                ),
                (
                    "SELECT r.id FROM tweets r JOIN tweets o ON o.pk = r.retweet_of_pk WHERE o.id = 674679188495179930 ORDER BY r.id",
                    "674679776644951071\n674701860254585719"
                ),
                ("SELECT count(*) FROM tweets JOIN users ON users.pk = tweets.author_pk WHERE users.handle = 'jose42_0'", "49"),
                // Reply targets outside the feed are stubs holding only their key.
                ("SELECT count(*) FROM tweets WHERE text IS NULL", "3"),
                // "JSON", "Json" and "json" are one hashtag; its tweets in chronological order.
                (
                    "SELECT tweets.id FROM hashtags JOIN tweets_hashtags ON tweets_hashtags.hashtags_pk = hashtags.pk"
                        + " JOIN tweets ON tweets.pk = tweets_hashtags.tweets_pk WHERE hashtags.text = 'json' ORDER BY tweets.id",
                    "674682136310600639\n674690963303160358\n674698047519581954\n674699760855023359\n674703564068993733\n674721782108934109"
                ),
                ("SELECT count(*) FROM hashtags WHERE text IN ('Café', 'café')", "1"),
                (
                    "SELECT hashtags.text FROM tweets_hashtags JOIN hashtags ON hashtags.pk = hashtags_pk"
                        + " JOIN tweets ON tweets.pk = tweets_pk WHERE tweets.id = 674683504918811607 ORDER BY position",
                    "swift\ncafé\ngraphql"
                ),
            ])
    }

    @Test(arguments: StoreKind.testable)
    func sampleTimelineReimportChangesNothing(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let arguments = [repoFile("Samples/tweets.json"), "--map", repoFile(Self.map), "--store", store.location]
        #expect(try runBinary(arguments).status == 0)
        try EndToEnd.expectReimportChangesNothing(arguments)
        #expect(try EndToEnd.counts(store, Self.tables) == Self.timelineCounts)
    }

    @Test(arguments: StoreKind.testable)
    func sampleTimelineFromStdinGivesTheSameRows(_ kind: StoreKind) throws {
        let fromFile = try StoreUnderTest(kind)
        let fromStdin = try StoreUnderTest(kind)
        let feed = repoFile("Samples/tweets.json")
        #expect(try EndToEnd.importFeed(feed, map: Self.map, store: fromFile.location).status == 0)
        let piped = try runBinary(["--map", repoFile(Self.map), "--store", fromStdin.location], stdinFile: feed)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stderr.hasPrefix("graphimport: imported 200 records from <stdin>"))
        #expect(try EndToEnd.dump(fromStdin, Self.tables) == EndToEnd.dump(fromFile, Self.tables))
    }

    @Test(arguments: StoreKind.testable)
    func jsonLinesFromStdinImportsAndReimportsUnchanged(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let feed = repoFile("Samples/tweets.jsonl")
        let arguments = ["-", "--map", repoFile(Self.map), "--store", store.location]
        let result = try runBinary(arguments + ["--json"], stdinFile: feed)
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try EndToEnd.summary(result)
        #expect(summary["format"] as? String == "jsonl")
        #expect(summary["records"] as? Int == 50)
        // 50 lines: 55 tweets with content plus 1 reply stub; one tweet repeats a hashtag.
        let expected = ["tweets": 56, "users": 8, "hashtags": 22, "tweets_hashtags": 64, "tweets_mentions": 54]
        #expect(try EndToEnd.counts(store, Self.tables) == expected)
        try EndToEnd.expectReimportChangesNothing(arguments, stdinFile: feed)
    }

    @Test(arguments: StoreKind.testable)
    func revisedTimelineUpdatesChangedTweetsAndUsers(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let revised = try EndToEnd.generateTimeline(["--tweets", "200", "--revision", "1"], into: dir.path("r1.json"))
        #expect(try EndToEnd.importFeed(repoFile("Samples/tweets.json"), map: Self.map, store: store.location).status == 0)
        let result = try EndToEnd.importFeed(revised, map: Self.map, store: store.location, ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try EndToEnd.summary(result)
        #expect(summary["changed"] as? Bool == true)
        // Revision 1 changes a mapped field of 18 tweets and 3 authors (python3 diff of the two feeds).
        let entities = try #require(summary["entities"] as? [String: [String: Int]])
        #expect(entities["Tweet"]?["updated"] == 18)
        #expect(entities["User"]?["updated"] == 3)
        #expect(entities.values.allSatisfy { $0["inserted"] == 0 })
        #expect(try EndToEnd.counts(store, Self.tables) == Self.timelineCounts)

        let before = try EndToEnd.records(repoFile("Samples/tweets.json"))
        let after = try EndToEnd.records(revised)
        let index = try #require(before.indices.first { before[$0]["text"] as? String != after[$0]["text"] as? String })
        let id = try #require(after[index]["id_str"] as? String)
        let text = try #require(after[index]["text"] as? String)
        #expect(try store.value("SELECT text FROM tweets WHERE id = \(id)").map { Array($0.utf8) } == Array(text.utf8), "tweet \(id): \(text)")
    }

    @Test(arguments: StoreKind.testable)
    func badValueInThirdRecordExits65AndLeavesStoreUnchanged(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        #expect(try EndToEnd.importFeed(repoFile("Samples/tweets.json"), map: Self.map, store: store.location).status == 0)
        let before = try EndToEnd.dump(store, Self.tables)
        let feed = try EndToEnd.feedWithBadThirdRecord(dir)
        let result = try EndToEnd.importFeed(feed, map: Self.map, store: store.location)
        #expect(result.status == 65)
        #expect(result.stderr.contains("at $[2].created_at (record 2)"), "\(result.stderr)")
        #expect(result.stderr.contains("'yesterday'"))
        #expect(try EndToEnd.counts(store, Self.tables) == Self.timelineCounts)
        #expect(try EndToEnd.dump(store, Self.tables) == before)
    }

    @Test(arguments: StoreKind.testable)
    func badValueIntoNewStoreLeavesNoDataOnlyTheFailedRun(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let result = try EndToEnd.importFeed(try EndToEnd.feedWithBadThirdRecord(dir), map: Self.map, store: store.location)
        #expect(result.status == 65)
        #expect(try store.holdsNoData())
    }

    // SQLite only: a map error must leave no store file behind (a server's database is not created by an import).
    @Test func mapErrorExits78AndCreatesNoStore() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("bad.map", "entity Tweet\n  key id\n  id : Innt\n")
        let withStore = try runBinary([repoFile("Samples/tweets.json"), "--map", map, "--store", dir.path("named.sqlite")])
        #expect(withStore.status == 78)
        #expect(withStore.stderr.contains("\(map):3:8: error: unknown type 'Innt'"), "\(withStore.stderr)")
        let besideMap = try runBinary([repoFile("Samples/tweets.json"), "--map", map])
        #expect(besideMap.status == 78)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["bad.map"])
    }

    @Test(arguments: StoreKind.testable)
    func dryRunLeavesStoreUnchanged(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let revised = try EndToEnd.generateTimeline(["--tweets", "200", "--revision", "1"], into: dir.path("r1.json"))
        #expect(try EndToEnd.importFeed(repoFile("Samples/tweets.json"), map: Self.map, store: store.location).status == 0)
        let before = try EndToEnd.dump(store, Self.tables)
        let result = try EndToEnd.importFeed(revised, map: Self.map, store: store.location, ["--dry-run", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try EndToEnd.summary(result)
        #expect(summary["dry_run"] as? Bool == true)
        #expect(try EndToEnd.dump(store, Self.tables) == before)
    }
}

/// What the end-to-end suites share: running the binary, reading its summary, reading the store.
enum EndToEnd {
    /// Runs `graphimport FEED --map MAP --store STORE OPTIONS`; `map` is relative to the repository.
    static func importFeed(_ feed: String, map: String, store: String, _ options: [String] = []) throws -> CommandResult {
        try runBinary([feed, "--map", repoFile(map), "--store", store] + options)
    }

    /// The `--json` summary printed on stdout.
    static func summary(_ result: CommandResult) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(object as? [String: Any], "stdout is not a JSON object: \(result.stdout)")
    }

    /// Runs `arguments` again with `--json` and expects exit 0, "nothing changed" and no writes.
    static func expectReimportChangesNothing(_ arguments: [String], stdinFile: String? = nil) throws {
        let again = try runBinary(arguments + ["--json"], stdinFile: stdinFile)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("nothing changed"), "\(again.stderr)")
        let summary = try summary(again)
        #expect(summary["changed"] as? Bool == false)
        let entities = try #require(summary["entities"] as? [String: [String: Int]])
        #expect(!entities.isEmpty)
        for (entity, counts) in entities {
            #expect(counts["inserted"] == 0 && counts["updated"] == 0, "\(entity): \(counts)")
        }
    }

    /// The row count of each table.
    static func counts(_ store: String, _ tables: [String]) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in tables { counts[table] = Int(try sqlite(store, "SELECT count(*) FROM \"\(table)\"")) ?? -1 }
        return counts
    }

    /// Every row of the tables, in key order: equal dumps mean equal stores.
    static func dump(_ store: String, _ tables: [String]) throws -> String {
        try tables.map { "\($0):\n" + (try sqlite(store, "SELECT * FROM \"\($0)\" ORDER BY 1, 2")) }.joined(separator: "\n")
    }

    /// Expects each query to print exactly the expected rows (lines joined by "\n").
    static func expectRows(_ store: String, _ rows: [(sql: String, expected: String)], sourceLocation: SourceLocation = #_sourceLocation) {
        for row in rows {
            let actual = (try? sqlite(store, row.sql)) ?? "<sqlite3 failed>"
            #expect(actual.utf8.elementsEqual(row.expected.utf8), "\(row.sql)\n  gave: \(actual)\n  want: \(row.expected)", sourceLocation: sourceLocation)
        }
    }

    /// The row count of each table of `store`, of either kind.
    static func counts(_ store: StoreUnderTest, _ tables: [String]) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in tables { counts[table] = Int(try store.value("SELECT count(*) FROM \"\(table)\"") ?? "") ?? -1 }
        return counts
    }

    /// Every row of the tables of `store`, in key order: equal dumps mean equal stores of one kind.
    static func dump(_ store: StoreUnderTest, _ tables: [String]) throws -> String {
        try tables.map { table in
            "\(table):\n" + (try store.select("SELECT * FROM \"\(table)\" ORDER BY 1, 2").map { $0.joined(separator: "|") }.joined(separator: "\n"))
        }.joined(separator: "\n")
    }

    /// Expects each query (written for both stores) to give exactly the expected rows: values
    /// joined by "|", rows by "\n", NULL as `NULL`, bytes as `\x` and lower-case hex.
    static func expectRows(_ store: StoreUnderTest, _ rows: [(sql: String, expected: String)], sourceLocation: SourceLocation = #_sourceLocation) {
        for row in rows {
            let actual = (try? store.select(row.sql).map { $0.joined(separator: "|") }.joined(separator: "\n")) ?? "<query failed>"
            #expect(actual.utf8.elementsEqual(row.expected.utf8), "\(row.sql)\n  gave: \(actual)\n  want: \(row.expected)", sourceLocation: sourceLocation)
        }
    }

    /// The upper-case hex of the UTF-8 bytes, as SQLite's `hex()` prints text.
    static func hex(_ text: String) -> String { text.utf8.map { String(format: "%02X", $0) }.joined() }

    /// Writes the output of `Samples/generate_timeline.py ARGUMENTS` to `path` and returns it.
    static func generateTimeline(_ arguments: [String], into path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repoFile("Samples/generate_timeline.py")] + arguments + ["--out", path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "generate_timeline.py failed")
        return path
    }

    /// The top-level records of a JSON array file.
    static func records(_ path: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        return try #require(object as? [[String: Any]])
    }

    /// The first three tweets of Samples/tweets.json (one a line there), the first with a new
    /// text (an update, if anything were written) and the third with `created_at` "yesterday".
    static func feedWithBadThirdRecord(_ dir: TemporaryDirectory) throws -> String {
        let lines = try String(contentsOfFile: repoFile("Samples/tweets.json"), encoding: .utf8).split(separator: "\n").map(String.init)
        try #require(lines.count > 4 && lines[0] == "[")
        var first = lines[1]
        let text = try #require(first.range(of: #""text":""#))
        first.replaceSubrange(text, with: #""text":"changed "#)
        var third = String(lines[3].dropLast())  // its trailing comma
        let date = try #require(third.range(of: #"^\{"created_at":"[^"]*""#, options: .regularExpression))
        third.replaceSubrange(date, with: #"{"created_at":"yesterday""#)
        return dir.write("bad.json", "[\n\(first)\n\(lines[2])\n\(third)\n]\n")
    }
}
