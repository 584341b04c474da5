import GraphImportCLI

/// What must hold for any command line; a violation stops the fuzzer with `fatalError` (a crash).
///
/// `GraphImportCommand.checkArguments` runs everything `main` does before it reads a file, opens a
/// store or reads standard input. Accepting or refusing is fine; trapping, hanging, or refusing
/// with anything but a usage error whose `Error:` line is one line is a bug.
enum ArgumentInvariants {
    /// At most this many arguments, each cut to `maxArgumentBytes`: a command line, not a stress test.
    static let maxArguments = 32
    static let maxArgumentBytes = 256

    /// The input as an argument vector: split on NUL when it holds one (so an argument may hold a
    /// line break), else on newlines (so seeds read as one argument a line).
    static func arguments(from bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        let separator = bytes.contains(0) ? UInt8(0) : UInt8(ascii: "\n")
        return bytes.split(separator: separator, maxSplits: maxArguments, omittingEmptySubsequences: false)
            .prefix(maxArguments)
            .map { String(decoding: $0.prefix(maxArgumentBytes), as: UTF8.self) }
    }

    static func check(_ arguments: [String]) {
        for inputIsTerminal in [true, false] {
            let result = GraphImportCommand.checkArguments(arguments, inputIsTerminal: inputIsTerminal)
            require(
                result == GraphImportCommand.checkArguments(arguments, inputIsTerminal: inputIsTerminal),
                "two checks of one command line disagree: \(arguments)")
            switch result {
            case .information(let text):
                require(!text.isEmpty && text.hasSuffix("\n"), "help or version without a final newline: \(arguments)")
            case .accepted(let command):
                require(!command.isEmpty, "accepted for no command: \(arguments)")
            case .usageError(let text):
                checkUsageError(text, arguments: arguments)
            }
        }
    }

    /// `Error: MESSAGE` on one line (control characters escaped), at most a hint, then the usage
    /// line and "See 'graphimport … --help'."; never longer than the arguments can explain.
    static func checkUsageError(_ text: String, arguments: [String]) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        require(text.hasSuffix("--help'.\n"), "a usage error that does not end with its See line: \(text.debugDescription)")
        require(lines[0].hasPrefix("Error: "), "a usage error that does not start with 'Error: ': \(text.debugDescription)")
        require(
            !lines[0].unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}" },
            "a control character in the Error line: \(lines[0].debugDescription)")
        require(lines.contains { $0.hasPrefix("Usage: graphimport") }, "a usage error without its usage line: \(text.debugDescription)")
        // Escaping may make each byte of an argument up to ten characters (`\u{10ffff}`).
        let bound = 1024 + 10 * arguments.reduce(0) { $0 + $1.utf8.count }
        require(lines[0].utf8.count <= bound, "an Error line of \(lines[0].utf8.count) bytes for \(arguments.count) arguments")
    }

    static func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() { fatalError(message()) }
    }
}
