import Foundation
import GraphImportMapping
import GraphImportSchema

/// The built-in validators for `check`, each documented with what passes.
///
/// They judge the stored value (text, integer, real or blob; NULL never reaches them) and return a
/// short predicate when it fails. A check applied to a kind it cannot judge, such as `range` on
/// text, fails every value with "cannot be checked with range: it is text".
enum StandardValidators {
    static let all: [Validator] = [url, matches, range, length, oneOf, nonEmpty]

    /// `url`: text that is an absolute URL with a scheme and a host (`https://example.com/x`);
    /// `mailto:a@b` and `http://` fail. See `URLSyntax` for the exact shape.
    static let url = Validator(name: "url", summary: "text that is an absolute URL with a scheme and a host") { value in
        guard case .text(let text) = value else { return ValidationText.cannotCheck("url", value) }
        return URLSyntax.hasSchemeAndHost(text) ? nil : "is not a valid URL"
    }

    /// `matches("^[a-z]+$")`: text in which the regular expression matches somewhere, as grep
    /// searches; anchor it with `^…$` to match the whole value. The syntax is ICU's (that of
    /// NSRegularExpression); the pattern is compiled once, when the map is.
    static let matches = Validator(
        signature: ConverterSignature(name: "matches", parameters: [.string], summary: "text in which a regular expression matches somewhere (anchor with ^…$)")
    ) { arguments throws(ConversionError) in
        guard arguments.count == 1, case .string(let pattern) = arguments[0] else {
            throw ConversionError("check 'matches' needs one pattern string, such as matches(\"^[a-z]+$\")")
        }
        let expression: NSRegularExpression
        do {
            expression = try NSRegularExpression(pattern: pattern)
        } catch {
            throw ConversionError(
                "\(ValidationText.quoted(pattern)) is not a valid regular expression",
                hint: "matches uses ICU syntax; a backslash is written \\\\ inside a map string")
        }
        let message = "does not match \(pattern)"
        return { value in
            guard case .text(let text) = value else { return ValidationText.cannotCheck("matches", value) }
            let whole = NSRange(text.startIndex..<text.endIndex, in: text)
            return expression.firstMatch(in: text, range: whole) == nil ? message : nil
        }
    }

    /// `nonEmpty`: text with something other than whitespace (spaces, tabs, newlines, Unicode
    /// spaces), or data of at least one byte.
    static let nonEmpty = Validator(name: "nonEmpty", summary: "text that is not blank, or data that is not empty") { value in
        switch value {
        case .text(let text): text.contains { !$0.isWhitespace } ? nil : "must not be empty"
        case .blob(let bytes): bytes.isEmpty ? "must not be empty" : nil
        default: ValidationText.cannotCheck("nonEmpty", value)
        }
    }
}
