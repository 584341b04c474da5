import Testing

@testable import GraphImportMapping

/// The lexer's token kinds and byte ranges, in both modes.
@Suite struct LexerTests {
    /// Every token of `text` up to the end, as (kind, text).
    func tokens(_ text: String, mode: Lexer.Mode = .normal) -> [(Token.Kind, String)] {
        let source = SourceText(text)
        var lexer = Lexer(source)
        var result: [(Token.Kind, String)] = []
        while true {
            let token = lexer.next(mode)
            if token.kind == .end { return result }
            result.append((token.kind, source.text(token.range)))
        }
    }

    @Test func lexesMemberLineSkippingComment() {
        let found = tokens("  lat <- geo[1] : Double? | round(-2, 1.5e3) # note\n")
        #expect(
            found.map(\.0) == [
                .identifier, .arrow, .identifier, .leftBracket, .integer, .rightBracket, .colon, .identifier, .question,
                .pipe, .identifier, .leftParen, .integer, .comma, .decimal, .rightParen, .newline,
            ])
        #expect(found.map(\.1) == ["lat", "<-", "geo", "[", "1", "]", ":", "Double", "?", "|", "round", "(", "-2", ",", "1.5e3", ")", "\n"])
    }

    @Test func pathModeReadsKeysThatNormalModeSplits() {
        #expect(tokens("first-name._id.$oid.0", mode: .path).map(\.1) == ["first-name", ".", "_id", ".", "$oid", ".", "0"])
        #expect(tokens("first-name 0.5").map(\.0) == [.identifier, .unexpected, .identifier, .decimal])
    }

    @Test func stringRunsToClosingQuoteOverEscapes() {
        #expect(tokens("\"a\\\"b\" \"open\n").map(\.0) == [.string, .unterminatedString, .newline])
    }

    @Test func unexpectedTokenIsOneWholeScalar() {
        #expect(tokens("é;").map(\.1) == ["é", ";"])
    }

    @Test(arguments: [("a\nb", 2, 1, 2), ("é\nxé", 2, 3, 6), ("abc", 1, 4, 3), ("\n\n", 3, 1, 2)])
    func locatesOffsetsAsLineAndScalarColumn(text: String, line: Int, column: Int, offset: Int) {
        let location = SourceText(text).location(at: offset)
        #expect((location.line, location.column) == (line, column))
    }
}
