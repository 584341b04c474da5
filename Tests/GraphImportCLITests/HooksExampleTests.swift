import Foundation
import Testing

/// The `hooks-example` executable built beside this test bundle.
private let hooksExampleBinary: URL = {
    let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = exe.deletingLastPathComponent()
    // The test bundle may be a directory (xctest bundle) one level down.
    for _ in 0..<3 {
        let candidate = directory.appendingPathComponent("hooks-example")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    return exe.deletingLastPathComponent().appendingPathComponent("hooks-example")
}()

/// One store: the program's own, as the README shows it; hooks on both stores are GraphImportTests'.
@Suite("Samples/HooksExample")
struct HooksExampleTests {
    /// The README's hooks excerpt comes from this program; it must keep running and doing what it says.
    @Test func exampleRunsAndEveryHookShowsInItsOutput() throws {
        let process = Process()
        process.executableURL = hooksExampleBinary
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "output: \(text)")
        let lines = text.split(separator: "\n").map(String.init)
        // squish converter, mpaa check, key handler (2h 50m = 170) and onInsert, in one row.
        #expect(lines.contains("1 | Heat | R | 170 | hooks-example"))
        #expect(lines.contains("3 | Alien | R | 117 | hooks-example"))
        // The beforeSave rule refused movie 2, which ends before it starts.
        #expect(lines.contains { $0.hasPrefix("skipped record 1 ") && $0.contains("Movie: ends at 2024-05-02T17:00:00.000Z, before it starts") })
        #expect(lines.contains("imported 2 of 3 records, skipped 1"))
    }
}
