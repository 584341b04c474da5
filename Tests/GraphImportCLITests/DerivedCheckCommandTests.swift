import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// A derived attribute's `check` refusing a record, seen from the command line.
@Suite("Command line: a derived value its check refuses")
struct DerivedCheckCommandTests {
    static let map = """
        entity Movie
          key id
          id : Int
          title : String
          short : String derived "{title}" check length(1, 5)
        """
    static let feed = "[{\"id\":1,\"title\":\"Heat\"},\n {\"id\":2,\"title\":\"Heat and Dust\"},\n {\"id\":3,\"title\":\"Up\"}]"

    @Test(arguments: StoreKind.testable)
    func skipInvalidSkipsTheRecordWithExit3(kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let result = runInProcess(
            [dir.write("feed.json", Self.feed), "--map", dir.write("movies.map", Self.map), "--store", store.location, "--skip-invalid"])
        #expect(result.status == 3)
        let line = "skipped: \(dir.path("feed.json")):2:2: Movie.short: must be 1 to 5 characters long (value: 'Heat and Dust') at $[1] (record 1)\n"
        #expect(result.stderr.contains(line))
        #expect(!result.stderr.contains("hooks"))
        #expect(try store.select("SELECT id FROM movies ORDER BY id") == [["1"], ["3"]])
    }

    @Test(arguments: StoreKind.testable)
    func withoutSkipInvalidItIsARecordErrorWithExit65(kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let result = runInProcess([dir.write("feed.json", Self.feed), "--map", dir.write("movies.map", Self.map), "--store", store.location])
        #expect(result.status == 65)
        #expect(result.stderr.contains("record 1"))
        #expect(result.stderr.contains("Movie.short: must be 1 to 5 characters long"))
        #expect(result.stderr.contains("the map derives this value"))
        #expect(!result.stderr.contains("hooks"))
        #expect(try store.tableNames() == [])
    }
}
