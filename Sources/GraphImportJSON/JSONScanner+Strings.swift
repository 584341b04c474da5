/// The largest scratch buffer `scanString` keeps for the next string.
private let keptScratchCapacity = 1 << 16

extension JSONScanner {
    /// The string at `pos` (its opening quote) when it has no escape, nothing but printable
    /// ASCII, and ends inside the window within the length limit (nearly every string and key):
    /// its bytes where they stand, `pos` past its closing quote. Otherwise nil and `pos` unmoved,
    /// for `scanString` to read it: the bytes this looked at are the ones it stops at first.
    @inline(__always)
    mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        let start = pos + 1
        let index = blockScan.stop(in: bytes, from: start, to: end)
        guard index < end && bytes[index] == ASCII.quote && index - start <= options.maxStringBytes else { return nil }
        pos = index + 1
        return UnsafeBufferPointer(start: bytes + start, count: index - start)
    }

    /// string = quotation-mark *char quotation-mark
    ///
    /// The one string scan: `pos` is at the opening quote; on return it is past the closing
    /// quote. Validates UTF-8, escapes and the length limit, and appends the string's bytes
    /// (escapes resolved) to `kept` unless it is nil (the string is only stepped over).
    mutating func scanString(keepingIn kept: inout [UInt8]?) throws(JSONError) {
        let quoteOffset = offset
        let keeps = kept != nil
        pos += 1
        if keeps { tokenStart = pos }
        defer { tokenStart = Int.max }
        while true {
            let stop = end
            let index = blockScan.stop(in: bytes, from: pos, to: stop)
            pos = index
            if index == stop {
                try checkStringLength(from: quoteOffset)
                if keeps {
                    // Moved aside so that the window does not have to grow with the string.
                    kept.append(bytes + tokenStart, count: pos - tokenStart)
                    tokenStart = pos
                }
                guard try fill() else { throw error(.syntax, JSONMessage.unterminatedString, at: quoteOffset) }
                continue
            }
            let byte = bytes[pos]
            if byte == ASCII.quote {
                try checkStringLength(from: quoteOffset)
                if keeps { kept.append(bytes + tokenStart, count: pos - tokenStart) }
                pos += 1
                return
            }
            if byte == ASCII.backslash {
                if keeps {
                    kept.append(bytes + tokenStart, count: pos - tokenStart)
                    tokenStart = pos
                }
                try scanEscape(into: &kept, quoteOffset: quoteOffset)
                if keeps { tokenStart = pos }
                continue
            }
            if byte < ASCII.space {
                throw error(.syntax, JSONMessage.controlCharacter(describeCurrent()), at: offset)
            }
            try skipUTF8Sequence(quoteOffset: quoteOffset)
        }
    }

    /// `scanString(keepingIn:)` giving the string as a String when `materialize` (made once: from
    /// the bytes in place when the string is plain, else from the scanner's scratch bytes), or
    /// only stepping over it ("").
    mutating func scanString(materialize: Bool) throws(JSONError) -> String {
        guard materialize else {
            var none: [UInt8]? = nil
            try scanString(keepingIn: &none)
            return ""
        }
        if let plain = plainString() { return String(decoding: plain, as: UTF8.self) }
        var scratch: [UInt8]? = takeScratch()
        try scanString(keepingIn: &scratch)
        let used = scratch.take()!
        // A long string's buffer is let go: the scanner's memory stays small.
        if used.capacity <= keptScratchCapacity { spareScratch = used }
        return String(decoding: used, as: UTF8.self)
    }

    /// `spareScratch`, emptied, and taken out of the scanner so that appending to it is
    /// appending to its only reference (`scanString(materialize:)` puts it back once the string is made).
    private mutating func takeScratch() -> [UInt8] {
        var scratch: [UInt8] = []
        swap(&scratch, &spareScratch)
        scratch.removeAll(keepingCapacity: true)
        return scratch
    }

    private func checkStringLength(from quoteOffset: Int) throws(JSONError) {
        if offset - quoteOffset - 1 > options.maxStringBytes {
            throw error(.limit, JSONMessage.stringTooLong(limit: options.maxStringBytes), at: quoteOffset)
        }
    }

    /// escape = %x5C ( %x22 / %x5C / %x2F / %x62 / %x66 / %x6E / %x72 / %x74 / %x75 4HEXDIG )
    ///
    /// A high surrogate must be followed by a low one (`\ud83d\ude00` is one scalar); a lone
    /// surrogate is refused because it names no Unicode scalar and cannot be stored as UTF-8.
    private mutating func scanEscape(into scratch: inout [UInt8]?, quoteOffset: Int) throws(JSONError) {
        guard let letter = try peek(ahead: 1) else { throw error(.syntax, JSONMessage.unterminatedString, at: quoteOffset) }
        let decoded: UInt8
        switch letter {
        case ASCII.quote, ASCII.backslash, ASCII.slash: decoded = letter
        case ASCII.lowerB: decoded = ASCII.backspace
        case ASCII.lowerF: decoded = ASCII.formFeed
        case ASCII.lowerN: decoded = ASCII.lineFeed
        case ASCII.lowerR: decoded = ASCII.carriageReturn
        case ASCII.lowerT: decoded = ASCII.tab
        case ASCII.lowerU:
            let escapeOffset = offset
            var scalar = try hexQuad(at: 2, quoteOffset: quoteOffset)
            if scalar >= 0xDC00 && scalar <= 0xDFFF {
                throw error(.encoding, JSONMessage.loneSurrogate(scalar), at: escapeOffset)
            }
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                guard try peek(ahead: 6) == ASCII.backslash, try peek(ahead: 7) == ASCII.lowerU else {
                    throw error(.encoding, JSONMessage.loneSurrogate(scalar), at: escapeOffset)
                }
                let low = try hexQuad(at: 8, quoteOffset: quoteOffset)
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw error(.encoding, JSONMessage.loneSurrogate(scalar), at: escapeOffset)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                pos += 6
            }
            pos += 6
            if scratch != nil { appendUTF8(scalar, to: &scratch!) }
            return
        default:
            pos += 1
            let found = describeCurrent()
            pos -= 1
            throw error(.syntax, JSONMessage.invalidEscape(found), at: offset)
        }
        pos += 2
        scratch?.append(decoded)
    }

    /// Four hexadecimal digits starting `ahead` bytes after `pos`.
    private mutating func hexQuad(at ahead: Int, quoteOffset: Int) throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for index in ahead..<(ahead + 4) {
            guard let byte = try peek(ahead: index) else {
                throw error(.syntax, JSONMessage.unterminatedString, at: quoteOffset)
            }
            guard let digit = ASCII.hexValue(byte) else {
                pos += index
                let found = describeCurrent()
                let badOffset = offset
                pos -= index
                throw error(.syntax, JSONMessage.expectedHexDigit(found: found), at: badOffset)
            }
            value = value << 4 | digit
        }
        return value
    }

    /// Checks one multi-byte UTF-8 sequence at `pos` (RFC 3629 section 4) and steps over it:
    /// no overlong forms, no encoded surrogates, nothing above U+10FFFF, no truncation.
    private mutating func skipUTF8Sequence(quoteOffset: Int) throws(JSONError) {
        let lead = bytes[pos]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw error(.encoding, JSONMessage.invalidUTF8(lead), at: offset)
        }
        for index in 1..<length {
            guard let byte = try peek(ahead: index) else {
                throw error(.syntax, JSONMessage.unterminatedString, at: quoteOffset)
            }
            if byte < low || byte > high { throw error(.encoding, JSONMessage.invalidUTF8(lead), at: offset) }
            low = 0x80
            high = 0xBF
        }
        pos += length
    }
}

/// Appends the UTF-8 encoding of a scalar value (already checked to be no surrogate).
@inline(__always)
func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
        out.append(UInt8(scalar))
    case 0x80..<0x800:
        out.append(UInt8(0xC0 | scalar >> 6))
        out.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
        out.append(UInt8(0xE0 | scalar >> 12))
        out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
        out.append(UInt8(0x80 | scalar & 0x3F))
    default:
        out.append(UInt8(0xF0 | scalar >> 18))
        out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
        out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
        out.append(UInt8(0x80 | scalar & 0x3F))
    }
}

extension Optional where Wrapped == [UInt8] {
    /// Appends `count` bytes, creating the array on first use.
    @inline(__always)
    mutating func append(_ start: UnsafeMutablePointer<UInt8>, count: Int) {
        if case .none = self { self = [] }
        if count > 0 { self!.append(contentsOf: UnsafeBufferPointer(start: start, count: count)) }
    }
}
