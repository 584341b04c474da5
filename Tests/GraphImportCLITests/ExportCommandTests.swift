import Foundation
import GraphImportCLI
import GraphImportTestSupport
import Testing

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
