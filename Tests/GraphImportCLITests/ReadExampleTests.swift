import Foundation
import Testing

/// One store: the program's own, as the README shows it; the read API on both stores is GraphImportTests'.
@Suite("Samples/ReadExample")
struct ReadExampleTests {
    /// The README's read API excerpt comes from this program; it must keep running and print what the README shows.
    @Test func exampleRunsAndPrintsWhatTheReadmeShows() throws {
        var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        var binary = directory.appendingPathComponent("read-example")
        // The test bundle may be a directory (xctest bundle) one level down.
        for _ in 0..<3 where !FileManager.default.isExecutableFile(atPath: binary.path) {
            directory = directory.deletingLastPathComponent()
            binary = directory.appendingPathComponent("read-example")
        }
        let process = Process()
        process.executableURL = binary
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "output: \(text)")
        #expect(
            text == """
                tweet 1: Hello, graph ('en')
                in English, newest first: [3, 1]
                author: ann
                hashtags: ["swift", "sqlite"]
                ann's tweets (inverse of Tweet.author): [1, 2]
                decoded: Hello, graph by ann, who wrote 2 tweets
                error: Tweet has no attribute 'createdOn'; did you mean 'createdAt'?
                deleted: Tweet 1, 2; User 7
                {"entity":"Tweet","key":{"id":1},"change":"deleted","run":2}
                {"entity":"Tweet","key":{"id":2},"change":"deleted","run":2}
                {"entity":"User","key":{"id":7},"change":"deleted","run":2}

                """)
    }
}
