import Foundation
import GraphImportCLI
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// The command's options and usage errors over a SQLite store; what a store of either kind gives
/// is in the tests that take a `StoreKind` (the reading seam is one for both).
@Suite("Export: the command line")
struct ExportCommandTests {
    static let map = """
        records at items[*] as Item
        meta total <- total : Int
        entity Item
          key id
          id : Int
          name : String
          tags : [Tag] inverse items
        entity Tag
          key label
          label : String | lowercase
        """

    /// A map and a store with two items, in a temporary directory.
    static func fixture() -> (TemporaryDirectory, map: String) {
        let directory = TemporaryDirectory()
        let map = directory.write("items.map", Self.map)
        let feed = directory.write("feed.json", #"{"total": 2, "items": [{"id": 1, "name": "a", "tags": ["X"]}, {"id": 2, "name": "b\n", "tags": []}]}"#)
        let imported = runInProcess([feed, "--map", map, "--quiet"])
        #expect(imported.status == 0, "\(imported.stderr)")
        return (directory, map)
    }

    @Test func writesTheDocumentTheMapReadsOnStandardOutput() {
        let (directory, map) = Self.fixture()
        _ = directory
        let result = runInProcess(["export", "--map", map])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == #"{"total":2,"items":[{"id":1,"name":"a","tags":[{"label":"x"}]},{"id":2,"name":"b\n","tags":[]}]}"# + "\n")
        #expect(result.stderr == "")
    }

    @Test func writesAnEntitysObjectsAsJSONLines() {
        let (directory, map) = Self.fixture()
        _ = directory
        let result = runInProcess(["export", "--map", map, "Item", "--where", #"name = "a""#, "--format", "jsonl", "--depth", "0"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == #"{"id":1,"name":"a","tags":["x"]}"# + "\n")
    }

    @Test func anUnknownEntityIsAUsageErrorThatSuggestsTheClosest() {
        let (directory, map) = Self.fixture()
        _ = directory
        let result = runInProcess(["export", "--map", map, "Itm"])
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("Error: Unknown entity 'Itm'\nDid you mean 'Item'?\nUsage: graphimport export --map <map>"))
        let far = runInProcess(["export", "--map", map, "Widget"])
        #expect(far.status == 64)
        #expect(far.stderr.hasPrefix("Error: Unknown entity 'Widget'\nThe map has Item, Tag.\n"))
    }

    @Test func anUnknownAttributeInTheConditionIsAUsageError() {
        let (directory, map) = Self.fixture()
        _ = directory
        let result = runInProcess(["export", "--map", map, "Item", "--where", "nam = 1"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: Item has no attribute or to-one relationship 'nam'\nDid you mean 'name'?\n"))
    }

    @Test func aConditionThatDoesNotParseIsAUsageErrorNamingItsColumn() {
        let (directory, map) = Self.fixture()
        _ = directory
        let result = runInProcess(["export", "--map", map, "Item", "--where", #"name = "a" or name = "b""#])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: In the condition, expected 'and' or the end of the condition at column 12, found 'or name = \"b\"'\n"))
        #expect(result.stdout.isEmpty)
    }

    /// A condition of 5000 comparisons made SQLite refuse the statement (an expression tree over
    /// 1,000 deep): exit 74 with a 105 KB message quoting the SQL. It is the command line's
    /// fault: 64, one line, no SQL.
    @Test func aConditionWithTooManyComparisonsIsAUsageErrorWithoutSQL() {
        let (directory, map) = Self.fixture()
        _ = directory
        let condition = (0..<5_000).map { "id != \($0)" }.joined(separator: " and ")
        let result = runInProcess(["export", "--map", map, "Item", "--where", condition])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "Error: The condition has more than 200 comparisons\nSelect objects by --key, or export the entity and filter its output (jq).\n"))
        #expect(!result.stderr.contains("SELECT"))
        #expect(result.stderr.utf8.count < 1_000)
        let atTheLimit = (0..<200).map { "id != \($0 + 10)" }.joined(separator: " and ")
        let allowed = runInProcess(["export", "--map", map, "Item", "--where", atTheLimit, "--format", "jsonl", "--depth", "0"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.split(separator: "\n").count == 2)
    }

    /// A store made by another map (or an older version of this one), or another program's
    /// database, said "no such column/table" with 74; it is the store that does not fit: 73,
    /// with a hint, before any query. On both stores.
    @Test(arguments: StoreKind.testable)
    func aStoreTheMapDidNotMakeIsAStoreError(kind: StoreKind) throws {
        let directory = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = directory.write("items.map", Self.map)
        let feed = directory.write("feed.json", #"{"total": 1, "items": [{"id": 1, "name": "a", "tags": ["X"]}]}"#)
        #expect(runInProcess([feed, "--map", map, "--store", store.location, "--quiet"]).status == 0)
        let newer = directory.write("newer.map", Self.map.replacing("  name : String\n", with: "  name : String\n  title : String?\n"))
        let older = runInProcess(["export", "--map", newer, "--store", store.location])
        #expect(older.status == 73, "\(older.stderr)")
        #expect(
            older.stderr.hasSuffix(
                "the store was not made by this map: it has no column 'items.title'\n"
                    + "hint: export with the map that made the store, or import with this map first (an import adds what the map adds)\n"))
        #expect(!older.stderr.contains("SELECT"))
        let other = directory.write("other.map", "entity Widget\n  key id\n  id : Int\n")
        let otherMap = runInProcess(["export", "--map", other, "--store", store.location])
        #expect(otherMap.status == 73)
        #expect(otherMap.stderr.contains("the store was not made by this map: it has no table 'widgets'\n"))
        #expect(runInProcess(["export", "--map", map, "--store", store.location]).status == 0)

        let foreign = try StoreUnderTest(kind)
        try foreign.execute("CREATE TABLE contacts (name TEXT)")
        let program = runInProcess(["export", "--map", map, "--store", foreign.location])
        #expect(program.status == 73)
        #expect(program.stderr.contains("it is not a graphimport store: it holds no graphimport_schema table\n"))
    }

    @Test func aMissingStoreExits66() {
        let directory = TemporaryDirectory()
        let map = directory.write("items.map", Self.map)
        let result = runInProcess(["export", "--map", map])
        #expect(result.status == 66)
        #expect(result.stderr == "graphimport: error: no store at \(directory.path("items.sqlite"))\nhint: import into it first, or name it with --store\n")
    }

    @Test func jsonLinesNeedAnEntity() {
        let (directory, map) = Self.fixture()
        _ = directory
        let result = runInProcess(["export", "--map", map, "--format", "jsonl"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: '--format jsonl' needs an entity\n"))
    }

    @Test func helpDescribesExport() {
        let result = runInProcess(["export", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: Write the store back as JSON, in the shape the map reads.\n"))
        #expect(result.stdout.contains("--where <condition>"))
    }

    @Test func whatTheMapCannotWriteBackIsNamedOnStandardError() {
        let directory = TemporaryDirectory()
        let map = directory.write(
            "seen.map",
            """
            entity Item
              key id
              id : Int
              seenAt : Date always now
            """)
        let feed = directory.write("feed.json", #"[{"id": 1}]"#)
        #expect(runInProcess([feed, "--map", map, "--quiet"]).status == 0)
        let result = runInProcess(["export", "--map", map])
        #expect(result.status == 0)
        #expect(result.stdout == #"[{"id":1}]"# + "\n")
        #expect(
            result.stderr == "graphimport: warning: Item.seenAt: `always now` is set by the import that reads it (it may not import again to the same value)\n")
        #expect(runInProcess(["export", "--map", map, "--quiet"]).stderr == "")
    }
}
