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

    @Test func skipInvalidSkipsTheRecordWithExit3() throws {
        let dir = TemporaryDirectory()
        let result = runInProcess([dir.write("feed.json", Self.feed), "--map", dir.write("movies.map", Self.map), "--skip-invalid"])
        #expect(result.status == 3)
        let line = "skipped: \(dir.path("feed.json")):2:2: Movie.short: must be 1 to 5 characters long (value: 'Heat and Dust') at $[1] (record 1)\n"
        #expect(result.stderr.contains(line))
        #expect(!result.stderr.contains("hooks"))
        #expect(try sqlite(dir.path("movies.sqlite"), "SELECT group_concat(id) FROM movie") == "1,3")
    }

    @Test func withoutSkipInvalidItIsARecordErrorWithExit65() throws {
        let dir = TemporaryDirectory()
        let result = runInProcess([dir.write("feed.json", Self.feed), "--map", dir.write("movies.map", Self.map)])
        #expect(result.status == 65)
        #expect(result.stderr.contains("Movie.short: must be 1 to 5 characters long"))
        #expect(result.stderr.contains("the map derives this value"))
        #expect(!result.stderr.contains("hooks"))
    }
}
