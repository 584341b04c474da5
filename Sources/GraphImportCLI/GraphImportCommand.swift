import Foundation
import GraphImport
import GraphImportMapping

/// The `graphimport` command: dispatches to import, check and schema, and owns help and usage errors.
public enum GraphImportCommand {
    public static let version = "0.1.0"

    /// Runs the command with `arguments` (without the program name) and returns the exit status.
    public static func main(arguments: [String], io: ToolIO) -> Int32 {
        var arguments = arguments
        let subcommand: Subcommand
        if let first = arguments.first, let named = Subcommand(rawValue: first) {
            subcommand = named
            arguments.removeFirst()
        } else if let first = arguments.first, let error = notACommand(first) {
            var text = "Error: \(error.message)\n"
            if let hint = error.hint { text += "\(hint)\n" }
            text += "Usage: graphimport <command> [<options>], or graphimport [<file>] --map <map> [<options>]\n  See 'graphimport --help'.\n"
            io.writeError(text)
            return ExitCode.usage.rawValue
        } else {
            subcommand = .import
        }
        if arguments.contains("--help") || arguments.contains("-h") || subcommand == .help {
            let topic = subcommand == .help ? arguments.first.flatMap(Subcommand.init(rawValue:)) ?? .import : subcommand
            io.writeOut(Help.text(for: topic))
            return ExitCode.ok.rawValue
        }
        if arguments.contains("--version") {
            io.writeOut("graphimport \(version)\n")
            return ExitCode.ok.rawValue
        }
        do {
            switch subcommand {
            case .import, .help: return try ImportCommand.run(arguments, io: io).rawValue
            case .check: return try CheckCommand.run(arguments, io: io, printSchema: false).rawValue
            case .schema: return try CheckCommand.run(arguments, io: io, printSchema: true).rawValue
            case .meta: return try MetaCommand.run(arguments, io: io).rawValue
            case .runs: return try RunsCommand.run(arguments, io: io).rawValue
            case .completions: return try ShellCompletions.run(arguments, io: io).rawValue
            case .manpage: return try ManPage.run(arguments, io: io).rawValue
            case .changes: return try ChangesCommand.run(arguments, io: io).rawValue
            case .export: return try ExportCommand.run(arguments, io: io).rawValue
            case .draft: return try InitCommand.run(arguments, io: io).rawValue
            }
        } catch {
            var text = "Error: \(error.message)\n"
            if let hint = error.hint { text += "\(hint)\n" }
            text += "Usage: \(Help.usage(for: subcommand))\n  See 'graphimport \(subcommand == .import ? "" : subcommand.rawValue + " ")--help'.\n"
            io.writeError(text)
            return ExitCode.usage.rawValue
        }
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

/// Control characters echoed from input are shown escaped, so a message stays one line.
func escapeControlCharacters(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        if mustEscapeInMessages(scalar) {
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
