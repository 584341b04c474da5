/// Turns map bytes into tokens one at a time. A value type: copying it is how the parser peeks.
///
/// Paths need their own token rules (`coordinates.0`, `first-name`, `_id.$oid` are keys there, not
/// numbers or operators), so the parser asks for each token in the mode it expects.
struct Lexer: Sendable {
    enum Mode { case normal, path }

    let bytes: [UInt8]
    private(set) var position: Int = 0

    init(_ source: SourceText) { bytes = source.bytes }

    /// Moves back to `offset` so a token can be read again in another mode.
    mutating func rewind(to offset: Int) { position = offset }

    /// The next token; spaces, tabs, carriage returns and `#` comments are skipped, line breaks are tokens.
    mutating func next(_ mode: Mode = .normal) -> Token {
        skipTrivia()
        let start = position
        guard position < bytes.count else { return Token(kind: .end, range: start..<start) }
        let byte = bytes[position]
        position += 1
        func token(_ kind: Token.Kind) -> Token { Token(kind: kind, range: start..<position) }

        switch byte {
        case ASCII.newline: return token(.newline)
        case ASCII.quote: return token(scanString())
        case ASCII.colon: return token(.colon)
        case ASCII.equals: return token(.equals)
        case ASCII.comma: return token(.comma)
        case ASCII.dot: return token(.dot)
        case ASCII.leftBracket: return token(.leftBracket)
        case ASCII.rightBracket: return token(.rightBracket)
        case ASCII.leftParen: return token(.leftParen)
        case ASCII.rightParen: return token(.rightParen)
        case ASCII.pipe: return token(.pipe)
        case ASCII.question: return token(.question)
        case ASCII.star: return token(.star)
        case ASCII.less where peek() == ASCII.minus:
            position += 1
            return token(.arrow)
        case ASCII.minus where peek() == ASCII.greater:
            position += 1
            return token(.caseArrow)
        default: break
        }
        if mode == .path && byte == ASCII.leftBrace { return token(.leftBrace) }
        if mode == .path && byte == ASCII.rightBrace { return token(.rightBrace) }
        if mode == .path, ASCII.isPathKey(byte) {
            while let next = peek(), ASCII.isPathKey(next) { position += 1 }
            return token(.pathKey)
        }
        if byte == ASCII.dollar { return token(.dollar) }
        if ASCII.startsName(byte) {
            while let next = peek(), ASCII.continuesName(next) { position += 1 }
            return token(.identifier)
        }
        if ASCII.isDigit(byte) || (byte == ASCII.minus && peek().map(ASCII.isDigit) == true) {
            position -= 1
            return token(scanNumber())
        }
        // One whole scalar, so that "found 'é'" quotes a character rather than half of one.
        while let next = peek(), next & 0xC0 == 0x80 { position += 1 }
        return token(.unexpected)
    }

    private func peek(_ ahead: Int = 0) -> UInt8? {
        position + ahead < bytes.count ? bytes[position + ahead] : nil
    }

    private mutating func skipTrivia() {
        while let byte = peek() {
            if byte == ASCII.space || byte == ASCII.tab || byte == ASCII.carriageReturn {
                position += 1
            } else if byte == ASCII.hash {
                while let next = peek(), next != ASCII.newline { position += 1 }
            } else {
                return
            }
        }
    }

    /// After the opening quote: up to the closing quote, stepping over escapes; never past the line.
    private mutating func scanString() -> Token.Kind {
        while let byte = peek(), byte != ASCII.newline {
            position += 1
            if byte == ASCII.quote { return .string }
            if byte == ASCII.backslash, let escaped = peek(), escaped != ASCII.newline { position += 1 }
        }
        return .unterminatedString
    }

    /// `-?[0-9]+ ( "." [0-9]+ )? ( [eE] [+-]? [0-9]+ )?`
    private mutating func scanNumber() -> Token.Kind {
        var kind = Token.Kind.integer
        if peek() == ASCII.minus { position += 1 }
        while let byte = peek(), ASCII.isDigit(byte) { position += 1 }
        if peek() == ASCII.dot, let digit = peek(1), ASCII.isDigit(digit) {
            kind = .decimal
            position += 1
            while let byte = peek(), ASCII.isDigit(byte) { position += 1 }
        }
        if let e = peek(), e == ASCII.lowerE || e == ASCII.upperE {
            var ahead = 1
            if let sign = peek(1), sign == ASCII.plus || sign == ASCII.minus { ahead = 2 }
            if let digit = peek(ahead), ASCII.isDigit(digit) {
                kind = .decimal
                position += ahead
                while let byte = peek(), ASCII.isDigit(byte) { position += 1 }
            }
        }
        return kind
    }

    /// The text of a `.string` token with its escapes (`\"` `\\` `\n` `\t` `\uXXXX`) resolved;
    /// a bad escape is reported at its backslash.
    func decodeString(_ token: Token) throws(Problem) -> String {
        let content = (token.start + 1)..<(token.range.upperBound - 1)
        guard bytes[content].contains(ASCII.backslash) else { return String(decoding: bytes[content], as: UTF8.self) }
        var offsets: [Int]?
        return String(decoding: try decodeBytes(token, offsets: &offsets), as: UTF8.self)
    }

    /// The decoded bytes of a `.string` token and, for each, the source offset it came from, so
    /// that a problem inside the text (a template's `{`) can point at its exact column.
    func decodeStringWithOffsets(_ token: Token) throws(Problem) -> (bytes: [UInt8], offsets: [Int]) {
        var offsets: [Int]? = []
        let decoded = try decodeBytes(token, offsets: &offsets)
        return (decoded, offsets ?? [])
    }

    private func decodeBytes(_ token: Token, offsets: inout [Int]?) throws(Problem) -> [UInt8] {
        let content = (token.start + 1)..<(token.range.upperBound - 1)
        var result: [UInt8] = []
        var index = content.lowerBound
        while index < content.upperBound {
            let byte = bytes[index]
            guard byte == ASCII.backslash else {
                result.append(byte)
                offsets?.append(index)
                index += 1
                continue
            }
            let escaped = bytes[index + 1]
            let before = result.count
            switch escaped {
            case ASCII.quote, ASCII.backslash: result.append(escaped)
            case ASCII.lowerN: result.append(ASCII.newline)
            case ASCII.lowerT: result.append(ASCII.tab)
            case ASCII.lowerU:
                let hex = (index + 2)..<min(index + 6, content.upperBound)
                guard hex.count == 4, bytes[hex].allSatisfy(ASCII.isHexDigit),
                    let value = UInt32(String(decoding: bytes[hex], as: UTF8.self), radix: 16),
                    let scalar = Unicode.Scalar(value)
                else { throw .badUnicodeEscape(String(decoding: bytes[index..<hex.upperBound], as: UTF8.self), at: index) }
                result.append(contentsOf: Array(String(Character(scalar)).utf8))
                offsets?.append(contentsOf: repeatElement(index, count: result.count - before))
                index += 6
                continue
            default:
                var end = index + 2
                while end < content.upperBound, bytes[end] & 0xC0 == 0x80 { end += 1 }
                throw .unknownEscape(String(decoding: bytes[index..<end], as: UTF8.self), at: index)
            }
            offsets?.append(index)
            index += 2
        }
        return result
    }
}
