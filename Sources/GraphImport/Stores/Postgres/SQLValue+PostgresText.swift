import GraphImportSchema

extension SQLValue {
    /// A value as libpq's text result gives it, typed after its column as the SQLite store types
    /// it (`BIGINT` as an integer, `BYTEA` from its `\x` hex form), so that keys read back from
    /// either store print and encode alike. NULL is nil.
    init(postgresText text: String?, type: ColumnType) {
        guard let text else {
            self = .null
            return
        }
        switch type {
        case .integer: self = Int64(text).map(SQLValue.integer) ?? .text(text)
        case .real: self = Double(text).map(SQLValue.real) ?? .text(text)
        case .text, .any: self = .text(text)
        case .blob:
            var bytes: [UInt8] = []
            let digits = Array(text.utf8.dropFirst(2))
            bytes.reserveCapacity(digits.count / 2)
            var index = 0
            while index + 1 < digits.count, let high = Self.hexValue(digits[index]), let low = Self.hexValue(digits[index + 1]) {
                bytes.append(high << 4 | low)
                index += 2
            }
            self = .blob(bytes)
        }
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
