import Foundation
import GraphImportCLI
import GraphImportTestSupport

/// The result of one run of the command.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs the command in-process with captured output.
func runInProcess(_ arguments: [String], stdinText: String? = nil, stdinIsTerminal: Bool = true) -> CommandResult {
    let out = Capture()
    let err = Capture()
    var descriptor: Int32 = 0
    var pipeFDs: [Int32] = [0, 0]
    if let stdinText {
        pipe(&pipeFDs)
        let bytes = Array(stdinText.utf8)
        _ = bytes.withUnsafeBytes { write(pipeFDs[1], $0.baseAddress, $0.count) }
        close(pipeFDs[1])
        descriptor = pipeFDs[0]
    }
    let io = ToolIO(
        standardInput: descriptor, writeOut: { out.append($0) }, writeError: { err.append($0) },
        inputIsTerminal: stdinText == nil && stdinIsTerminal, errorIsTerminal: false)
    let status = GraphImportCommand.main(arguments: arguments, io: io)
    if stdinText != nil { close(descriptor) }
    return CommandResult(status: status, stdout: out.text, stderr: err.text)
}

/// Runs the built `graphimport` binary as a separate process, as cron would.
func runBinary(_ arguments: [String], stdinFile: String? = nil, currentDirectory: String? = nil) throws -> CommandResult {
    let process = Process()
    process.executableURL = graphimportBinary
    process.arguments = arguments
    if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
    let outPipe = Pipe()
    let errPipe = Pipe()
    process.standardOutput = outPipe
    process.standardError = errPipe
    if let stdinFile {
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: stdinFile))
    } else {
        process.standardInput = FileHandle.nullDevice
    }
    try process.run()
    let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
    let errData = errPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}

/// The `graphimport` executable built beside this test bundle.
let graphimportBinary: URL = {
    let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = exe.deletingLastPathComponent()
    // The test bundle may be a directory (xctest bundle) one level down.
    for _ in 0..<3 {
        let candidate = directory.appendingPathComponent("graphimport")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    return exe.deletingLastPathComponent().appendingPathComponent("graphimport")
}()

/// The repository's files, by relative path.
func repoFile(_ path: String) -> String { repositoryRoot.appendingPathComponent(path).path }

final class Capture: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = ""
    func append(_ text: String) { lock.lock(); storage += text; lock.unlock() }
    var text: String { lock.lock(); defer { lock.unlock() }; return storage }
}

/// Rows of a query, via the stock sqlite3 CLI when present (as a user would look), else nil.
func sqlite(_ store: String, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [store, sql]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Whether the store at `path` holds no data: no entity or join table, only graphimport's own
/// tables and failed runs. What a failed import into a new store leaves behind.
func storeHoldsNoData(_ path: String) throws -> Bool {
    try sqlite(path, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'graphimport!_%' ESCAPE '!'") == "0"
        && sqlite(path, "SELECT count(*) FROM graphimport_runs WHERE outcome <> 'failed'") == "0"
}

/// Whether no data reached the store at `path`: the file is absent, or has no entity or join
/// table. (After a fault such as a full disk, even the failed run's record may not be written.)
func storeHasNoDataTables(_ path: String) throws -> Bool {
    guard FileManager.default.fileExists(atPath: path) else { return true }
    return try sqlite(path, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'graphimport!_%' ESCAPE '!'") == "0"
}
