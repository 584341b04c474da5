import Foundation
import GraphImportTestSupport
import Testing

/// The commands that only read a store leave it as they found it: no -wal or -shm file beside it
/// (a read-only SQLite connection cannot remove them; graphimport reads through one that can).
@Suite("Command line: read-only commands leave no journal files")
struct ReadOnlyCommandTests {
    @Test(arguments: [
        ["export"], ["changes", "--since-run", "0"], ["runs"], ["runs", "--json"], ["meta", "get", "etag"], ["meta", "list"],
    ])
    func readingCommandLeavesNoJournalFiles(command: [String]) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", TruthfulOutputTests.map)
        // From its second import on, the store is in WAL mode (the first keeps the rollback journal).
        for _ in 1...2 {
            #expect(runInProcess(["--map", map, "--quiet", "--set-meta", "etag=x"], stdinText: #"{"items":[{"id":1,"name":"a"}]}"#).status == 0)
        }
        let store = dir.path("feed.sqlite")
        #expect(try sqlite(store, "PRAGMA journal_mode") == "wal")
        let files = [store + "-wal", store + "-shm"]
        #expect(files.filter { FileManager.default.fileExists(atPath: $0) } == [])
        let result = runInProcess(command + ["--map", map])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(files.filter { FileManager.default.fileExists(atPath: $0) } == [])
    }

    /// A store this user may not write is still read (read-only, as before).
    @Test func aStoreThatCannotBeWrittenIsStillRead() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", TruthfulOutputTests.map)
        #expect(runInProcess(["--map", map, "--quiet"], stdinText: #"{"items":[{"id":1,"name":"a"}]}"#).status == 0)
        let store = dir.path("feed.sqlite")
        chmod(store, 0o444)
        defer { chmod(store, 0o644) }
        let result = runInProcess(["export", "--map", map])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""name":"a""#))
    }
}
