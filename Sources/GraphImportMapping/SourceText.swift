/// A map's text as UTF-8 bytes with the offset of each line's start, so that tokens can carry
/// plain byte offsets and line:column is worked out only when a location is needed.
struct SourceText: Sendable {
    let bytes: [UInt8]
    /// Byte offset where each line begins; line N (1-based) starts at `lineStarts[N - 1]`.
    let lineStarts: [Int]
    /// For a map with includes, the files `bytes` were spliced from; nil for a map of one file.
    private(set) var layout: MapSources?

    init(_ text: String) { self.init(bytes: Array(text.utf8)) }

    /// The text of a map and the files it includes, spliced; locations are in the file each offset comes from.
    init(spliced sources: MapSources) {
        self.init(bytes: sources.bytes)
        layout = sources
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == ASCII.newline { starts.append(offset + 1) }
        lineStarts = starts
    }

    /// The 1-based line and Unicode-scalar column of a byte offset, in the file it comes from
    /// (the offset stays the spliced one, which orders locations across files).
    func location(at offset: Int) -> SourceLocation {
        if let layout {
            let (file, local) = layout.place(of: offset)
            var location = layout.files[file].text.location(at: local)
            location.offset = offset
            return location
        }
        let offset = min(max(0, offset), bytes.count)
        // The last line start at or before the offset.
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        // A column counts scalars, so skip UTF-8 continuation bytes (10xxxxxx).
        var column = 1
        for byte in bytes[lineStarts[low]..<offset] where byte & 0xC0 != 0x80 { column += 1 }
        return SourceLocation(line: low + 1, column: column, offset: offset)
    }

    /// The text of a 1-based line without its line break; nil past the end.
    func line(_ number: Int) -> String? {
        guard number >= 1, number <= lineStarts.count else { return nil }
        let start = lineStarts[number - 1]
        var end = number < lineStarts.count ? lineStarts[number] - 1 : bytes.count
        if end > start, bytes[end - 1] == ASCII.carriageReturn { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The text of a byte range.
    func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
}

/// The bytes the lexer looks at, by name.
enum ASCII {
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22  // "
    static let hash: UInt8 = 0x23  // #
    static let dollar: UInt8 = 0x24  // $
    static let leftParen: UInt8 = 0x28  // (
    static let rightParen: UInt8 = 0x29  // )
    static let star: UInt8 = 0x2A  // *
    static let plus: UInt8 = 0x2B  // +
    static let comma: UInt8 = 0x2C  // ,
    static let minus: UInt8 = 0x2D  // -
    static let dot: UInt8 = 0x2E  // .
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let colon: UInt8 = 0x3A  // :
    static let less: UInt8 = 0x3C  // <
    static let equals: UInt8 = 0x3D  // =
    static let greater: UInt8 = 0x3E  // >
    static let question: UInt8 = 0x3F  // ?
    static let at: UInt8 = 0x40  // @
    static let upperA: UInt8 = 0x41
    static let upperE: UInt8 = 0x45
    static let upperF: UInt8 = 0x46
    static let upperT: UInt8 = 0x54
    static let upperZ: UInt8 = 0x5A
    static let leftBracket: UInt8 = 0x5B  // [
    static let backslash: UInt8 = 0x5C  // \
    static let rightBracket: UInt8 = 0x5D  // ]
    static let underscore: UInt8 = 0x5F  // _
    static let lowerA: UInt8 = 0x61
    static let lowerE: UInt8 = 0x65
    static let lowerF: UInt8 = 0x66
    static let lowerN: UInt8 = 0x6E
    static let lowerT: UInt8 = 0x74
    static let lowerU: UInt8 = 0x75
    static let lowerZ: UInt8 = 0x7A
    static let leftBrace: UInt8 = 0x7B  // {
    static let pipe: UInt8 = 0x7C  // |
    static let rightBrace: UInt8 = 0x7D  // }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= nine }
    static func isLetter(_ byte: UInt8) -> Bool { (byte >= upperA && byte <= upperZ) || (byte >= lowerA && byte <= lowerZ) }
    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= upperA && byte <= upperF) || (byte >= lowerA && byte <= lowerF)
    }
    /// `[A-Za-z_]`, the first character of a name.
    static func startsName(_ byte: UInt8) -> Bool { isLetter(byte) || byte == underscore }
    /// `[A-Za-z0-9_]`, the rest of a name.
    static func continuesName(_ byte: UInt8) -> Bool { startsName(byte) || isDigit(byte) }
    /// `[A-Za-z0-9_@$-]`, a plain key in a path.
    static func isPathKey(_ byte: UInt8) -> Bool { continuesName(byte) || byte == minus || byte == at || byte == dollar }
}
