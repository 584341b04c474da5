import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the command reads and writes, so that tests can run it in-process.
package struct ToolIO: Sendable {
    /// The file descriptor of standard input.
    package var standardInput: Int32
    package var writeOut: @Sendable (String) -> Void
    package var writeError: @Sendable (String) -> Void
    /// Whether standard input is a terminal (then a missing FILE is a usage error).
    package var inputIsTerminal: Bool
    /// Whether standard error is a terminal (then progress is shown).
    package var errorIsTerminal: Bool
    /// The width of the terminal on standard error, when it is one and says.
    package var errorColumns: Int?
    /// Whether the process was asked to stop (SIGINT, SIGTERM).
    package var isInterrupted: @Sendable () -> Bool = { false }
    /// The environment variables the command reads (`GRAPHIMPORT_INCLUDE_PATH`); empty unless given.
    package var environment: [String: String] = [:]

    package init(
        standardInput: Int32, writeOut: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void,
        inputIsTerminal: Bool, errorIsTerminal: Bool
    ) {
        self.standardInput = standardInput
        self.writeOut = writeOut
        self.writeError = writeError
        self.inputIsTerminal = inputIsTerminal
        self.errorIsTerminal = errorIsTerminal
    }

    /// The process's own standard streams.
    package static var standard: ToolIO {
        var io = ToolIO(
            standardInput: 0, writeOut: { writeAll(1, $0) }, writeError: { writeAll(2, $0) },
            inputIsTerminal: isatty(0) != 0, errorIsTerminal: isatty(2) != 0)
        io.isInterrupted = { ProcessSignals.interrupted }
        io.environment = ProcessInfo.processInfo.environment
        var size = winsize()
        if io.errorIsTerminal, ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { io.errorColumns = Int(size.ws_col) }
        return io
    }
}

/// Writes all of `text` to `descriptor`, retrying short writes and EINTR.
func writeAll(_ descriptor: Int32, _ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR { continue }
            return
        }
        bytes = bytes.dropFirst(written)
    }
}

/// Whether `descriptor` is open on a directory, which Linux lets `open` read-only but not `read`
/// (EISDIR, an I/O error): a command says "it is a directory" (no input, 66) instead.
func isDirectory(_ descriptor: Int32) -> Bool {
    var info = stat()
    return fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}
