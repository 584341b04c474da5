import GraphImportMapping
import GraphImportSchema

/// A `derived "{title} ({releasedAt:yyyy})"` template with its attributes resolved and its formats
/// compiled, ready to render each object's text from the values it stores.
///
/// Values are shown as stored: text as is (String, URL, JSON, and a Date as
/// `YYYY-MM-DDTHH:MM:SS.sssZ`), an Int in decimal, a Double in Swift's shortest form, a Bool as
/// `true`/`false`. A Date takes a date pattern (`TemplateDateFormat`), an Int or Double a
/// printf-style format (`TemplateNumberFormat`); other types take none.
package struct CompiledTemplate: Sendable {
    /// How one attribute reference is shown.
    enum Rendering: Sendable {
        /// As stored, read according to the attribute's type.
        case plain(ValueType)
        case date(TemplateDateFormat)
        case number(TemplateNumberFormat)
    }

    /// Literal text, or the attribute at an index shown a certain way.
    enum Piece: Sendable {
        case text(String)
        case input(Int, Rendering)
    }

    private let pieces: [Piece]

    /// Indexes of the attributes the template reads, in order of first use.
    package let inputs: [Int]

    /// `resolve` gives, for an attribute name, its index and type in the entity; formats are checked here, once.
    package init(_ template: Template, resolve: (String) -> (index: Int, type: ValueType)?) throws(ConversionError) {
        var pieces: [Piece] = []
        var inputs: [Int] = []
        for part in template.parts {
            switch part {
            case .text(let text):
                pieces.append(.text(text))
            case .attribute(let name, let format):
                guard let (index, type) = resolve(name) else {
                    throw ConversionError("unknown attribute '\(name)' in the template")
                }
                if !inputs.contains(index) { inputs.append(index) }
                pieces.append(.input(index, try Self.rendering(name, type, format)))
            }
        }
        self.pieces = pieces
        self.inputs = inputs
    }

    /// How to show attribute `name` of `type` with `format`, or the error saying why it cannot be.
    private static func rendering(_ name: String, _ type: ValueType, _ format: String?) throws(ConversionError) -> Rendering {
        if type == .data {
            throw ConversionError("a template cannot show Data attribute '\(name)'", hint: "a template shows text, numbers, booleans and dates")
        }
        guard let format else { return .plain(type) }
        let mismatch = "format \(ValidationText.quoted(format)) cannot apply to \(type.rawValue) attribute '\(name)'"
        switch type {
        case .date:
            guard !format.contains("%") else {
                throw ConversionError(mismatch, hint: "a Date takes a date pattern such as 'yyyy-MM-dd HH:mm'")
            }
            return .date(try TemplateDateFormat(format))
        case .int, .double:
            guard let number = TemplateNumberFormat(format), type == .int || !number.needsInteger else {
                let examples = type == .int ? "'%d', '%5d', '%05d', '%,d', '%x' or '%.2f'" : "'%.2f', '%,.1f' or '%8.3f'"
                throw ConversionError(mismatch, hint: "\(type == .int ? "an Int" : "a Double") takes a printf-style format such as \(examples)")
            }
            return .number(number)
        default:
            throw ConversionError(mismatch, hint: "only Date, Int and Double attributes take a format")
        }
    }

    /// The rendered text, or .null when any input is NULL.
    package func render(_ value: (Int) -> SQLValue) -> SQLValue {
        for index in inputs where value(index).isNull { return .null }
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let text): out += text
            case .input(let index, let rendering): Self.append(value(index), rendering, to: &out)
            }
        }
        return .text(out)
    }

    /// Appends one value as `rendering` says; a value stored in another shape than its type's
    /// (which the engine does not produce) is shown as stored.
    private static func append(_ value: SQLValue, _ rendering: Rendering, to out: inout String) {
        switch (rendering, value) {
        case (.date(let format), .text(let text)):
            if let date = StoredDate(text) { format.format(date, into: &out) } else { out += text }
        case (.number(let format), .integer(let integer)): format.format(integer, into: &out)
        case (.number(let format), .real(let real)): format.format(real, into: &out)
        case (.plain(.bool), .integer(let integer)): out += integer != 0 ? "true" : "false"
        case (_, .text(let text)): out += text
        case (_, .integer(let integer)): out += String(integer)
        case (_, .real(let real)): out += real.description
        case (_, .blob), (_, .null): out += value.description
        }
    }
}
