/// One problem found in a map, rendered like a compiler's:
///
///     tweets.map:7:36: error: unknown converter 'iso8610'
///      7 |   createdAt <- created_at : Date | iso8610
///        |                                    ^
///     help: did you mean 'iso8601'?
///
/// A problem in an included file names that file, and a note names the `include` that brought it in.
public struct Diagnostic: Error, Sendable, Equatable, CustomStringConvertible {
    public var fileName: String
    public var location: SourceLocation
    /// What is wrong, one sentence, no trailing period (`unknown converter 'iso8610'`).
    public var message: String
    /// What to do about it (`did you mean 'iso8601'?`), or nil.
    public var hint: String?
    /// The text of the line the location is on, without its newline; nil when unknown.
    public var sourceLine: String?
    /// Whether the problem stops the map being used (`error`), is worth a look (`warning`), or is
    /// only said for information (`note`: `check --strict` does not fail on it).
    public var severity: Severity
    /// Where the problem came from, one line each (`included from mastodon.map:1:1`), shown after the hint.
    public var notes: [String]

    /// How serious a diagnostic is, as its headline says it.
    public enum Severity: String, Sendable, Equatable {
        case error, warning, note
    }

    public init(
        fileName: String, location: SourceLocation, message: String, hint: String? = nil, sourceLine: String? = nil,
        severity: Severity = .error, notes: [String] = []
    ) {
        self.notes = notes
        self.fileName = fileName
        self.location = location
        self.message = message
        self.hint = hint
        self.sourceLine = sourceLine
        self.severity = severity
    }

    /// `FILE:LINE:COL: error: MESSAGE` (or `warning:`) alone, the greppable first line.
    public var headline: String { Diagnostic.escaped("\(fileName):\(location.line):\(location.column): \(severity.rawValue): \(message)") }

    /// The headline, the source line with a caret under the column, and the hint. Control
    /// characters of the map (an ESC, a carriage return) are shown escaped, `\u{1b}`, so that a
    /// map never drives the terminal and the caret stays under its column.
    public var description: String {
        var text = headline
        if let sourceLine {
            let gutter = String(location.line)
            let pad = String(repeating: " ", count: gutter.count)
            var shown = ""
            var caretIndent = ""
            for (index, scalar) in sourceLine.unicodeScalars.enumerated() {
                let rendered = scalar == "\t" ? "\t" : Diagnostic.escaped(String(scalar))
                shown += rendered
                if index < location.column - 1 {
                    caretIndent += scalar == "\t" ? "\t" : String(repeating: " ", count: rendered.unicodeScalars.count)
                }
            }
            text += "\n \(gutter) | \(shown)\n \(pad) | \(caretIndent)^"
        }
        if let hint { text += "\nhelp: " + Diagnostic.escaped(hint) }
        for note in notes { text += "\nnote: " + Diagnostic.escaped(note) }
        return text
    }

    /// `text` with C0 and C1 control characters and line separators as `\u{…}` escapes.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029 {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// Every problem found in a map, in source order. Thrown when a map has at least one error.
public struct MappingErrors: Error, Sendable, Equatable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
