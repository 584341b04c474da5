import Foundation
import GraphImportTestSupport
import Testing

/// How a child process ended, as `wait4` saw it: an exit status or a signal, its output, its
/// peak memory and how long it ran.
struct ToolOutcome {
    /// The exit status; nil when a signal ended the process.
    var exitStatus: Int32?
    /// The signal that ended the process; nil when it exited.
    var signal: Int32?
    var stdout: String
    var stderr: String
    /// The peak resident set size of the program itself, in kilobytes (`SpawnedTool.peakKilobytes`).
    var maxRSSKilobytes: Int
    var seconds: Double

    /// "exit 65" or "signal 9", for failure messages.
    var ending: String { signal.map { "signal \($0)" } ?? "exit \(exitStatus ?? -1)" }

    /// The ending and standard error, for failure messages.
    var report: String { "\(ending) after \(String(format: "%.2f", seconds)) s\n\(stderr.prefix(2_000))" }
}

/// A child process started with `posix_spawn` and collected with `wait4`, so that a test sees a
/// death by signal (which `Process` folds into a status) and the child's peak memory. Output goes
/// to files, so many children can run at once without pipes to drain.
final class SpawnedTool {
    let pid: pid_t
    private let outPath: String
    private let errPath: String
    private let started = ContinuousClock.now
    private var inputDescriptor: Int32 = -1
    private var outcome: ToolOutcome?
    /// The highest `VmHWM` read from `/proc/PID/status` while the child ran.
    private var highWater = 0

    /// Starts `executable` with `arguments`, the test's environment plus `environment`, and
    /// standard input from `stdinPath` (else /dev/null), or from a pipe kept open when `pipeInput`.
    init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], stdinPath: String? = nil,
        pipeInput: Bool = false, in dir: TemporaryDirectory
    ) throws {
        let name = UUID().uuidString
        outPath = dir.path("\(name).out")
        errPath = dir.path("\(name).err")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipeEnds: [Int32] = [-1, -1]
        if pipeInput {
            // Close-on-exec, so that no other child started later inherits the write end (pipe2 is
            // not visible to Swift on Glibc).
            guard pipe(&pipeEnds) == 0 else { throw SpawnFailure("pipe failed: errno \(errno)") }
            for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, stdinPath ?? "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Default dispositions and no blocked signals, whatever the test runner set: a child that
        // inherited an ignored SIGXFSZ or a blocked SIGTERM would hide the behaviour under test.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        if pipeInput { close(pipeEnds[0]) }
        guard status == 0 else {
            if pipeInput { close(pipeEnds[1]) }
            throw SpawnFailure("cannot start \(executable): errno \(status)")
        }
        pid = child
        inputDescriptor = pipeEnds[1]
    }

    /// Writes `text` to the input pipe (which stays open).
    func writeInput(_ text: String) {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(inputDescriptor, $0.baseAddress, $0.count) }
            if count <= 0 { return }
            written += count
        }
    }

    /// Sends `signal` to the child, unless it has been collected already.
    func send(_ signal: Int32) {
        if outcome == nil { kill(pid, signal) }
    }

    /// True once the child has ended (it is collected then).
    var hasEnded: Bool { collect(blocking: false) != nil }

    /// Waits for the end, killing the child after `timeout` seconds, and returns how it ended.
    @discardableResult
    func finish(timeout: Double = 120) -> ToolOutcome {
        if inputDescriptor >= 0 {
            close(inputDescriptor)
            inputDescriptor = -1
        }
        let deadline = started + .milliseconds(Int(timeout * 1_000))
        while ContinuousClock.now < deadline {
            if let outcome = collect(blocking: false) { return outcome }
            usleep(1_000)
        }
        kill(pid, SIGKILL)
        return collect(blocking: true)!
    }

    private func collect(blocking: Bool) -> ToolOutcome? {
        if let outcome { return outcome }
        if !blocking { noteHighWater() }
        var status: Int32 = 0
        var usage = rusage()
        let result = wait4(pid, &status, blocking ? 0 : WNOHANG, &usage)
        guard result == pid else { return nil }
        let elapsed = ContinuousClock.now - started
        let termination = status & 0x7f
        let ended = ToolOutcome(
            exitStatus: termination == 0 ? (status >> 8) & 0xff : nil, signal: termination == 0 ? nil : termination,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "", maxRSSKilobytes: peakKilobytes(usage),
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        outcome = ended
        try? FileManager.default.removeItem(atPath: outPath)
        try? FileManager.default.removeItem(atPath: errPath)
        return ended
    }

    /// The child's peak memory. `wait4`'s `ru_maxrss` is no measure of it: `posix_spawn` execs
    /// from the test runner's address space, and Linux carries that space's peak into the child's
    /// (`exec_mmap`), so a runner of 450 MB makes every child look as large. `VmHWM` belongs to the
    /// program's own address space: the highest read while it ran is taken, polled every
    /// millisecond (a peak in its last millisecond could be missed); `ru_maxrss` only when no read
    /// succeeded (a child that ended at once).
    private func peakKilobytes(_ usage: rusage) -> Int {
        highWater > 0 ? highWater : usage.ru_maxrss
    }

    /// Reads the child's `VmHWM` (kilobytes) and keeps the highest.
    private func noteHighWater() {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")
        else { return }
        highWater = max(highWater, kilobytes)
    }

    deinit {
        if outcome == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        if inputDescriptor >= 0 { close(inputDescriptor) }
    }
}

/// A child that could not be started.
struct SpawnFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs the built `graphimport` with `arguments` to its end.
func runTool(
    _ arguments: [String], environment: [String: String] = [:], stdinPath: String? = nil, in dir: TemporaryDirectory,
    timeout: Double = 120
) throws -> ToolOutcome {
    try SpawnedTool(graphimportBinary.path, arguments, environment: environment, stdinPath: stdinPath, in: dir).finish(timeout: timeout)
}

/// The state of a store as the stock `sqlite3` sees it, for comparing before and after a failure.
enum StoreState {
    /// `PRAGMA integrity_check` ("ok" for a sound file).
    static func integrity(_ store: String) throws -> String { try sqlite(store, "PRAGMA integrity_check") }

    /// The row count of every table but graphimport's own (whose run history grows with each
    /// attempt), in name order: `tweets=3000 users=…`.
    static func counts(_ store: String) throws -> String {
        let tables = try sqlite(
            store, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'graphimport\\_%' ESCAPE '\\' ORDER BY name"
        ).split(separator: "\n").map(String.init)
        guard !tables.isEmpty else { return "" }
        let select = tables.map { "(SELECT count(*) FROM \"\($0.replacingOccurrences(of: "\"", with: "\"\""))\")" }
        let values = try sqlite(store, "SELECT " + select.joined(separator: ", ")).split(separator: "|").map(String.init)
        return zip(tables, values).map { "\($0)=\($1)" }.joined(separator: " ")
    }

    /// The outcome of each recorded run, oldest first: `succeeded running failed`.
    static func runOutcomes(_ store: String) throws -> [String] {
        try sqlite(store, "SELECT outcome FROM graphimport_runs ORDER BY id").split(separator: "\n").map(String.init)
    }
}

/// The feeds and stores the reliability suites share, made once per test process: generating
/// and importing a timeline takes seconds, and several suites need the same ones.
final class ReliabilityFixtures: @unchecked Sendable {
    static let shared = ReliabilityFixtures()

    /// Removed at exit: a static is never released, so TemporaryDirectory's deinit would not run.
    let directory: TemporaryDirectory = {
        let directory = TemporaryDirectory("graphimport-reliability")
        reliabilityFixturesPath = directory.url.path
        atexit { if let path = reliabilityFixturesPath { try? FileManager.default.removeItem(atPath: path) } }
        return directory
    }()
    private let lock = NSLock()
    private var made: [String: String] = [:]

    /// The path of the fixture `name`, made by `make(path)` the first time it is asked for.
    func fixture(_ name: String, _ make: (String) throws -> Void) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let path = made[name] { return path }
        let path = directory.path(name)
        try make(path)
        made[name] = path
        return path
    }

    /// 1,000 tweets at revision 0: the feed of the "before" store.
    func baseFeed() throws -> String {
        try fixture("base.json") { path in
            _ = try EndToEnd.generateTimeline(["--tweets", "1000", "--seed", "7", "--revision", "0"], into: path)
        }
    }

    /// 3,000 tweets at revision 1: a larger, revised feed (the first 1,000 tweets' ids recur).
    func revisedFeed() throws -> String {
        try fixture("revised.json") { path in
            _ = try EndToEnd.generateTimeline(["--tweets", "3000", "--seed", "7", "--revision", "1"], into: path)
        }
    }

    /// A store holding the base feed, imported with `Mappings/tweets.map`. Copy it; never write it.
    func baseStore() throws -> String {
        let feed = try baseFeed()
        return try fixture("base.sqlite") { path in
            let result = try runBinary([feed, "--map", repoFile("Mappings/tweets.map"), "--store", path, "--quiet"])
            try #require(result.status == 0, "the base import failed: \(result.stderr)")
        }
    }

    /// The base store after a clean import of the revised feed: the "after" state.
    func revisedStore() throws -> String {
        let base = try baseStore()
        let feed = try revisedFeed()
        return try fixture("revised.sqlite") { path in
            try FileManager.default.copyItem(atPath: base, toPath: path)
            let result = try runBinary([feed, "--map", repoFile("Mappings/tweets.map"), "--store", path, "--quiet"])
            try #require(result.status == 0, "the revised import failed: \(result.stderr)")
        }
    }
}

/// The shared fixtures' directory, for the exit handler that removes it.
nonisolated(unsafe) private var reliabilityFixturesPath: String?

/// Copies `source` to `destination` byte for byte (a store at rest is one file).
func copyStore(_ source: String, to destination: String) throws {
    try? FileManager.default.removeItem(atPath: destination)
    try FileManager.default.copyItem(atPath: source, toPath: destination)
}

/// True when `text` has no control character (C0 but the line ends, DEL, C1 such as U+0085 NEL).
func hasNoRawControlCharacters(_ text: String) -> Bool {
    !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
}
