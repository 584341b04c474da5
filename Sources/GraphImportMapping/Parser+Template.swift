extension Parser {
    /// template  = STRING whose text is { TEXT | "{{" | "}}" | reference } ;
    /// reference = "{" NAME [ ":" FORMAT ] "}" ;     FORMAT = any text but "}", not empty
    ///
    /// Problems point into the string at the brace they concern, escapes taken into account.
    mutating func parseTemplate() throws(Problem) -> Located<TemplateSyntax> {
        let offset = current.start
        switch current.kind {
        case .string: break
        case .unterminatedString: throw .unterminatedString(at: offset)
        default: throw expected("a template string after 'derived'")
        }
        let (bytes, offsets) = try lexer.decodeStringWithOffsets(current)
        advance()
        var parts: [TemplatePart] = []
        var references: [Located<String>] = []
        var literal: [UInt8] = []
        func flush() {
            if !literal.isEmpty { parts.append(.text(String(decoding: literal, as: UTF8.self))) }
            literal = []
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : nil
            if byte == ASCII.rightBrace {
                guard next == ASCII.rightBrace else { throw .unmatchedTemplateBrace(at: offsets[index]) }
                literal.append(byte)
                index += 2
            } else if byte == ASCII.leftBrace, next == ASCII.leftBrace {
                literal.append(byte)
                index += 2
            } else if byte == ASCII.leftBrace {
                guard let close = bytes[index...].firstIndex(of: ASCII.rightBrace) else {
                    throw .unterminatedTemplateReference(at: offsets[index])
                }
                let inside = bytes[(index + 1)..<close]
                let colon = inside.firstIndex(of: ASCII.colon)
                let name = inside[..<(colon ?? close)]
                let format = colon.map { bytes[($0 + 1)..<close] }
                guard let first = name.first, ASCII.startsName(first), name.allSatisfy(ASCII.continuesName), format?.isEmpty != true
                else {
                    throw .badTemplateReference(String(decoding: bytes[index...close], as: UTF8.self), at: offsets[index])
                }
                flush()
                let nameText = String(decoding: name, as: UTF8.self)
                parts.append(.attribute(name: nameText, format: format.map { String(decoding: $0, as: UTF8.self) }))
                references.append(Located(value: nameText, offset: offsets[index + 1]))
                index = close + 1
            } else {
                literal.append(byte)
                index += 1
            }
        }
        flush()
        let text = String(decoding: bytes, as: UTF8.self)
        return Located(value: TemplateSyntax(text: text, parts: parts, references: references), offset: offset)
    }
}
