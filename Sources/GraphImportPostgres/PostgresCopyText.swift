package import GraphImportSchema

/// Rows in COPY's text format (`PostgresConnection.copy(into:columns:text:)`), written value by
/// value straight into one byte buffer: no array of values per batch, no allocation per value.
/// Emptied with `removeAll` and filled again, the buffer keeps its capacity from COPY to COPY.
package struct PostgresCopyText {
    package private(set) var bytes: [UInt8] = []
    /// Why a value cannot be sent (the first text with a NUL character, which PostgreSQL's text
    /// cannot hold); nil when every value can.
    package private(set) var encodingError: String?
    /// Whether a value of the current row is written (the next one follows a tab).
    private var inRow = false

    package init() {}

    package var isEmpty: Bool { bytes.isEmpty }

    /// Forgets the rows, keeping the buffer's capacity.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        encodingError = nil
        inRow = false
    }

    /// Appends a value to the current row.
    package mutating func append(_ value: SQLValue) {
        if inRow { bytes.append(UInt8(ascii: "\t")) }
        inRow = true
        if let error = Self.append(value, to: &bytes), encodingError == nil { encodingError = error }
    }

    /// Appends values to the current row. (Concrete, not generic: a generic one is not
    /// specialized for the callers in other modules.)
    package mutating func append(_ values: ArraySlice<SQLValue>) {
        for value in values { append(value) }
    }

    /// Appends values to the current row.
    package mutating func append(_ values: [SQLValue]) {
        for value in values { append(value) }
    }

    /// Appends an integer to the current row.
    package mutating func append(_ number: Int64) {
        if inRow { bytes.append(UInt8(ascii: "\t")) }
        inRow = true
        Self.appendDecimal(number, to: &bytes)
    }

    /// Ends the current row.
    package mutating func endRow() {
        bytes.append(UInt8(ascii: "\n"))
        inRow = false
    }

    /// Appends `value` in COPY's text format: `\N` for NULL, backslash escapes for `\`, tab,
    /// newline and carriage return, a blob as bytea's hex form. Returns why a value cannot be
    /// sent (a text with a NUL character, which PostgreSQL's text cannot hold), else nil.
    static func append(_ value: SQLValue, to buffer: inout [UInt8]) -> String? {
        switch value {
        case .null:
            buffer.append(UInt8(ascii: "\\"))
            buffer.append(UInt8(ascii: "N"))
        case .integer(let number):
            appendDecimal(number, to: &buffer)
        case .real(let number):
            if number.isNaN {
                buffer += "NaN".utf8
            } else if number.isInfinite {
                buffer += (number < 0 ? "-Infinity" : "Infinity").utf8
            } else {
                buffer += String(number).utf8
            }
        case .text(var text):
            return text.withUTF8 { appendEscaped($0, to: &buffer) }
        case .blob(let bytes):
            // bytea's `\x` hex form, its backslash escaped for COPY.
            buffer.append(UInt8(ascii: "\\"))
            buffer.append(UInt8(ascii: "\\"))
            buffer.append(UInt8(ascii: "x"))
            for byte in bytes {
                buffer.append(hexDigit(byte >> 4))
                buffer.append(hexDigit(byte & 15))
            }
        }
        return nil
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10 }

    /// A text's UTF-8 with COPY's escapes, its plain runs appended whole. The runs are found
    /// eight bytes at a time (`mayNeedCare`): a byte-by-byte scan of every text was most of a
    /// first import's COPY text.
    private static func appendEscaped(_ text: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) -> String? {
        guard let base = text.baseAddress else { return nil }
        var start = 0
        var index = 0
        while index < text.count {
            if index + 8 <= text.count, !mayNeedCare(UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))) {
                index += 8
                continue
            }
            let byte = text[index]
            index += 1
            // Every byte that needs care is a control character (below 14) or the backslash.
            guard byte < 14 || byte == UInt8(ascii: "\\") else { continue }
            let escape: UInt8
            switch byte {
            case 0: return "a text value holds a NUL character, which PostgreSQL cannot store"
            case UInt8(ascii: "\\"): escape = UInt8(ascii: "\\")
            case UInt8(ascii: "\t"): escape = UInt8(ascii: "t")
            case UInt8(ascii: "\n"): escape = UInt8(ascii: "n")
            case UInt8(ascii: "\r"): escape = UInt8(ascii: "r")
            default: continue
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<(index - 1)]))
            buffer.append(UInt8(ascii: "\\"))
            buffer.append(escape)
            start = index
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<text.count]))
        return nil
    }

    /// Whether one of the eight bytes of `word` may be below 14 or a backslash (never false
    /// when one is; a byte after one that is may count too): a byte `b` is below `n` when
    /// `b - n` borrows into its high bit while `b`'s own high bit is clear.
    private static func mayNeedCare(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 14) & ~word & highs
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let backslash = (backslashes &- ones) & ~backslashes & highs
        return (control | backslash) != 0
    }

    /// An integer's decimal digits, written without a `String` in between.
    static func appendDecimal(_ number: Int64, to buffer: inout [UInt8]) {
        if number < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        if magnitude < 10 {
            buffer.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 20 digits at most, in 24 bytes
        withUnsafeMutableBytes(of: &digits) { scratch in
            var start = scratch.count
            while magnitude > 0 {
                start -= 1
                scratch[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[start...]))
        }
    }
}
