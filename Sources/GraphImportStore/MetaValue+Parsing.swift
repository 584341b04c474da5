extension MetaValue {
    /// Reads command-line text as `type`:
    /// - bool: `true`, `false`, `1` or `0`;
    /// - integer: an optional sign and decimal digits, within 64 bits;
    /// - double: a finite decimal number (`1.5`, `-2e3`, `.5`), no `inf`, `nan` or hex;
    /// - string: the text as is;
    /// - date: ISO 8601 with `Z` or an offset, normalised to UTC milliseconds (see `MetaDate`);
    /// - json: any text SQLite's `json_valid` accepts, kept as written.
    public static func parse(_ text: String, as type: MetaType) throws(MetaValueError) -> MetaValue {
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
            guard let date = MetaDate.normalized(text) else {
                throw MetaValueError(
                    text: text, type: type,
                    reason: "expected an ISO 8601 date and time with a zone, such as 2024-05-01T12:00:00Z or 2024-05-01T14:00:00+02:00")
            }
            return .date(date)
        case .json:
            let valid: Bool
            do {
                // json_valid needs a connection; an in-memory one costs microseconds and no file.
                valid = try Database(path: ":memory:").isValidJSON(text)
            } catch {
                throw MetaValueError(text: text, type: type, reason: "JSON cannot be checked: \(error)")
            }
            guard valid else { throw MetaValueError(text: text, type: type, reason: "expected valid JSON text") }
            return .json(text)
        }
    }

    /// `[+-]digits`.
    private static func isDecimalInteger(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if let first = bytes.first, first == ASCIIByte.plus || first == ASCIIByte.minus { bytes = bytes.dropFirst() }
        return !bytes.isEmpty && bytes.allSatisfy(ASCIIByte.isDigit)
    }

    /// `[+-](digits[.digits?] | .digits)([eE][+-]digits)?`.
    private static func isDecimalNumber(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        func skipSign() {
            if index < bytes.count, bytes[index] == ASCIIByte.plus || bytes[index] == ASCIIByte.minus { index += 1 }
        }
        func digitCount() -> Int {
            let start = index
            while index < bytes.count, ASCIIByte.isDigit(bytes[index]) { index += 1 }
            return index - start
        }
        skipSign()
        var mantissaDigits = digitCount()
        if index < bytes.count, bytes[index] == ASCIIByte.period {
            index += 1
            mantissaDigits += digitCount()
        }
        guard mantissaDigits > 0 else { return false }
        if index < bytes.count, bytes[index] == ASCIIByte.lowerE || bytes[index] == ASCIIByte.upperE {
            index += 1
            skipSign()
            guard digitCount() > 0 else { return false }
        }
        return index == bytes.count
    }
}

extension Database {
    /// True when SQLite's `json_valid` accepts `text` (RFC 8259 JSON, any value at the top).
    func isValidJSON(_ text: String) throws(StoreError) -> Bool {
        try scalar("SELECT json_valid(?)", [.text(text)]) == .integer(1)
    }
}
