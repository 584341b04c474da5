import Foundation
import GraphImportTestSupport
import Testing

@testable import GraphImportCLI

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Progress on a terminal")
struct ProgressLineTests {
    @Test func aFileShowsPercentRateAndTimeLeft() {
        let line = ProgressLine.render(records: 41_000, bytes: 12 * 1_048_576, totalBytes: 48 * 1_048_576, elapsed: 2)
        #expect(line == "graphimport: 25% of 48.0 MB, 41,000 records, 20,500 records/s, 0:06 left")
    }

    @Test func aPipeShowsRecordsBytesAndRate() {
        let line = ProgressLine.render(records: 1_234_567, bytes: 3 * 1_048_576 / 2, totalBytes: nil, elapsed: 10)
        #expect(line == "graphimport: 1,234,567 records, 1.5 MB, 123,456 records/s")
    }

    @Test func rateAndTimeLeftWaitForSomeHistory() {
        #expect(ProgressLine.render(records: 10, bytes: 100, totalBytes: 1000, elapsed: 0.1) == "graphimport: 10% of 0.0 MB, 10 records")
        #expect(ProgressLine.render(records: 10, bytes: 100, totalBytes: nil, elapsed: 0) == "graphimport: 10 records, 0.0 MB")
    }

    @Test func durationsReadAsAClock() {
        #expect(ProgressLine.duration(0.2) == "0:01")
        #expect(ProgressLine.duration(75) == "1:15")
        #expect(ProgressLine.duration(3723) == "1:02:03")
    }

    @Test func theLineNeverWrapsOnANarrowTerminal() {
        let line = ProgressLine.render(records: 41_000, bytes: 1, totalBytes: 2, elapsed: 2)
        #expect(ProgressLine.fit(line, width: 20) == String(line.prefix(19)))
        #expect(ProgressLine.fit(line, width: nil) == line)
        #expect(ProgressLine.fit("short", width: 80) == "short")
    }

    @Test func redrawsAtMostFiveTimesASecondAndErasesItself() {
        let err = Capture()
        var io = ToolIO(standardInput: 0, writeOut: { _ in }, writeError: { err.append($0) }, inputIsTerminal: false, errorIsTerminal: true)
        io.errorColumns = 200
        nonisolated(unsafe) var now = 100.0
        let progress = ProgressLine(io: io, totalBytes: 1000, clock: { now })
        progress.update(records: 1, bytes: 10)
        now += 0.1
        progress.update(records: 2, bytes: 20)
        now += 0.2
        progress.update(records: 3, bytes: 500)
        progress.finish()
        #expect(
            err.text == "\r\u{1B}[Kgraphimport: 1% of 0.0 MB, 1 record"
                + "\r\u{1B}[Kgraphimport: 50% of 0.0 MB, 3 records, 10 records/s, 0:01 left" + "\r\u{1B}[K")
    }

    /// The real binary with its standard error on a pseudo-terminal draws the line and erases it
    /// before the summary; on a pipe it draws nothing. One store: the line follows the input read.
    @Test func theBinaryDrawsProgressOnATerminalOnly() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", "entity Item\n  key id\n  id : Int\n  name : String\n")
        let feed = dir.write("feed.json", "[" + (1...2000).map { #"{"id":\#($0),"name":"n\#($0)"}"# }.joined(separator: ",") + "]")

        // Glibc's posix_openpt family is not visible to Swift; its Linux ioctls are (their numbers
        // are _IOW('T', 0x31, int) and _IOR('T', 0x30, unsigned int), macros Swift cannot import).
        let (lockRequest, numberRequest): (UInt, UInt) = (0x4004_5431, 0x8004_5430)
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        defer { close(master) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        try #require(ioctl(master, lockRequest, &unlock) == 0 && ioctl(master, numberRequest, &number) == 0)
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        try #require(slave >= 0)
        var size = winsize(ws_row: 24, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &size)

        let process = Process()
        process.executableURL = graphimportBinary
        process.arguments = [feed, "--map", map, "--store", dir.path("a.sqlite")]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        try process.run()
        close(slave)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(master, &buffer, buffer.count)
            if count <= 0 { break }  // EIO once the child has closed the terminal
            bytes += buffer[..<count]
        }
        process.waitUntilExit()
        let terminal = String(decoding: bytes, as: UTF8.self)
        #expect(process.terminationStatus == 0)
        #expect(terminal.contains("\u{1B}[Kgraphimport: "), "\(terminal)")
        #expect(terminal.contains("% of "), "\(terminal)")
        #expect(terminal.contains("\r\u{1B}[Kgraphimport: imported 2000 records"), "the line is erased before the summary: \(terminal)")

        let piped = try runBinary([feed, "--map", map, "--store", dir.path("b.sqlite")])
        #expect(piped.status == 0)
        #expect(!piped.stderr.contains("\u{1B}"))
        #expect(piped.stderr.hasPrefix("graphimport: imported 2000 records"))
    }

    @Test func quietDrawsNothingEvenOnATerminal() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", "entity Item\n  key id\n  id : Int\n")
        let feed = dir.write("feed.json", #"[{"id":1},{"id":2}]"#)
        let err = Capture()
        let io = ToolIO(standardInput: 0, writeOut: { _ in }, writeError: { err.append($0) }, inputIsTerminal: false, errorIsTerminal: true)
        #expect(GraphImportCommand.main(arguments: [feed, "-q", "-m", map], io: io) == 0)
        #expect(err.text.isEmpty)
        #expect(GraphImportCommand.main(arguments: [feed, "-m", map], io: io) == 0)
        #expect(err.text.hasPrefix("\r\u{1B}[Kgraphimport: "))
    }
}
