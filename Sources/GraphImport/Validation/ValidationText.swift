import GraphImportMapping
import GraphImportSchema

/// The wording shared by the built-in validators: how a stored kind, a bound or a literal reads.
enum ValidationText {
    /// "cannot be checked with range: it is text": the map applied a check to a kind it cannot judge.
    static func cannotCheck(_ validator: String, _ value: SQLValue) -> String {
        "cannot be checked with \(validator): it is \(kindName(value))"
    }

    /// The stored kind as a person says it. Booleans are stored as integers, so they read as numbers.
    static func kindName(_ value: SQLValue) -> String {
        switch value {
        case .null: "null"
        case .integer, .real: "a number"
        case .text: "text"
        case .blob: "data"
        }
    }

    /// A numeric bound as written: whole numbers without ".0" (the map parser turns `range(0, 5)`
    /// into doubles), others in Swift's shortest form.
    static func number(_ value: Double) -> String {
        if value.rounded(.towardZero) == value, let whole = Int64(exactly: value) { return String(whole) }
        return String(value)
    }

    /// A literal as a map author would recognize it: strings in single quotes, the rest as written.
    static func literal(_ literal: Literal) -> String {
        switch literal {
        case .string(let text): quoted(text)
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): value ? "true" : "false"
        }
    }

    /// `'open'`: the text in single quotes, escaped as every message escapes it, not cut short.
    static func quoted(_ text: String) -> String {
        "'" + MessageText.escaped(text) + "'"
    }
}
