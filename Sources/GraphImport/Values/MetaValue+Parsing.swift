import GraphImportJSON
import GraphImportSchema

/// Reading a metadata value from text (`graphimport meta set`, `--set-meta`): the engine's work,
/// with the engine's parsers, so that the store only stores.
extension MetaValue {
    /// Reads command-line text as `type`:
    /// - bool: `true`, `false`, `1` or `0`;
    /// - integer: an optional sign and decimal digits, within 64 bits;
    /// - double: a finite decimal number (`1.5`, `-2e3`, `.5`), no `inf`, `nan` or hex;
    /// - string: the text as is;
    /// - date: ISO 8601 with `Z` or an offset (`ISO8601Parser`'s `instant` form), normalised to
    ///   UTC milliseconds within years 0000-9999, the shape the store keeps;
    /// - json: RFC 8259 JSON text (any value at the top), kept as written.
    package static func parse(_ text: String, as type: MetaType) throws(MetaValueError) -> MetaValue {
        switch type {
        case .bool:
            switch text {
            case "true", "1": return .bool(true)
            case "false", "0": return .bool(false)
            default: throw MetaValueError(text: text, type: type, reason: "expected true, false, 1 or 0")
            }
        case .integer:
            guard isDecimalInteger(text) else {
                throw MetaValueError(text: text, type: type, reason: "expected decimal digits with an optional sign, such as 42 or -7")
            }
            guard let integer = Int64(text) else {
                throw MetaValueError(text: text, type: type, reason: "it is out of the range of a 64-bit integer")
            }
            return .integer(integer)
        case .double:
            guard isDecimalNumber(text) else {
                throw MetaValueError(text: text, type: type, reason: "expected a decimal number, such as 1.5 or -2e3")
            }
            guard let double = Double(text), double.isFinite else {
                throw MetaValueError(text: text, type: type, reason: "it is out of the range of a double")
            }
            return .double(double)
        case .string:
            return .string(text)
        case .date:
            guard let instant = try? ISO8601Parser.parse(text, form: .instant), (0...9999).contains(CivilTime(instant).year) else {
                throw MetaValueError(
                    text: text, type: type,
                    reason: "expected an ISO 8601 date and time with a zone, such as 2024-05-01T12:00:00Z or 2024-05-01T14:00:00+02:00")
            }
            return .date(Coercion.isoText(instant))
        case .json:
            guard (try? JSONParser.parse(text, options: jsonTextOptions)) != nil else {
                throw MetaValueError(text: text, type: type, reason: "expected valid JSON text")
            }
            return .json(text)
        }
    }

    /// JSON text as the store's `json_valid` takes it: RFC 8259 allows repeated keys (a feed's
    /// reader refuses them, a stored value keeps them as written), nesting as deep as SQLite's.
    private static let jsonTextOptions = JSONReaderOptions(maxDepth: 1000, rejectDuplicateKeys: false)

    /// `[+-]digits`.
    private static func isDecimalInteger(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if let first = bytes.first, first == ASCII.plus || first == ASCII.minus { bytes = bytes.dropFirst() }
        return !bytes.isEmpty && bytes.allSatisfy(ASCII.isDigit)
    }

    /// `[+-](digits[.digits?] | .digits)([eE][+-]digits)?`.
    private static func isDecimalNumber(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        func skipSign() {
            if index < bytes.count, bytes[index] == ASCII.plus || bytes[index] == ASCII.minus { index += 1 }
        }
        func digitCount() -> Int {
            let start = index
            while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
            return index - start
        }
        skipSign()
        var mantissaDigits = digitCount()
        if index < bytes.count, bytes[index] == ASCII.period {
            index += 1
            mantissaDigits += digitCount()
        }
        guard mantissaDigits > 0 else { return false }
        if index < bytes.count, bytes[index] == ASCII.lowerE || bytes[index] == ASCII.upperE {
            index += 1
            skipSign()
            guard digitCount() > 0 else { return false }
        }
        return index == bytes.count
    }
}
