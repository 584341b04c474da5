/// A help screen read back into its parts, so that the man page and the shell completions are
/// made from the same text `--help` prints, and cannot drift from it.
///
/// A screen is a run of sections: a title in capitals followed by a colon (`OVERVIEW: text`,
/// `OPTIONS:`), and the lines below it. An entry of an OPTIONS-like section starts two spaces in
/// (`  -m, --map <map>         The mapping file.`); deeper lines continue the entry above.
struct HelpDocument {
    struct Section {
        var title: String
        /// The text after the title's colon (OVERVIEW and USAGE have it), then the lines below.
        var lines: [String]
    }

    /// One entry of a list section: `-m, --map <map>` and its description, joined into one paragraph.
    struct Entry {
        var names: [String]
        var value: String?
        var description: String
    }

    var sections: [Section] = []

    init(_ text: String) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let title = Self.title(of: line) {
                let rest = line.dropFirst(title.count + 1).drop(while: { $0 == " " })
                sections.append(Section(title: title, lines: rest.isEmpty ? [] : [String(rest)]))
            } else if !sections.isEmpty {
                sections[sections.count - 1].lines.append(line)
            }
        }
        for index in sections.indices {
            while sections[index].lines.last?.allSatisfy({ $0 == " " }) == true { sections[index].lines.removeLast() }
        }
    }

    func section(_ title: String) -> Section? { sections.first { $0.title == title } }

    /// The first paragraph of OVERVIEW: the command's one-line summary.
    var summary: String {
        guard let lines = section("OVERVIEW")?.lines else { return "" }
        return lines.prefix { !$0.isEmpty }.joined(separator: " ")
    }

    /// The entries of a list section (OPTIONS, ARGUMENTS, SUBCOMMANDS, ACTIONS).
    func entries(_ title: String) -> [Entry] {
        var entries: [Entry] = []
        for line in section(title)?.lines ?? [] {
            let indent = line.prefix { $0 == " " }.count
            let body = line.dropFirst(indent)
            if body.isEmpty { continue }
            if indent == 2 {
                let head = body.range(of: "  ").map { body[..<$0.lowerBound] } ?? body
                let description = body.dropFirst(head.count).drop(while: { $0 == " " })
                var names: [String] = []
                var value: String?
                for word in head.split(separator: " ") {
                    let word = word.hasSuffix(",") ? word.dropLast() : word
                    if word.hasPrefix("<") || word.hasPrefix("[") { value = String(word) } else { names.append(String(word)) }
                }
                entries.append(Entry(names: names, value: value, description: String(description)))
            } else if !entries.isEmpty {
                let joined = entries[entries.count - 1].description
                entries[entries.count - 1].description = joined.isEmpty ? String(body) : joined + " " + body
            }
        }
        return entries
    }

    /// `OPTIONS` in `OPTIONS:`, `EXIT STATUS` in `EXIT STATUS:`; nil for any other line.
    private static func title(of line: String) -> String? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let title = line[..<colon]
        guard let first = title.first, first.isUppercase,
            title.allSatisfy({ $0.isUppercase || $0 == " " })
        else { return nil }
        return String(title)
    }
}
