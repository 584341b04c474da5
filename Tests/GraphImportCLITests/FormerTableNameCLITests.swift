import Foundation
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// A store made when an entity without a `table` line got its singular table, met by the command
/// line: the readers stop (73) and say to import once, the import renames and says so, and a
/// store holding both names is refused (73) as other store problems are; on both stores.
@Suite("Command line, stores made with singular table names")
struct FormerTableNameCLITests {
    static let map = """
        records at $[*] as Post
        entity Post
          key id
          id : Int
          title : String
          author <- user : User?
        entity User
          key id
          id : Int
        """

    /// The map as an older graphimport named its tables, and a store of `kind` it made.
    static func olderStore(_ dir: TemporaryDirectory, _ kind: StoreKind) throws -> (map: String, feed: String, store: StoreUnderTest) {
        let older = dir.write(
            "older.map",
            map.replacingOccurrences(of: "entity Post\n", with: "entity Post table post\n")
                .replacingOccurrences(of: "entity User\n", with: "entity User table user\n"))
        let feed = dir.write("posts.json", #"[{"id":1,"title":"a","user":7},{"id":2,"title":"b"}]"#)
        let store = try StoreUnderTest(kind)
        let result = runInProcess([feed, "--map", older, "--store", store.location, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        return (dir.write("posts.map", map), feed, store)
    }

    @Test(arguments: StoreKind.testable)
    func readersSayToImportFirstAndTheImportRenamesAndSaysSo(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let (map, feed, store) = try Self.olderStore(dir, kind)
        for command in [["export"], ["changes", "--since-run", "0"]] {
            let result = runInProcess(command + ["--map", map, "--store", store.location])
            #expect(result.status == 73, "\(command): \(result.stderr)")
            #expect(
                result.stderr.contains(
                    "the store keeps entity Post's objects in table post, the name an older graphimport gave it, and this map reads table posts"),
                "\(result.stderr)")
            #expect(result.stderr.contains("import into the store with this map once"), "\(result.stderr)")
        }
        let imported = runInProcess([feed, "--map", map, "--store", store.location])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("  schema: rename table post to posts (an older graphimport's name)\n"), "\(imported.stderr)")
        #expect(imported.stderr.contains("  schema: rename table user to users (an older graphimport's name)\n"), "\(imported.stderr)")
        #expect(try store.lines("SELECT p.title, u.id FROM posts p JOIN users u ON u.pk = p.author_pk") == ["a|7"])
        let export = runInProcess(["export", "--map", map, "--store", store.location])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains(#""title":"a""#))
    }

    @Test(arguments: StoreKind.testable)
    func aStoreWithBothNamesExits73AndKeepsItsTables(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let (map, feed, store) = try Self.olderStore(dir, kind)
        try store.execute("CREATE TABLE posts (pk BIGINT PRIMARY KEY)")
        let result = runInProcess([feed, "--map", map, "--store", store.location])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix("graphimport: error: the store \(store.location) holds tables this map cannot take as they are; nothing was imported\n"))
        #expect(
            result.stderr.contains(
                "error: the store has table post, as an older graphimport named table posts, and table posts as well; which one holds the objects is unknown"),
            "\(result.stderr)")
        #expect(result.stderr.contains("help: keep the one that does"), "\(result.stderr)")
        #expect(try store.tableNames() == ["post", "posts", "user"])
    }
}
