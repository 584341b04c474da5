/// A manual page in roff from a Markdown document, for `graphimport manpage map FILE`: the map
/// language's reference (Mappings/README.md) installed as graphimport-map(5), so that it is read
/// where the command is, not only in the source tree.
///
/// It reads the Markdown the project writes: `#` headings, fenced code blocks, `-` lists,
/// tables (kept as preformatted text) and paragraphs; inline code and emphasis are shown as
/// bold and as written. Anything else is text.
enum MarkdownManPage {
    static func roff(markdown: String, name: String, section: Int, summary: String) -> String {
        var out = [
            ".TH \(name.uppercased()) \(section) \"\" \"graphimport \(GraphImportCommand.version)\" \"File Formats\"",
            ".SH NAME",
            "\(name) \\- \(ManPage.escape(summary))",
        ]
        var inCode = false
        var inParagraph = false
        var inTable = false
        var first = true
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                out += inCode ? [".fi", ".RE"] : [".PP", ".RS 4", ".nf"]
                inCode.toggle()
                inParagraph = false
                continue
            }
            if inCode {
                out.append(ManPage.escape(line))
                continue
            }
            if line.hasPrefix("|") {
                if !inTable { out += [".PP", ".nf"] }
                inTable = true
                if !line.hasPrefix("|--") && !line.hasPrefix("|---") { out.append(ManPage.escape(line)) }
                continue
            } else if inTable {
                out.append(".fi")
                inTable = false
            }
            if let heading = heading(line) {
                inParagraph = false
                // The document's own title is the page's NAME.
                if first && heading.level == 1 {
                    first = false
                    continue
                }
                out.append((heading.level <= 2 ? ".SH " : ".SS ") + ManPage.escape(inline(heading.text)))
                continue
            }
            first = false
            let text = line.drop { $0 == " " }
            if text.isEmpty {
                inParagraph = false
                continue
            }
            if text.hasPrefix("- ") {
                out += [".IP \\(bu 2", ManPage.escape(inline(String(text.dropFirst(2)))).withBold]
                inParagraph = true
                continue
            }
            if !inParagraph {
                out.append(".PP")
                inParagraph = true
            }
            out.append(ManPage.escape(inline(String(text))).withBold)
        }
        if inCode { out += [".fi", ".RE"] }
        if inTable { out.append(".fi") }
        return out.joined(separator: "\n") + "\n"
    }

    private static func heading(_ line: String) -> (level: Int, text: String)? {
        let hashes = line.prefix { $0 == "#" }.count
        guard (1...4).contains(hashes), line.dropFirst(hashes).first == " " else { return nil }
        return (hashes, String(line.dropFirst(hashes + 1)))
    }

    /// Links as their text, emphasis markers dropped; inline code marked for bold (`withBold`).
    private static func inline(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "[") {
            guard let close = rest[open...].firstIndex(of: "]"), rest.index(after: close) < rest.endIndex,
                rest[rest.index(after: close)] == "(", let end = rest[close...].firstIndex(of: ")")
            else { break }
            out += rest[..<open] + rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: end)...]
        }
        out += rest
        return out.replacing("**", with: "")
    }
}

extension String {
    /// Text between backquotes in bold (`\fB…\fR`), the backquotes dropped.
    fileprivate var withBold: String {
        var out = ""
        var bold = false
        for character in self {
            if character == "`" {
                out += bold ? "\\fR" : "\\fB"
                bold.toggle()
            } else {
                out.append(character)
            }
        }
        return bold ? out + "\\fR" : out
    }
}
