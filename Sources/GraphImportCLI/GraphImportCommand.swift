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
}

/// The commands graphimport has.
enum Subcommand: String, CaseIterable {
    case `import`, check, schema, meta, runs, help
    /// `graphimport init`: `init` cannot name a case.
    case draft = "init"
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
