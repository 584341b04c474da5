/// The shape the `url` check accepts, read over UTF-8 bytes (RFC 3986, section 3):
///
///     scheme "://" [ userinfo "@" ] host [ ":" port ] [ path ] [ "?" query ] [ "#" fragment ]
///
/// The scheme is `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`; the host is a bracketed IP literal
/// or a non-empty reg-name (letters, digits, `-._~`, `%`, `!$&'()*+,;=`, or non-ASCII for
/// internationalized names); the port is digits. Nothing in the URL may be whitespace or a control
/// character. So `mailto:a@b`, `file:///tmp` and `http://` fail: they have no host.
enum URLSyntax {
    static func hasSchemeAndHost(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.contains(where: { $0 <= ASCII.space || $0 == ASCII.delete }) else { return false }
        guard let colon = schemeEnd(bytes), colon + 2 < bytes.count,
            bytes[colon + 1] == ASCII.slash, bytes[colon + 2] == ASCII.slash
        else { return false }
        let start = colon + 3
        let end = bytes[start...].firstIndex { $0 == ASCII.slash || $0 == ASCII.question || $0 == ASCII.hash } ?? bytes.count
        let authority = bytes[start..<end]
        let hostStart = authority.lastIndex(of: ASCII.at).map { $0 + 1 } ?? start
        return isHostAndPort(bytes[hostStart..<end])
    }

    /// The index of the colon after a valid scheme, or nil.
    private static func schemeEnd(_ bytes: [UInt8]) -> Int? {
        guard let first = bytes.first, ASCII.isLetter(first) else { return nil }
        for index in 1..<bytes.count {
            let byte = bytes[index]
            if byte == ASCII.colon { return index }
            guard ASCII.isLetter(byte) || ASCII.isDigit(byte) || byte == ASCII.plus || byte == ASCII.minus || byte == ASCII.period else { return nil }
        }
        return nil
    }

    /// `host [ ":" port ]` with a non-empty host.
    private static func isHostAndPort(_ bytes: ArraySlice<UInt8>) -> Bool {
        var hostEnd = bytes.endIndex
        if bytes.first == ASCII.leftBracket {
            guard let close = bytes.firstIndex(of: ASCII.rightBracket), close > bytes.startIndex + 1 else { return false }
            let literal = bytes[(bytes.startIndex + 1)..<close]
            guard literal.allSatisfy({ ASCII.isHexDigit($0) || $0 == ASCII.colon || $0 == ASCII.period }) else { return false }
            hostEnd = close + 1
            guard hostEnd == bytes.endIndex || bytes[hostEnd] == ASCII.colon else { return false }
        } else {
            hostEnd = bytes.firstIndex(of: ASCII.colon) ?? bytes.endIndex
            guard hostEnd > bytes.startIndex, bytes[bytes.startIndex..<hostEnd].allSatisfy(isRegNameByte) else { return false }
        }
        guard hostEnd < bytes.endIndex else { return true }
        return bytes[(hostEnd + 1)...].allSatisfy(ASCII.isDigit)
    }

    /// unreserved / pct-encoded / sub-delims, or any byte of a non-ASCII character.
    private static func isRegNameByte(_ byte: UInt8) -> Bool {
        if byte >= 0x80 || ASCII.isLetter(byte) || ASCII.isDigit(byte) { return true }
        return regNameMarks.contains(byte)
    }

    /// `-._~`, `%`, and the sub-delims `!$&'()*+,;=`.
    private static let regNameMarks: Set<UInt8> = Set("-._~%!$&'()*+,;=".utf8)

}
