import Foundation
import GraphImportCLI
import GraphImportSchema
import GraphImportStore
import GraphImportTestSupport
import Testing

/// SQLite only: a busy file, a missing directory, a symbolic link (PostgresConcurrencyTests and
/// PostgresFaultTests give the server's).
@Suite("Command line, store failures")
struct StoreFailureTests {
    @Test func busyStoreExits75AfterTheWait() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", CommandLineTests.map)
        let feed = dir.write("feed.json", #"[{"id":1,"name":"a"}]"#)
        #expect(runInProcess([feed, "--map", map, "--quiet"]).status == 0)
        let holder = try Database(path: dir.path("items.sqlite"))
        try holder.beginImmediate()
        defer { holder.rollback() }
        let result = runInProcess([feed, "--map", map, "--wait", "0.2"])
        #expect(result.status == 75)
        #expect(
            result.stderr == """
                graphimport: error: the store \(dir.path("items.sqlite")) is busy: another import holds its write lock
                hint: retry later, or wait longer with --wait SECONDS

                """)
    }

    @Test func storeInAMissingDirectoryExits73() {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", CommandLineTests.map)
        let feed = dir.write("feed.json", #"[{"id":1,"name":"a"}]"#)
        let result = runInProcess([feed, "--map", map, "--store", dir.path("no/such/dir/s.sqlite")])
        #expect(result.status == 73)
        #expect(result.stderr.hasPrefix("graphimport: error: cannot open the store \(dir.path("no/such/dir/s.sqlite")):"))
    }

    @Test func symlinkedStorePathIsRefusedAndCreatesNothing() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", CommandLineTests.map)
        let feed = dir.write("feed.json", #"[{"id":1,"name":"a"}]"#)
        try FileManager.default.createSymbolicLink(atPath: dir.path("link.sqlite"), withDestinationPath: dir.path("target.sqlite"))
        let result = runInProcess([feed, "--map", map, "--store", dir.path("link.sqlite")])
        #expect(result.status == 73)
        #expect(!FileManager.default.fileExists(atPath: dir.path("target.sqlite")))
    }

    @Test func invalidWaitIsAUsageError() {
        let result = runInProcess(["f.json", "--map", "m.map", "--wait", "soon"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: The value 'soon' is invalid for '--wait'\nGive a number of seconds"))
    }
}
