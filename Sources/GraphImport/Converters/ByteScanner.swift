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

    /// Reads `minimum` to `maximum` decimal digits, as many as there are; two and four digits,
    /// the usual fixed widths, without a loop.
    @inline(__always)
    mutating func number(digits minimum: Int, _ maximum: Int) -> Int? {
        if minimum == maximum, maximum == 2 || maximum == 4, bytes.count - position >= maximum {
            let first = bytes[position] &- ASCII.zero
            let second = bytes[position + 1] &- ASCII.zero
            guard first < 10, second < 10 else { return nil }
            var value = Int(first) &* 10 &+ Int(second)
            if maximum == 4 {
                let third = bytes[position + 2] &- ASCII.zero
                let fourth = bytes[position + 3] &- ASCII.zero
                guard third < 10, fourth < 10 else { return nil }
                value = value &* 100 &+ Int(third) &* 10 &+ Int(fourth)
            }
            position += maximum
            return value
        }
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

// MARK: - Fixed-width fields and packed names, for a compiled date pattern

extension ByteScanner {
    /// The next three bytes with the case bit set, packed first-lowest into one word: equal to a
    /// lower-case name's three letters packed the same way exactly when they spell it in any ASCII
    /// case (only a letter and its capital differ by that bit alone).
    @inline(__always)
    func nextWord() -> UInt32? {
        guard bytes.count - position >= 3 else { return nil }
        return UInt32(bytes[position] | ASCII.caseBit) | UInt32(bytes[position + 1] | ASCII.caseBit) << 8
            | UInt32(bytes[position + 2] | ASCII.caseBit) << 16
    }

    /// Consumes `count` (1–8) bytes equal to the first `count` of `word` (first-lowest).
    @inline(__always)
    mutating func take(word: UInt64, count: Int) -> Bool {
        guard bytes.count - position >= count else { return false }
        var rest = word
        for index in position..<position + count {
            guard bytes[index] == UInt8(truncatingIfNeeded: rest) else { return false }
            rest &>>= 8
        }
        position += count
        return true
    }

    /// Consumes an English month or weekday name in any ASCII case and returns its index: `index`
    /// finds the name by its first three letters (`nextWord()`), and `names` holds the whole
    /// names when the whole name is written.
    @inline(__always)
    mutating func englishName(_ index: (UInt32) -> Int?, full names: [[UInt8]]?) -> Int? {
        guard let word = nextWord(), let index = index(word) else { return nil }
        guard let names else {
            position += 3
            return index
        }
        let found = names[index].withUnsafeBufferPointer { name -> Bool in
            guard bytes.count - position >= name.count else { return false }
            for offset in 3..<name.count where bytes[position + offset] | ASCII.caseBit != name[offset] | ASCII.caseBit { return false }
            return true
        }
        guard found else { return nil }
        position += names[index].count
        return index
    }

    /// Consumes `AM` or `PM` in any case; true for PM.
    mutating func dayPeriod() -> Bool? {
        guard bytes.count - position >= 2, bytes[position + 1] | ASCII.caseBit == ASCII.lowerM else { return nil }
        let afternoon: Bool
        switch bytes[position] | ASCII.caseBit {
        case ASCII.lowerA: afternoon = false
        case ASCII.lowerP: afternoon = true
        default: return nil
        }
        position += 2
        return afternoon
    }

    /// `gmt` and `utc` as `nextWord()` packs them.
    private static let gmtWord: UInt32 = 0x74_6D67
    private static let utcWord: UInt32 = 0x63_7475

    /// Consumes a zone name that means UTC, in any case: `GMT`, `UTC`, else `UT`, else `Z`
    /// (so that `UTC` is not read as `UT` and a stray `C`).
    mutating func utcName() -> Bool {
        if let word = nextWord(), word == ByteScanner.gmtWord || word == ByteScanner.utcWord {
            position += 3
            return true
        }
        let rest = bytes.count - position
        if rest >= 2, bytes[position] | ASCII.caseBit == ASCII.lowerU, bytes[position + 1] | ASCII.caseBit == ASCII.lowerT {
            position += 2
            return true
        }
        if rest >= 1, bytes[position] | ASCII.caseBit == ASCII.lowerZ {
            position += 1
            return true
        }
        return false
    }
}
