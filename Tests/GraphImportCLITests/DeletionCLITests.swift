import Foundation
import GraphImportCLI
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// `delete missing` and the delete rules through the command line, on either store: the lines
/// and counts the summary shows, and a `deny` that stops the import with exit 65.
@Suite("Command line: delete missing and delete rules")
struct DeletionCLITests {
    static func map(rule: String) -> String {
        """
        records at accounts[*] as Account
        records at repos[*] as Repo
        entity Account
          key id
          delete missing
          id : Int
        entity Repo
          key id
          id : Int
          owner <- owner_id : Account? delete \(rule)

        """
    }

    static let first = #"{"accounts": [{"id": 1}, {"id": 2}, {"id": 3}], "repos": [{"id": 10, "owner_id": 2}]}"#
    static let second = #"{"accounts": [{"id": 1}], "repos": []}"#

    @Test(arguments: StoreKind.testable)
    func deletedObjectsAreCountedAndListedAndCascadesFollow(kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", Self.map(rule: "cascade"))
        let store = try StoreUnderTest(kind)
        #expect(runInProcess([dir.write("first.json", Self.first), "--map", map, "--store", store.location, "--quiet"]).status == 0)
        let result = runInProcess([dir.write("second.json", Self.second), "--map", map, "--store", store.location])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("  deleted Account: 2, 3\n  deleted Repo: 10\n"), "\(result.stderr)")
        let json = runInProcess([dir.write("third.json", Self.second), "--map", map, "--store", store.location, "--json"])
        #expect(json.stdout.contains(#""Account":{"inserted":0,"updated":0,"unchanged":1,"skipped":0,"deleted":0}"#), "\(json.stdout)")
        #expect(try store.lines("SELECT id FROM accounts ORDER BY id") == ["1"])
        #expect(try store.value("SELECT count(*) FROM repos") == "0")
        #expect(try store.deletedRows() == [#"2|Account|{"id":2}"#, #"2|Account|{"id":3}"#, #"2|Repo|{"id":10}"#])
    }

    @Test(arguments: StoreKind.testable)
    func aDeniedDeletionExits65AndLeavesTheStoreAsItWas(kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", Self.map(rule: "deny"))
        let store = try StoreUnderTest(kind)
        #expect(runInProcess([dir.write("first.json", Self.first), "--map", map, "--store", store.location, "--quiet"]).status == 0)
        let result = runInProcess([dir.write("second.json", Self.second), "--map", map, "--store", store.location])
        #expect(result.status == 65)
        #expect(
            result.stderr == """
                graphimport: error: cannot delete Account 2: Repo.owner denies it (1 Repo object links to it); nothing was deleted
                hint: keep Account 2 in the feed, or change the rule of Repo.owner to `delete nullify` or `delete cascade`

                """)
        #expect(try store.lines("SELECT id FROM accounts ORDER BY id") == ["1", "2", "3"])
        #expect(try store.deletedRows() == [])
        #expect(try store.value("SELECT outcome FROM graphimport_runs ORDER BY id DESC LIMIT 1") == "failed")
    }
}
