import Foundation
import GraphImportCLI
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// Members whose values are arrays through the command line: what an import, a map that reads a
/// member an array lacks, and an entity that reads no array exit with and say.
@Suite("Command line: members whose values are arrays")
struct ArrayMembersCLITests {
    static let feed = #"{"releases": {"2.18.4": [{"filename": "a.tar.gz"}, {"filename": "a.whl"}], "0.1": []}}"#
    static func map(_ member: String) -> String {
        "records at releases{*} as Release\nentity Release\n  key version\n  version <- $key : String\n\(member)\n"
            + "entity File\n  key filename\n  filename : String\n"
    }

    @Test(arguments: StoreKind.testable)
    func importsAnEntityPerMemberWithTheArraysElements(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = dir.write("pypi.map", Self.map("  files <- $ : [File]"))
        let feed = dir.write("pypi.json", Self.feed)
        let result = runInProcess([feed, "--map", map, "--store", store.location, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try store.lines("SELECT version FROM releases ORDER BY version") == ["0.1", "2.18.4"])
        let export = runInProcess(["export", "--map", map, "--store", store.location])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout == #"{"releases":{"2.18.4":[{"filename":"a.tar.gz"},{"filename":"a.whl"}],"0.1":[]}}"# + "\n")
    }

    // No store: the map is refused before one is opened.
    @Test func aMemberAnArrayLacksExits78AtItsLine() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("pypi.map", Self.map("  files <- $ : [File]\n  size : Int"))
        let feed = dir.write("pypi.json", Self.feed)
        let result = runInProcess([feed, "--map", map])
        #expect(result.status == 78)
        #expect(
            result.stderr.hasPrefix(
                "\(map):6:3: error: Release.size reads 'size', but Release objects are arrays (`files <- $ : [File]` reads their elements), which have no members\n 6 |   size : Int\n   |   ^\n"
            ), "\(result.stderr)")
    }

    @Test(arguments: StoreKind.testable)
    func anArrayForAnEntityThatReadsNoneExits65WithTheWayToReadIt(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = dir.write("pypi.map", Self.map("  files <- files : [File]"))
        let feed = dir.write("pypi.json", Self.feed)
        let result = runInProcess([feed, "--map", map, "--store", store.location])
        #expect(result.status == 65)
        #expect(
            result.stderr == """
                graphimport: error: \(feed):1:25: expected an object for Release, found an array at $.releases["2.18.4"] (record 0)
                hint: an array is an object of Release when a to-many of Release reads its elements through `$` (`items <- $ : [Item]`), with its other values from `$key`, `$index`, `@parent` or `@root`

                """)
        #expect(try store.holdsNoData())
    }
}
