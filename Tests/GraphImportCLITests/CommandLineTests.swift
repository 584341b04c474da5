import Foundation
import GraphImportCLI
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

@Suite("Command line, in-process")
struct CommandLineTests {
    static let map = """
        entity Item
          key id
          id : Int
          name : String
        """

    @Test func helpGoesToStdoutWithExitZero() {
        let result = runInProcess(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: Upsert web-service JSON"))
        #expect(result.stdout.contains("EXIT STATUS:"))
        #expect(result.stderr.isEmpty)
    }

    @Test func versionIsPrinted() {
        #expect(runInProcess(["--version"]).stdout == "graphimport \(GraphImportCommand.version)\n")
    }

    @Test func unknownOptionIsAUsageErrorWithSuggestion() {
        let result = runInProcess(["feed.json", "--map", "x.map", "--jsno"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: Unknown option '--jsno'\nDid you mean '--json'?\nUsage: graphimport [<file>] --map <map>"))
        #expect(result.stderr.hasSuffix("See 'graphimport --help'.\n"))
    }

    /// A feed without a map is most often a first run: the hint drafts the map from the feed.
    @Test func missingMapOptionIsAUsageErrorThatPointsAtInit() {
        let result = runInProcess(["data/issues.json"])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                """
                Error: Missing expected argument '--map <map>'
                A feed is imported through a map. Draft one from the feed with: graphimport init data/issues.json -o data/issues.map
                then import with: graphimport data/issues.json --map data/issues.map
                Usage: graphimport [<file>] --map <map>
                """))
        let spaced = runInProcess(["my feed.v2.json"])
        #expect(spaced.stderr.contains("graphimport init 'my feed.v2.json' -o 'my feed.v2.map'\n"))
        let sample = runInProcess(["check", "--sample", "issues.json"])
        #expect(sample.status == 64)
        #expect(
            sample.stderr.contains("graphimport init issues.json -o issues.map\nthen check it with: graphimport check --map issues.map --sample issues.json\n"))
    }

    @Test(arguments: [true, false])
    func bareCommandPointsAtInit(stdinIsTerminal: Bool) {
        let result = stdinIsTerminal ? runInProcess([]) : runInProcess([], stdinText: "[]")
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                """
                Error: Missing expected argument '--map <map>'
                A feed is imported through a map. Draft one from a saved feed with: graphimport init FEED -o FEED.map
                Usage: graphimport [<file>] --map <map>
                """))
    }

    @Test func noInputOnATerminalIsAUsageError() {
        let result = runInProcess(["--map", "x.map"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: No input: give a FILE, or pipe JSON into graphimport\n"))
    }

    // SQLite only: what it tests is the default store, the file beside the map.
    @Test func importsFromStdinAndReportsNothingChangedTheSecondTime() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", Self.map)
        let first = runInProcess(["--map", map], stdinText: #"[{"id":1,"name":"a"},{"id":2,"name":"b"}]"#)
        #expect(first.status == 0)
        #expect(first.stderr.hasPrefix("graphimport: imported 2 records from <stdin> into \(dir.path("items.sqlite"))"))
        #expect(first.stderr.contains("  entity  inserted  updated  unchanged  skipped\n  Item           2        0          0        0\n"))
        let second = runInProcess(["-", "--map", map], stdinText: #"[{"id":1,"name":"a"},{"id":2,"name":"b"}]"#)
        #expect(second.status == 0)
        #expect(second.stderr.hasPrefix("graphimport: nothing changed: 2 records from <stdin> already in"))
    }

    @Test(arguments: StoreKind.testable)
    func jsonSummaryIsOneObjectOnStdout(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = dir.write("items.map", Self.map)
        let feed = dir.write("feed.json", #"[{"id":1,"name":"a"}]"#)
        let result = runInProcess([feed, "--map", map, "--store", store.location, "--json", "--quiet"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object?["records"] as? Int == 1)
        #expect(object?["changed"] as? Bool == true)
        let item = (object?["entities"] as? [String: Any])?["Item"] as? [String: Int]
        #expect(item == ["inserted": 1, "updated": 0, "unchanged": 0, "skipped": 0, "deleted": 0])
        #expect(try store.lines("SELECT id, name FROM items") == ["1|a"])
    }

    // SQLite only: a map error must leave no store file behind.
    @Test func mapErrorsAreListedWithPositionsAndExit78() {
        let dir = TemporaryDirectory()
        let map = dir.write("bad.map", "entity Item\n  key id\n  id : Innt\n")
        let feed = dir.write("feed.json", "[]")
        let result = runInProcess([feed, "--map", map])
        #expect(result.status == 78)
        #expect(result.stderr.hasPrefix("\(map):3:8: error: unknown type 'Innt'"))
        #expect(result.stderr.contains("help: did you mean 'Int'?"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("bad.sqlite")))
    }

    @Test func missingInputFileExits66() {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", Self.map)
        let result = runInProcess([dir.path("nope.json"), "--map", map])
        #expect(result.status == 66)
        #expect(result.stderr == "graphimport: error: cannot open the input '\(dir.path("nope.json"))': No such file or directory\n")
    }

    @Test(arguments: StoreKind.testable)
    func malformedJSONExits65WithFileLineAndColumn(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = dir.write("items.map", Self.map)
        let feed = dir.write("feed.json", "[{\"id\":1,\"name\":\"a\"},\n {\"id\":2,}]")
        let result = runInProcess([feed, "--map", map, "--store", store.location])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("graphimport: error: \(feed):2:10: "))
        #expect(try store.holdsNoData())
    }

    @Test(arguments: StoreKind.testable)
    func badRecordExits65NamingRecordAndKey(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = dir.write("items.map", Self.map)
        let feed = dir.write("feed.json", "[{\"id\":1,\"name\":\"a\"},\n {\"id\":2,\"name\":7}]")
        let result = runInProcess([feed, "--map", map, "--store", store.location])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("graphimport: error: \(feed):2:2: Item.name: expected a string, found a number (7) at $[1].name (record 1)\n"))
        #expect(try store.holdsNoData())
    }

    @Test(arguments: StoreKind.testable)
    func skipInvalidExits3AndKeepsTheGoodRecords(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = dir.write("items.map", Self.map)
        let feed = dir.write("feed.json", "[{\"id\":1,\"name\":\"a\"},{\"id\":2,\"name\":7}]")
        let result = runInProcess([feed, "--map", map, "--store", store.location, "--skip-invalid"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("graphimport: skipped: \(feed):1:22: Item.name:"))
        #expect(try store.lines("SELECT id FROM items") == ["1"])
    }

    @Test func checkAndSchemaCommands() {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", Self.map)
        let check = runInProcess(["check", "--map", map])
        #expect(check.status == 0)
        #expect(check.stdout == "\(map): ok: 1 entity (Item)\n")
        let schema = runInProcess(["schema", "--map", map])
        #expect(schema.status == 0)
        #expect(
            schema.stdout.hasPrefix(
                "CREATE TABLE \"items\" (\"pk\" INTEGER PRIMARY KEY, \"id\" INTEGER NOT NULL, \"name\" TEXT, \"inserted_run\" INTEGER, \"changed_run\" INTEGER, \"stub_run\" INTEGER, \"content_digest\" BLOB) STRICT;\n"
            ))
    }
}
