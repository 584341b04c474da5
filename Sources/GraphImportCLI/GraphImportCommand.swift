import Foundation
import GraphImport
import GraphImportMapping

/// The `graphimport` command: dispatches to import, check and schema, and owns help and usage errors.
public enum GraphImportCommand {
    package static let version = "0.1.0"

    /// Runs the command with `arguments` (without the program name) and returns the exit status.
    package static func main(arguments: [String], io: ToolIO) -> Int32 {
        let subcommand: Subcommand
        let rest: [String]
        switch resolve(arguments) {
        case .notACommand(let text):
            io.writeError(text)
            return ExitCode.usage.rawValue
        case .information(let text):
            io.writeOut(text)
            return ExitCode.ok.rawValue
        case .command(let named, let arguments):
            subcommand = named
            rest = arguments
        }
        do {
            switch subcommand {
            case .import, .help: return try ImportCommand.run(rest, io: io).rawValue
            case .check: return try CheckCommand.run(rest, io: io, printSchema: false).rawValue
            case .schema: return try CheckCommand.run(rest, io: io, printSchema: true).rawValue
            case .meta: return try MetaCommand.run(rest, io: io).rawValue
            case .runs: return try RunsCommand.run(rest, io: io).rawValue
            case .completions: return try ShellCompletions.run(rest, io: io).rawValue
            case .manpage: return try ManPage.run(rest, io: io).rawValue
            case .changes: return try ChangesCommand.run(rest, io: io).rawValue
            case .export: return try ExportCommand.run(rest, io: io).rawValue
            case .draft: return try InitCommand.run(rest, io: io).rawValue
            }
        } catch {
            io.writeError(usageText(error, subcommand: subcommand))
            return ExitCode.usage.rawValue
        }
    }

    /// What a command line asks for, judged from its arguments alone: the part of `main` that
    /// reads no file, opens no store and reads no standard input. `inputIsTerminal` is what an
    /// import without a FILE depends on.
    public static func checkArguments(_ arguments: [String], inputIsTerminal: Bool) -> ArgumentCheck {
        switch resolve(arguments) {
        case .notACommand(let text): return .usageError(text)
        case .information(let text): return .information(text)
        case .command(let subcommand, let rest):
            do throws(UsageError) {
                switch subcommand {
                case .import, .help: _ = try ImportCommand.parse(rest, inputIsTerminal: inputIsTerminal)
                case .check: _ = try CheckCommand.parse(rest, printSchema: false)
                case .schema: _ = try CheckCommand.parse(rest, printSchema: true)
                case .meta: _ = try MetaCommand.parse(rest)
                case .runs: _ = try RunsCommand.parse(rest)
                case .completions: _ = try ShellCompletions.parse(rest)
                case .manpage: _ = try ManPage.parse(rest)
                case .changes: _ = try ChangesCommand.parse(rest)
                case .export: _ = try ExportCommand.parse(rest)
                case .draft: _ = try InitCommand.parse(rest)
                }
                return .accepted(command: subcommand.rawValue)
            } catch {
                return .usageError(usageText(error, subcommand: subcommand))
            }
        }
    }

    /// The first step of `main`: help, the version, a word that names no command, or a command
    /// and the arguments left for it.
    private enum Resolved {
        case notACommand(String)
        case information(String)
        case command(Subcommand, [String])
    }

    private static func resolve(_ arguments: [String]) -> Resolved {
        var arguments = arguments
        let subcommand: Subcommand
        if let first = arguments.first, let named = Subcommand(rawValue: first) {
            subcommand = named
            arguments.removeFirst()
        } else if let first = arguments.first, let error = notACommand(first) {
            var text = "Error: \(escapeControlCharacters(error.message))\n"
            if let hint = error.hint { text += "\(hint)\n" }
            text += "Usage: graphimport <command> [<options>], or graphimport [<file>] --map <map> [<options>]\n  See 'graphimport --help'.\n"
            return .notACommand(text)
        } else {
            subcommand = .import
        }
        if arguments.contains("--help") || arguments.contains("-h") || subcommand == .help {
            let topic = subcommand == .help ? arguments.first.flatMap(Subcommand.init(rawValue:)) ?? .import : subcommand
            return .information(Help.text(for: topic))
        }
        if arguments.contains("--version") { return .information("graphimport \(version)\n") }
        return .command(subcommand, arguments)
    }

    /// A usage error as printed: `Error: …` on one line (what the user typed escaped, so that a
    /// newline in an argument cannot break it), the hint, the command's usage line and where to
    /// read more.
    static func usageText(_ error: UsageError, subcommand: Subcommand) -> String {
        var text = "Error: \(escapeControlCharacters(error.message))\n"
        if let hint = error.hint { text += "\(escapeControlCharacters(hint, keepingLineBreaks: true))\n" }
        text += "Usage: \(Help.usage(for: subcommand))\n  See 'graphimport \(subcommand == .import ? "" : subcommand.rawValue + " ")--help'.\n"
        return text
    }

    /// A first argument that names no command and no file, and looks like a command's name rather
    /// than a path (`graphimport exprot`): a usage error, where an import would say "cannot open".
    static func notACommand(_ word: String) -> UsageError? {
        guard let first = word.unicodeScalars.first, first.properties.isLowercase,
            word.unicodeScalars.allSatisfy({ $0.properties.isLowercase || $0 == "-" }),
            !FileManager.default.fileExists(atPath: word)
        else { return nil }
        let names = Subcommand.allCases.filter { $0 != .import }.map(\.rawValue)
        let hint =
            closestMatch(to: word, among: names).map { "Did you mean '\($0)'?" }
            ?? "The commands are \(names.joined(separator: ", ")); an import names its feed as a file path."
        return UsageError(message: "'\(word)' is neither a command nor a file", hint: hint)
    }
}

/// What `GraphImportCommand.checkArguments` finds in a command line.
public enum ArgumentCheck: Equatable, Sendable {
    /// `--help`, `help` or `--version`: this text goes to standard output, exit 0.
    case information(String)
    /// The arguments parse and pass every check that needs no file or store; `command` would run.
    case accepted(command: String)
    /// A usage error, exit 64: this text goes to standard error.
    case usageError(String)
}

/// The commands graphimport has.
enum Subcommand: String, CaseIterable {
    /// `graphimport init` is `draft`: `init` cannot name a case.
    case `import`, draft = "init", check, schema, meta, runs, changes, export, completions, manpage, help

    /// The options the command accepts: what it parses, and what completions and the man page offer.
    var options: [ParsedArguments.OptionSpec] {
        switch self {
        case .import, .help: ImportCommand.options
        case .check: CheckCommand.options
        case .schema: CheckCommand.schemaOptions
        case .meta: MetaCommand.options
        case .runs: RunsCommand.options
        case .changes: ChangesCommand.options
        case .export: ExportCommand.options
        case .draft: InitCommand.options
        case .completions, .manpage: []
        }
    }

    /// Whether the command's operand is a file (a feed): completions offer files there.
    var takesFile: Bool { self == .import || self == .draft }

    /// Whether the command's operand is an entity of its map (`export`): completions offer the map's.
    var takesEntity: Bool { self == .export }

    /// Words the command takes as its first operand (meta's actions, the shells).
    var operandWords: [String] {
        switch self {
        case .meta: ["get", "set", "unset", "list"]
        case .completions: ShellCompletions.Shell.allCases.map(\.rawValue)
        case .help: Subcommand.allCases.filter { $0 != .help }.map(\.rawValue)
        default: []
        }
    }
}

/// `graphimport: error: …` and an optional `hint: …` line, the one shape of every runtime error.
func reportError(_ message: String, hint: String? = nil, io: ToolIO) {
    var text = "graphimport: error: \(escapeControlCharacters(message))\n"
    if let hint { text += "hint: \(hint)\n" }
    io.writeError(text)
}

/// Control characters echoed from input are shown escaped, so a message stays one line;
/// `keepingLineBreaks` keeps a multi-line hint's own line breaks.
func escapeControlCharacters(_ text: String, keepingLineBreaks: Bool = false) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        if mustEscapeInMessages(scalar) && !(keepingLineBreaks && scalar == "\n") {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}
