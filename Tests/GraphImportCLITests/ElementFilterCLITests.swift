import Foundation
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// `where` and fallback paths through the built binary, on both stores: a heterogeneous feed routed by records
/// lines, typed references picked out of one array, a renamed field read from either name.
@Suite("Element filters and fallback paths, end to end")
struct ElementFilterCLITests {
    static let map = """
        records at data[*] where type = "tweet" as Tweet
        records at data[*] where type = "user" as User
        entity Tweet
          key id
          id : Int | int
          text <- full_text, text : String
          author <- author_id : User
          inReplyTo <- referenced_tweets where type = "replied_to" : Tweet? each id inverse replies
          quotes <- referenced_tweets where type = "quoted" : Tweet? each id inverse quotedBy
        entity User table users
          key id
          id : Int | int
          login <- username, screen_name : String

        """

    static let feed = """
        {"data": [
          {"type": "user", "id": "7", "username": "ada"},
          {"type": "user", "id": "8", "screen_name": "bob"},
          {"type": "tweet", "id": "1", "text": "first", "author_id": "7"},
          {"type": "tweet", "id": "2", "full_text": "second, long", "text": "second", "author_id": "8",
           "referenced_tweets": [{"type": "quoted", "id": "1"}, {"type": "replied_to", "id": "3"}]},
          {"type": "list", "id": "9"}
        ]}
        """

    @Test(arguments: StoreKind.testable)
    func importsTheRecordsEachLineTakesAndTheTypedReferences(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", Self.map)
        let feed = dir.write("feed.json", Self.feed)
        let store = try StoreUnderTest(kind)
        let check = try runBinary(["check", "--map", map, "--sample", feed, "--strict"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stderr == "check: no errors for 5 records of \(feed)\n")
        let result = try runBinary([feed, "--map", map, "--store", store.location])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "graphimport: 1 record was ignored by the map's `-> ignore` cases, `records … where` conditions, or as `null` or `\"\"` where a records path ends at a key"
            ))
        #expect(try store.lines("SELECT id, login FROM users ORDER BY id") == ["7|ada", "8|bob"])
        #expect(
            try store.lines(
                "SELECT t.id, t.text, q.id, r.id FROM tweets t LEFT JOIN tweets q ON q.pk = t.quotes_pk LEFT JOIN tweets r ON r.pk = t.in_reply_to_pk"
                    + " ORDER BY t.id") == ["1|first|NULL|NULL", "2|second, long|1|3", "3|NULL|NULL|NULL"])
    }
}
