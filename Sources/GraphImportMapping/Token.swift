/// One token of a map: what it is and where its bytes are. The text is read from the source only
/// when the parser needs it, so tokens stay two words and a tag.
struct Token: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// `[A-Za-z_][A-Za-z0-9_]*`: keywords, names, types, converters, `true`/`false`.
        case identifier
        /// `-?[0-9]+`
        case integer
        /// `-?[0-9]+.[0-9]+` and/or with an exponent.
        case decimal
        /// `"…"`, escapes still in place; decoded by `Lexer.decodeString`.
        case string
        /// A `"` with no closing quote before the end of its line.
        case unterminatedString
        /// `[A-Za-z0-9_@$-]+`, lexed only inside a path.
        case pathKey
        case arrow  // <-
        case caseArrow  // ->
        /// `=`, in a `where` condition.
        case equals
        case colon, comma, dot, leftBracket, rightBracket, leftParen, rightParen, pipe, question, star, dollar
        /// `{` and `}`, lexed only inside a path (`users{*}`).
        case leftBrace, rightBrace
        case newline
        case end
        /// One Unicode scalar that starts no token.
        case unexpected
    }

    var kind: Kind
    /// Byte offsets into the source.
    var range: Range<Int>

    var start: Int { range.lowerBound }
}
