import Foundation

/// `graphimport manpage`: the manual page graphimport(1) in roff, made from the help screens so
/// that `man graphimport` and `--help` say the same; `graphimport manpage map FILE`: the map
/// language's page, graphimport-map(5), made from its reference (Mappings/README.md).
enum ManPage {
    /// What the command line asks for: graphimport(1), or graphimport-map(5) from the reference at `path`.
    enum Request {
        case page
        case mapPage(reference: String)
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Request {
        let parsed = try ParsedArguments(arguments, options: [])
        switch parsed.operands.count {
        case 0: return .page
        case 2 where parsed.operands[0] == "map": return .mapPage(reference: parsed.operands[1])
        case 1 where parsed.operands[0] == "map":
            throw UsageError(message: "Missing expected argument '<file>'", hint: "graphimport manpage map Mappings/README.md")
        default:
            let extra = parsed.operands.first == "map" ? parsed.operands.dropFirst(2).first : parsed.operands.first
            throw UsageError(message: "Unexpected argument '\(extra ?? "")'", hint: "graphimport manpage [map <file>]")
        }
    }

    static func run(_ arguments: [String], io: ToolIO) throws(UsageError) -> ExitCode {
        switch try parse(arguments) {
        case .page:
            io.writeOut(roff())
            return .ok
        case .mapPage(let path):
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                reportError("cannot read the map language's reference '\(path)'", hint: "give Mappings/README.md of the source tree", io: io)
                return .noInput
            }
            io.writeOut(
                MarkdownManPage.roff(
                    markdown: text, name: "graphimport-map", section: 5, summary: "the map language of graphimport(1)"))
            return .ok
        }
    }

    /// Sections whose lines are entries: a name (an option, a code) and its description.
    static let listSections: Set<String> = ["ARGUMENTS", "OPTIONS", "SUBCOMMANDS", "ACTIONS", "EXIT STATUS"]

    static func roff() -> String {
        let main = HelpDocument(Help.text(for: .import))
        var out = [
            ".TH GRAPHIMPORT 1 \"\" \"graphimport \(GraphImportCommand.version)\" \"User Commands\"",
            ".SH NAME",
            "graphimport \\- " + escape(lowercasedFirst(ShellCompletions.firstSentence(main.summary))),
            ".SH SYNOPSIS",
        ]
        for command in Subcommand.allCases where command != .help {
            out += [".PP", escape(Help.usage(for: command))]
        }
        out.append(".SH DESCRIPTION")
        out += body(main, skipping: ["USAGE", "EXAMPLES", "EXIT STATUS"], headings: ".SH", overviewRest: true)
        out.append(".SH COMMANDS")
        for command in ShellCompletions.namedCommands where command != .help {
            let document = HelpDocument(Help.text(for: command))
            out += [".SS \(command.rawValue)", ".PP", escape(document.summary)]
            out += body(document, skipping: ["USAGE"], headings: ".TP", overviewRest: true)
        }
        for title in ["EXAMPLES", "EXIT STATUS"] {
            out.append(".SH \(title)")
            out += lines(of: main, title)
        }
        out += [".SH SEE ALSO", "graphimport\\-map(5), the map language; sqlite3(1), psql(1)."]
        return out.joined(separator: "\n") + "\n"
    }

    /// The sections of `document` other than `skipping`, each headed as `.SH TITLE` or, for a
    /// command's own sections, as a bold paragraph.
    private static func body(_ document: HelpDocument, skipping: Set<String>, headings: String, overviewRest: Bool = false) -> [String] {
        var out: [String] = []
        for section in document.sections where !skipping.contains(section.title) {
            if section.title == "OVERVIEW" {
                // The first paragraph is the command's summary, already written.
                let rest = overviewRest ? Array(section.lines.drop { !$0.isEmpty }) : section.lines
                out += paragraphs(rest)
                continue
            }
            out.append(headings == ".SH" ? ".SH \(section.title)" : ".PP\n.B \(section.title.capitalized)")
            out += lines(of: document, section.title)
        }
        return out
    }

    private static func lines(of document: HelpDocument, _ title: String) -> [String] {
        guard let section = document.section(title) else { return [] }
        if listSections.contains(title) {
            var out: [String] = []
            for entry in document.entries(title) {
                let names = entry.names.map { "\\fB\(escape($0))\\fR" }.joined(separator: ", ")
                let value = entry.value.map { "\\fI\(escape($0))\\fR" }
                out += [".TP", [names, value ?? ""].filter { !$0.isEmpty }.joined(separator: " "), escape(entry.description)]
            }
            return out
        }
        if title == "EXAMPLES" {
            var out: [String] = []
            var examples: [String] = []
            var text: [String] = []
            for line in section.lines {
                if line.hasPrefix("  ") {
                    examples.append(String(line.drop { $0 == " " }))
                } else {
                    text.append(line)
                }
            }
            if !examples.isEmpty { out += [".PP", ".nf", ".RS 4"] + examples.map(escape) + [".RE", ".fi"] }
            return out + paragraphs(text)
        }
        return paragraphs(section.lines)
    }

    /// Blank-line-separated paragraphs, each one `.PP` with its lines.
    private static func paragraphs(_ lines: [String]) -> [String] {
        var out: [String] = []
        var open = false
        for line in lines {
            let text = line.trimmingSpaces()
            if text.isEmpty {
                open = false
                continue
            }
            if !open {
                out.append(".PP")
                open = true
            }
            out.append(escape(text))
        }
        return out
    }

    /// Text safe in roff: backslashes and hyphens escaped, characters beyond ASCII as `\[u2026]`,
    /// no line starting with a control character.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case _ where !scalar.isASCII:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    private static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
