import Foundation
import GraphImportCLI
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// From cron nobody reads stderr on a good day: the exit status, the headline and `--json` say
/// what really happened.
@Suite("Command line: truthful summaries and failures")
struct TruthfulOutputTests {
    static let map = """
        records at items[*] as Item
        entity Item
          key id
          id : Int
          name : String
        """

    private func object(_ text: String) throws -> [String: Any] {
        let lines = text.split(separator: "\n")
        try #require(lines.count == 1, "expected one line on stdout, got \(text.debugDescription)")
        return try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
    }

    @Test(arguments: StoreKind.testable)
    func renamedEnvelopeExits65NamingWhatTheInputHolds(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = dir.write("feed.map", Self.map)
        let feed = dir.write("feed.json", #"{"data":[{"id":1,"name":"a"}],"meta":{}}"#)
        let result = runInProcess([feed, "--map", map, "--store", store.location])
        #expect(result.status == 65)
        #expect(
            result.stderr == """
                graphimport: error: \(feed):1:1: the records path `items[*]` matches nothing: the top level is an object with keys data, meta
                hint: did you mean `data[*]`? fix the `records at` line; if the feed leaves `items[*]` out when it has no records, add `missing empty` to that line

                """)
        #expect(try store.lines("SELECT outcome FROM graphimport_runs") == ["failed"])
    }

    /// A null line (or element) does not turn a records path that fits nothing into an empty
    /// feed: JSON Lines is as loud as an array, and `check --strict` fails the sample too. One
    /// store: the feed is refused before any object is written.
    @Test(arguments: ["{\"x\":1}\nnull\n{\"x\":2}\n", "[{\"x\":1},null,{\"x\":2}]", "{\"user\":{\"id\":1}}\nnull\n{\"user\":{\"id\":2}}\n"])
    func aNullAmongRecordsThatMissIsNoEmptyFeed(_ feedText: String) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("users.map", "records at $[*].user as User\nentity User\n  key id\n  id : Int\n")
        let feed = dir.write("feed.txt", feedText)
        let result = runInProcess([feed, "--map", map])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("graphimport: error: \(feed):1:"))
        #expect(result.stderr.contains("the records path `$[*].user` matches nothing: "))
        let check = runInProcess(["check", "--map", map, "--sample", feed, "--strict"])
        #expect(check.status == 65, "\(check.stderr)")
        #expect(check.stderr.contains("error: records path '$[*].user' matches nothing in the sample: "))
    }

    /// `check --strict` does not pass a map that reads no record of its sample: nothing of the
    /// map was checked. Without `--strict` it is a warning.
    @Test(arguments: ["{\"data\":[]}", "{\"data\":[]}\n{\"data\":null}\nnull\n"])
    func checkStrictFailsASampleTheMapReadsNoRecordOf(_ sampleText: String) {
        let dir = TemporaryDirectory()
        let map = dir.write("users.map", "records at data[*] as User\nentity User table users\n  key id\n  id : Int\n")
        let sample = dir.write("sample.txt", sampleText)
        let strict = runInProcess(["check", "--map", map, "--sample", sample, "--strict"])
        #expect(strict.status == 65)
        #expect(
            strict.stderr == """
                \(map):1:1: error: the map reads no record of the sample: it is an empty feed (only empty arrays or null where the records are)
                 1 | records at data[*] as User
                   | ^
                help: check the map against a sample that holds records
                check: 1 error for 0 records of \(sample); the sample does not fit the map

                """)
        let lenient = runInProcess(["check", "--map", map, "--sample", sample])
        #expect(lenient.status == 0)
        #expect(lenient.stderr.hasSuffix("check: 1 warning for 0 records of \(sample)\n"))
    }

    /// `--if-changed` reads and hashes standard input while importing: an input that matches
    /// nothing fails before it is compared, and the run is recorded as failed with its error.
    @Test(arguments: StoreKind.testable)
    func ifChangedRunThatMatchesNothingFailsAndIsRecorded(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = dir.write("feed.map", Self.map)
        let good = #"{"items":[{"id":1,"name":"a"}]}"#
        #expect(runInProcess(["--map", map, "--quiet", "--if-changed", "--store", store.location], stdinText: good).status == 0)
        let renamed = runInProcess(
            ["--map", map, "--quiet", "--if-changed", "--set-meta", "etag=x", "--store", store.location], stdinText: #"{"data":[{"id":1,"name":"a"}]}"#)
        #expect(renamed.status == 65)
        #expect(try store.lines("SELECT outcome FROM graphimport_runs ORDER BY id") == ["succeeded", "failed"])
        #expect(try store.value("SELECT error FROM graphimport_runs WHERE id = 2")?.contains("matches nothing") == true)
        #expect(runInProcess(["meta", "get", "etag", "--map", map, "--store", store.location]).status == 1)
    }

    @Test(arguments: StoreKind.testable)
    func failedRunPrintsOneJSONObjectWithOutcomeErrorPositionAndRun(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = dir.write("feed.map", Self.map)
        let feed = dir.write("feed.json", "{\"items\":[{\"id\":1,\"name\":\"a\"},\n {\"id\":\"x\",\"name\":\"b\"}]}")
        let result = runInProcess([feed, "--map", map, "--json", "--store", store.location])
        #expect(result.status == 65)
        let failure = try object(result.stdout)
        #expect(failure["outcome"] as? String == "failed")
        #expect(failure["exit_status"] as? Int == 65)
        #expect((failure["error"] as? String)?.contains("Item.id") == true)
        #expect(failure["hint"] is String)
        #expect(failure["run"] as? Int == 1)
        let position = try #require(failure["position"] as? [String: Any])
        #expect(position["file"] as? String == feed)
        #expect(position["line"] as? Int == 2)
        #expect(position["record"] as? Int == 1)
        #expect(position["path"] as? String == "$.items[1].id")
        #expect(result.stderr.hasPrefix("graphimport: error: "))
    }

    // One store: both failures come before any object is written (one before the store is opened).
    @Test func jsonFailureForAnInputWithoutJSONAndForAMapError() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", Self.map)
        let syntax = runInProcess(["--map", map, "--json"], stdinText: #"{"items": [}"#)
        #expect(syntax.status == 65)
        let failure = try object(syntax.stdout)
        #expect(failure["outcome"] as? String == "failed")
        #expect((failure["position"] as? [String: Any])?["column"] as? Int == 12)
        let badMap = dir.write("bad.map", "entity Item\n  key id\n  id : Innt\n")
        let mapError = runInProcess(["--map", badMap, "--json"], stdinText: "[]")
        #expect(mapError.status == 78)
        let mapFailure = try object(mapError.stdout)
        #expect(mapFailure["error"] as? String == "\(badMap):3:8: unknown type 'Innt'")
        #expect(mapFailure["exit_status"] as? Int == 78)
        #expect(mapFailure["run"] is NSNull)
    }

    @Test(arguments: StoreKind.testable)
    func successObjectCarriesOutcomeAndExitStatus(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = dir.write("feed.map", Self.map)
        let body = #"{"items":[{"id":1,"name":"a"},{"id":2,"name":5}]}"#
        let dry = try object(
            runInProcess(["--map", map, "--json", "--quiet", "--dry-run", "--skip-invalid", "--store", store.location], stdinText: body).stdout)
        #expect(dry["outcome"] as? String == "dry_run")
        let result = runInProcess(["--map", map, "--json", "--quiet", "--skip-invalid", "--store", store.location], stdinText: body)
        #expect(result.status == 3)
        let summary = try object(result.stdout)
        #expect(summary["outcome"] as? String == "imported")
        #expect(summary["exit_status"] as? Int == 3)
        #expect(summary["records"] as? Int == 2)
        #expect(summary["imported_records"] as? Int == 1)
        #expect(summary["skipped_records"] as? Int == 1)
    }

    @Test(arguments: StoreKind.testable)
    func metaValuesKeepTheirJSONTypes(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = dir.write(
            "feed.map",
            """
            meta total <- total : Int
            meta ratio <- ratio : Double
            meta more <- more : Bool
            meta cursor <- cursor : String?
            meta raw <- raw : JSON
            meta tag <- tag : String
            """ + "\n" + Self.map)
        let body = #"{"total":12,"ratio":0.5,"more":true,"cursor":null,"raw":{"a":[1]},"tag":"12","items":[]}"#
        let result = runInProcess(["--map", map, "--json", "--quiet", "--store", store.location], stdinText: body)
        #expect(result.status == 0)
        #expect(result.stdout.contains(#""meta":{"total":12,"ratio":0.5,"more":true,"cursor":null,"raw":{"a":[1]},"tag":"12"}"#))
    }

    @Test(arguments: StoreKind.testable)
    func headlineCountsOnlyTheRecordsThatWentIn(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = dir.write("feed.map", Self.map)
        let body = #"{"items":[{"id":1,"name":"a"},{"id":2,"name":5},{"id":3,"name":6}]}"#
        let result = runInProcess(["--map", map, "--skip-invalid", "--store", store.location], stdinText: body)
        #expect(result.status == 3)
        #expect(result.stderr.contains("graphimport: imported 1 of 3 records from <stdin> into \(store.location) (2 skipped, "))
    }

    @Test(arguments: StoreKind.testable)
    func headlineSaysNothingWasImportedWhenEveryRecordWasSkipped(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = dir.write("feed.map", Self.map)
        let body = #"{"items":[{"id":1,"name":1},{"id":2,"name":2},{"id":3,"name":3},{"id":4,"name":4}]}"#
        _ = runInProcess(["--map", map, "--quiet", "--store", store.location], stdinText: #"{"items":[{"id":1,"name":"a"}]}"#)
        let result = runInProcess(["--map", map, "--skip-invalid", "--store", store.location], stdinText: body)
        #expect(result.status == 3)
        #expect(result.stderr.contains("graphimport: nothing imported: 0 of 4 records from <stdin> went into \(store.location) (4 skipped, "))
        #expect(!result.stderr.contains("already in"))
    }

    @Test(arguments: StoreKind.testable)
    func emptyFeedSaysSo(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = dir.write("feed.map", Self.map)
        let result = runInProcess(["--map", map, "--store", store.location], stdinText: #"{"items":[]}"#)
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("graphimport: no records: <stdin> holds an empty feed; no object of \(store.location) was changed ("))
    }
}

/// JSON Lines under `--skip-invalid`: a malformed line is skipped like a record that does not fit
/// the map, as mongoimport and sqlite-utils users expect; a malformed JSON document still aborts.
@Suite("Command line: malformed JSON Lines under --skip-invalid")
struct MalformedLinesTests {
    static let map = """
        entity Item
          key id
          delete missing
          id : Int
        """

    @Test(arguments: StoreKind.testable)
    func malformedLinesAreSkippedReportedAndTheRestImported(kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", Self.map)
        let store = try StoreUnderTest(kind)
        let first = dir.write("first.jsonl", "{\"id\":1}\n{\"id\":2}\n{\"id\":9}\n")
        #expect(runInProcess([first, "--map", map, "--store", store.location, "--quiet"]).status == 0)
        let feed = dir.write("feed.jsonl", "{\"id\":1}\n{\"id\":2,,}\n{\"id\":3\n{\"id\":4}\n")
        let result = runInProcess([feed, "--map", map, "--store", store.location, "--skip-invalid", "--json"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("graphimport: skipped: \(feed):2:9: expected a string key, found ',' at $ (record 1)\n"))
        #expect(result.stderr.contains("graphimport: skipped: \(feed):4:1: expected ',' or '}' after an object member, found '{' at $ (record 2)\n"))
        #expect(result.stderr.contains("delete missing was not applied"))
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(summary["skipped_records"] as? Int == 2)
        #expect(summary["imported_records"] as? Int == 2)
        #expect((summary["entities"] as? [String: [String: Int]])?["Item"]?["skipped"] == 2)
        // 2 and 9 stay: deletions wait for a run that skipped nothing.
        #expect(try store.lines("SELECT id FROM items ORDER BY id") == ["1", "2", "4", "9"])
    }

    // One store: the reader stops these before any object is written.
    @Test func withoutSkipInvalidAMalformedLineStopsTheImport() {
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", Self.map)
        let feed = dir.write("feed.jsonl", "{\"id\":1}\n{\"id\":2,,}\n")
        let result = runInProcess([feed, "--map", map])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("graphimport: error: \(feed):2:9: expected a string key, found ','\n"))
    }

    // One store: the reader stops it before any object is written.
    @Test func malformedJSONArrayStillAborts() {
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", Self.map)
        let feed = dir.write("feed.json", "[{\"id\":1},\n{\"id\":2,,}]\n")
        #expect(runInProcess([feed, "--map", map, "--skip-invalid"]).status == 65)
    }
}
