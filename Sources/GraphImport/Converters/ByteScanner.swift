#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A cursor over a string's UTF-8 bytes for the date parsers: each method consumes what it
/// recognizes and returns nil, without a useful position, when the text does not match.
struct ByteScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    /// Runs `body` over the UTF-8 bytes of `text` without copying them (for native strings).
    static func withBytes<T>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) throws(DateParseFailure) -> T) throws(DateParseFailure) -> T {
        var text = text
        let result: Result<T, DateParseFailure> = text.withUTF8 { buffer in
            do throws(DateParseFailure) { return .success(try body(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    var isAtEnd: Bool { position == bytes.count }
    var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Consumes `byte` when it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        position += 1
        return true
    }

    /// Consumes `literal` when the text continues with exactly those bytes.
    mutating func take(_ literal: [UInt8]) -> Bool {
        guard bytes.count - position >= literal.count else { return false }
        let matches = literal.withUnsafeBufferPointer { literal in
            literal.isEmpty || memcmp(bytes.baseAddress! + position, literal.baseAddress!, literal.count) == 0
        }
        if matches { position += literal.count }
        return matches
    }

    /// Reads `minimum` to `maximum` decimal digits, as many as there are.
    mutating func number(digits minimum: Int, _ maximum: Int) -> Int? {
        var value = 0
        var count = 0
        while count < maximum, let byte = current, ASCII.isDigit(byte) {
            value = value * 10 + Int(byte - ASCII.zero)
            count += 1
            position += 1
        }
        return count >= minimum ? value : nil
    }

    /// Reads `minimum` to `maximum` fraction digits and returns the milliseconds they hold;
    /// digits past the third are read and dropped (truncated, never rounded up into the next second).
    mutating func fractionMilliseconds(digits minimum: Int, _ maximum: Int) -> Int? {
        var milliseconds = 0
        var count = 0
        while count < maximum, let byte = current, ASCII.isDigit(byte) {
            if count < 3 { milliseconds = milliseconds * 10 + Int(byte - ASCII.zero) }
            count += 1
            position += 1
        }
        guard count >= minimum else { return nil }
        for _ in count..<max(count, 3) { milliseconds *= 10 }
        return milliseconds
    }

    /// Consumes the first of `names` the text continues with, ignoring ASCII case; returns its index.
    ///
    /// Over buffers: enumerating the arrays retained each name and copied each byte pair, a large
    /// part of parsing a date with names (figures in Benchmarks/README.md).
    mutating func name(in names: [[UInt8]]) -> Int? {
        let rest = bytes.count - position
        let start = bytes.baseAddress.map { $0 + position }
        return names.withUnsafeBufferPointer { names -> Int? in
            for index in names.indices {
                let found = names[index].withUnsafeBufferPointer { name -> Bool in
                    guard name.count <= rest else { return false }
                    for offset in name.indices where ASCII.lowercased(start![offset]) != ASCII.lowercased(name[offset]) { return false }
                    return true
                }
                if found {
                    position += names[index].count
                    return index
                }
            }
            return nil
        }
    }

    /// Reads a numeric UTC offset after its sign, `HH`, `HHMM` or `HH:MM` as `form` allows, in minutes.
    mutating func offset(_ form: OffsetForm) throws(DateParseFailure) -> Int? {
        guard let sign = current, sign == ASCII.plus || sign == ASCII.minus else { return nil }
        position += 1
        guard let hours = number(digits: 2, 2) else { return nil }
        // Whether minutes are written; a lone third digit (`+053`) is then refused, not read as `+05` and junk.
        let hasMinutes: Bool
        switch form {
        case .hoursAndMinutes: hasMinutes = true
        case .hoursColonMinutes:
            guard take(ASCII.colon) else { return nil }
            hasMinutes = true
        case .hoursOptionalMinutes: hasMinutes = take(ASCII.colon) || current.map(ASCII.isDigit) == true
        case .hoursOptionalPlainMinutes: hasMinutes = current.map(ASCII.isDigit) == true
        }
        var minutes = 0
        if hasMinutes {
            guard let value = number(digits: 2, 2) else { return nil }
            minutes = value
        }
        guard hours <= 23 else { throw .outOfRange("zone offset hour \(hours) is out of range") }
        guard minutes <= 59 else { throw .outOfRange("zone offset minute \(minutes) is out of range") }
        let total = hours * 60 + minutes
        return sign == ASCII.minus ? -total : total
    }

    /// The written forms of a numeric offset.
    enum OffsetForm {
        /// `+0530` (pattern `Z`, `XX`)
        case hoursAndMinutes
        /// `+05:30` (pattern `ZZZZZ`, `XXX`)
        case hoursColonMinutes
        /// `+05`, `+0530` or `+05:30` (ISO 8601)
        case hoursOptionalMinutes
        /// `+05` or `+0530` (pattern `X`)
        case hoursOptionalPlainMinutes
    }
}
