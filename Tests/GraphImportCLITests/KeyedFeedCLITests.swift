import Foundation
import GraphImportCLI
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// Feeds keyed by id, bare ids and lone objects through the command line: what `[*]` on them
/// says, and what `{*}`, `$` and `[*?]` import.
@Suite("Command line: keyed objects, bare values, lone objects")
struct KeyedFeedCLITests {
    static let feed = #"{"users": {"alice": {"name": "Alice"}, "bob": {"name": "Bob"}}}"#

    // One store: the records path is refused as the feed is read, before any object reaches the store.
    @Test func anyIndexOnObjectsKeyedByIdExits65SuggestingTheKeyedStep() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("users.map", "records at users[*] as User\nentity User\n  key name\n  name : String\n")
        let feed = dir.write("users.json", Self.feed)
        let result = runInProcess([feed, "--map", map])
        #expect(result.status == 65)
        #expect(
            result.stderr == """
                graphimport: error: \(feed):1:11: the records path `users[*]` matches nothing: `users` is an object with keys alice, bob, not an array
                hint: did you mean `users{*}`? fix the `records at` line of the map

                """)
    }

    @Test(arguments: StoreKind.testable)
    func keyedStepImportsEveryMemberWithItsName(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = dir.write("users.map", "records at users{*} as User\nentity User\n  key id\n  id <- $key : String\n  name : String\n")
        let feed = dir.write("users.json", Self.feed)
        #expect(runInProcess([feed, "--map", map, "--store", store.location, "--quiet"]).status == 0)
        #expect(try store.lines("SELECT id, name FROM users ORDER BY pk") == ["alice|Alice", "bob|Bob"])
    }

    @Test(arguments: StoreKind.testable)
    func anArrayOfIdsImportsThroughTheWholeRecordPath(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = dir.write("ids.map", "records at $[*] as Item\nentity Item\n  key id\n  id <- $ : String\n")
        let feed = dir.write("ids.json", #"["1699", "1455"]"#)
        #expect(runInProcess([feed, "--map", map, "--store", store.location, "--quiet"]).status == 0)
        #expect(try store.lines("SELECT id FROM items ORDER BY pk") == ["1699", "1455"])
    }
}
