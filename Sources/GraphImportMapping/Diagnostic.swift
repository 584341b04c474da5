/// One problem found in a map, rendered like a compiler's:
///
///     tweets.map:7:36: error: unknown converter 'iso8610'
///      7 |   createdAt <- created_at : Date | iso8610
///        |                                    ^
///     help: did you mean 'iso8601'?
public struct Diagnostic: Error, Sendable, Equatable, CustomStringConvertible {
    public var fileName: String
    public var location: SourceLocation
    /// What is wrong, one sentence, no trailing period (`unknown converter 'iso8610'`).
    public var message: String
    /// What to do about it (`did you mean 'iso8601'?`), or nil.
    public var hint: String?
    /// The text of the line the location is on, without its newline; nil when unknown.
    public var sourceLine: String?
    /// Whether the problem stops the map being used (`error`) or is only worth a look (`warning`).
    public var severity: Severity

    /// How serious a diagnostic is, as its headline says it.
    public enum Severity: String, Sendable, Equatable {
        case error, warning
    }

    public init(
        fileName: String, location: SourceLocation, message: String, hint: String? = nil, sourceLine: String? = nil,
        severity: Severity = .error
    ) {
        self.fileName = fileName
        self.location = location
        self.message = message
        self.hint = hint
        self.sourceLine = sourceLine
        self.severity = severity
    }

    /// `FILE:LINE:COL: error: MESSAGE` (or `warning:`) alone, the greppable first line.
    public var headline: String { "\(fileName):\(location.line):\(location.column): \(severity.rawValue): \(message)" }

    /// The headline, the source line with a caret under the column, and the hint.
    public var description: String {
        var text = headline
        if let sourceLine {
            let gutter = String(location.line)
            let pad = String(repeating: " ", count: gutter.count)
            let caretIndent = String(sourceLine.unicodeScalars.prefix(max(0, location.column - 1)).map { $0 == "\t" ? "\t" : " " })
            text += "\n \(gutter) | \(sourceLine)\n \(pad) | \(caretIndent)^"
        }
        if let hint { text += "\nhelp: \(hint)" }
        return text
    }
}

/// Every problem found in a map, in source order. Thrown when a map has at least one error.
public struct MappingErrors: Error, Sendable, Equatable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
