import GraphImportSchema
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// A new object without a required attribute's key, as the command line reports it.
@Suite("Command line: required attributes of new objects")
struct RequiredOnInsertCLITests {
    static let map = """
        records at $[*] as Tweet
        entity Tweet
          key id
          id : Int
          text : String
          author <- user : User
        entity User
          key id
          id : Int
          handle : String
          followers <- followers_count : Int
        """

    static let feed = """
        [{"id":1,"text":"a","user":{"id":7,"handle":"a","followers_count":3}},
         {"id":2,"text":"b","user":{"id":8,"handle":"b"}},
         {"id":3,"text":"c","user":{"id":7,"handle":"a"}}]
        """

    @Test(arguments: StoreKind.testable)
    func exits65NamingTheFileRecordAndPathAndImportsNothing(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", Self.map)
        let feed = dir.write("feed.json", Self.feed)
        let store = try StoreUnderTest(kind)
        let result = runInProcess([feed, "--map", map, "--store", store.location])
        #expect(result.status == 65)
        #expect(
            result.stderr.contains(
                "graphimport: error: \(feed):2:2: User.followers: is required, and this new User has no 'followers_count' "
                    + "at $[1].user.followers_count (record 1)"))
        #expect(result.stderr.contains("make the attribute optional (`: Int?`)"))
        #expect(try store.tableNames() == [])
    }

    @Test(arguments: StoreKind.testable)
    func skipInvalidSkipsTheRecordAndExits3(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", Self.map)
        let feed = dir.write("feed.json", Self.feed)
        let store = try StoreUnderTest(kind)
        let result = runInProcess([feed, "--map", map, "--store", store.location, "--skip-invalid"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("User.followers: is required, and this new User has no 'followers_count'"))
        #expect(try store.select("SELECT id FROM tweets ORDER BY id") == [["1"], ["3"]])
        #expect(try store.select("SELECT id, followers FROM users") == [["7", "3"]])
    }
}
