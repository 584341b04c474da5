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
        guard !bytes.contains(where: { $0 <= Byte.space || $0 == Byte.delete }) else { return false }
        guard let colon = schemeEnd(bytes), colon + 2 < bytes.count,
            bytes[colon + 1] == Byte.slash, bytes[colon + 2] == Byte.slash
        else { return false }
        let start = colon + 3
        let end = bytes[start...].firstIndex { $0 == Byte.slash || $0 == Byte.question || $0 == Byte.hash } ?? bytes.count
        let authority = bytes[start..<end]
        let hostStart = authority.lastIndex(of: Byte.at).map { $0 + 1 } ?? start
        return isHostAndPort(bytes[hostStart..<end])
    }

    /// The index of the colon after a valid scheme, or nil.
    private static func schemeEnd(_ bytes: [UInt8]) -> Int? {
        guard let first = bytes.first, isLetter(first) else { return nil }
        for index in 1..<bytes.count {
            let byte = bytes[index]
            if byte == Byte.colon { return index }
            guard isLetter(byte) || isDigit(byte) || byte == Byte.plus || byte == Byte.minus || byte == Byte.period else { return nil }
        }
        return nil
    }

    /// `host [ ":" port ]` with a non-empty host.
    private static func isHostAndPort(_ bytes: ArraySlice<UInt8>) -> Bool {
        var hostEnd = bytes.endIndex
        if bytes.first == Byte.leftBracket {
            guard let close = bytes.firstIndex(of: Byte.rightBracket), close > bytes.startIndex + 1 else { return false }
            let literal = bytes[(bytes.startIndex + 1)..<close]
            guard literal.allSatisfy({ isHexDigit($0) || $0 == Byte.colon || $0 == Byte.period }) else { return false }
            hostEnd = close + 1
            guard hostEnd == bytes.endIndex || bytes[hostEnd] == Byte.colon else { return false }
        } else {
            hostEnd = bytes.firstIndex(of: Byte.colon) ?? bytes.endIndex
            guard hostEnd > bytes.startIndex, bytes[bytes.startIndex..<hostEnd].allSatisfy(isRegNameByte) else { return false }
        }
        guard hostEnd < bytes.endIndex else { return true }
        return bytes[(hostEnd + 1)...].allSatisfy(isDigit)
    }

    /// unreserved / pct-encoded / sub-delims, or any byte of a non-ASCII character.
    private static func isRegNameByte(_ byte: UInt8) -> Bool {
        if byte >= 0x80 || isLetter(byte) || isDigit(byte) { return true }
        return regNameMarks.contains(byte)
    }

    /// `-._~`, `%`, and the sub-delims `!$&'()*+,;=`.
    private static let regNameMarks: Set<UInt8> = Set("-._~%!$&'()*+,;=".utf8)

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= Byte.lowercaseA && (byte | 0x20) <= Byte.lowercaseZ }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= Byte.zero && byte <= Byte.nine }
    private static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || ((byte | 0x20) >= Byte.lowercaseA && (byte | 0x20) <= Byte.lowercaseF) }

    /// The ASCII bytes a URL's structure is made of.
    private enum Byte {
        static let space: UInt8 = 0x20
        static let delete: UInt8 = 0x7F
        static let hash: UInt8 = 0x23
        static let plus: UInt8 = 0x2B
        static let minus: UInt8 = 0x2D
        static let period: UInt8 = 0x2E
        static let slash: UInt8 = 0x2F
        static let zero: UInt8 = 0x30
        static let nine: UInt8 = 0x39
        static let colon: UInt8 = 0x3A
        static let question: UInt8 = 0x3F
        static let at: UInt8 = 0x40
        static let leftBracket: UInt8 = 0x5B
        static let rightBracket: UInt8 = 0x5D
        static let lowercaseA: UInt8 = 0x61
        static let lowercaseF: UInt8 = 0x66
        static let lowercaseZ: UInt8 = 0x7A
    }
}
