import Foundation
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// libpq is opened on the first use of a PostgreSQL store: a run into a SQLite file never loads
/// it, nor the libraries it brings.
@Suite("libpq is loaded only for a PostgreSQL store")
struct LibPQLoadingTests {
    /// The shared libraries the dynamic loader opened while `graphimport arguments…` ran, as its
    /// `LD_DEBUG=files` trace names them.
    private func librariesLoaded(_ arguments: [String], in directory: TemporaryDirectory) throws -> (status: Int32, trace: String) {
        let process = Process()
        process.executableURL = graphimportBinary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LD_DEBUG"] = "files"
        environment["LD_DEBUG_OUTPUT"] = directory.path("ld-trace")
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        // The loader writes `ld-trace.<pid>`.
        let trace = try String(contentsOfFile: directory.path("ld-trace.\(process.processIdentifier)"), encoding: .utf8)
        return (process.terminationStatus, trace)
    }

    @Test func anImportIntoASQLiteFileDoesNotLoadLibpq() throws {
        let directory = TemporaryDirectory()
        let run = try librariesLoaded(
            [repoFile("Samples/tweets.json"), "--map", repoFile("Mappings/tweets.map"), "--store", directory.path("s.sqlite"), "-q"], in: directory)
        #expect(run.status == 0)
        #expect(run.trace.contains("libsqlite3.so"), "the trace names the libraries loaded")
        #expect(!run.trace.contains("libpq.so"))
    }

    @Test(needsPostgres)
    func anImportIntoPostgreSQLLoadsLibpq() throws {
        let directory = TemporaryDirectory()
        let database = try PostgresTestCluster.shared().makeDatabase()
        let run = try librariesLoaded(
            [repoFile("Samples/tweets.json"), "--map", repoFile("Mappings/tweets.map"), "--store", database.connectionString, "-q"], in: directory)
        #expect(run.status == 0)
        #expect(run.trace.contains("libpq.so.5"))
    }
}
