import Foundation
import GraphImportTestSupport

/// Polls `condition` every 20 ms for up to `seconds`; true once it holds.
func waitUntil(seconds: Double = 20, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

/// A child process started now and collected later; its output goes to files, so that many can
/// run at once without pipes to drain.
final class BackgroundProcess {
    let process = Process()
    private let outPath: String
    private let errPath: String
    private var input: Pipe?

    init(_ executable: String, _ arguments: [String], in dir: TemporaryDirectory, pipeInput: Bool = false) throws {
        let name = UUID().uuidString
        outPath = dir.path("\(name).out")
        errPath = dir.path("\(name).err")
        // Created empty (and throwing if they cannot be): the child writes into them.
        try Data().write(to: URL(fileURLWithPath: outPath))
        try Data().write(to: URL(fileURLWithPath: errPath))
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        if pipeInput {
            let pipe = Pipe()
            input = pipe
            process.standardInput = pipe
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
    }

    /// Writes `text` to the process's standard input, leaving it open for more.
    /// A process that ended before reading it all is seen in its result (SIGPIPE is ignored:
    /// the write fails instead of ending the tests).
    func writeInput(_ text: String) {
        signal(SIGPIPE, SIG_IGN)
        try? input?.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    /// Writes `text` to the process's standard input and closes it.
    func closeInput(writing text: String) {
        guard let input else { return }
        writeInput(text)
        try? input.fileHandleForWriting.close()
        self.input = nil
    }

    /// True when the process has `path` open (read from /proc, Linux only).
    func hasOpen(_ path: String) -> Bool {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let fdDirectory = "/proc/\(process.processIdentifier)/fd"
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: fdDirectory)) ?? []
        return descriptors.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(fdDirectory)/\($0)")) == target }
    }

    /// Waits for the end (killing the process after 120 s) and returns its status and output.
    func finish() -> CommandResult {
        if let input { try? input.fileHandleForWriting.close() }
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return CommandResult(status: process.terminationStatus, stdout: out, stderr: err)
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// Runs `executable` to its end and captures both streams.
func runProcess(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let outPipe = Pipe()
    let errPipe = Pipe()
    process.standardOutput = outPipe
    process.standardError = errPipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Drain stderr on the side, so that neither pipe fills up while the other is read.
    let errText = Capture()
    let drained = DispatchGroup()
    drained.enter()
    DispatchQueue.global().async {
        errText.append(String(decoding: errPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        drained.leave()
    }
    let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
    drained.wait()
    process.waitUntilExit()
    return CommandResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: errText.text)
}

/// The SHA-256 of a file as lowercase hex, from coreutils' `sha256sum`.
func sha256sum(_ path: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    process.arguments = [path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(String(decoding: data, as: UTF8.self).prefix(64))
}
