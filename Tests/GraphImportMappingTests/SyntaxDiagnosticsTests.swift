import GraphImportMapping
import Testing

/// Syntax errors: "expected X, found Y" at the offending token, recovery at the next line.
@Suite struct SyntaxDiagnosticsTests {
    static let entity = "entity E\n  key id\n  id : Int\n"

    @Test func reportsMissingColonAfterAttributeName() {
        let error = onlyError(Self.entity + "  count Int\n")
        #expect(error?.0 == "test.map:4:9: error: expected ':' and a type after the attribute name, found 'Int'")
        #expect(error?.1 == nil)
    }

    @Test(arguments: [
        ("  v <- a Int", "test.map:4:10: error: expected ':' and a type after the path, found 'Int'"),
        ("  v :", "test.map:4:6: error: expected a type after ':', found end of line"),
        ("  v : # comment", "test.map:4:6: error: expected a type after ':', found end of line"),
        ("  v : Int Int", "test.map:4:11: error: expected '|' and a converter, or end of line after the type, found 'Int'"),
        ("  v : Int |", "test.map:4:12: error: expected a converter name after '|', found end of line"),
        ("  v : Int | trim x", "test.map:4:18: error: expected '|' and a converter, or end of line after the converter, found 'x'"),
        ("  v : Date | date(\"x\"", "test.map:4:22: error: expected ',' or ')' after the argument, found end of line"),
        ("  v : Date | date(x)", "test.map:4:19: error: expected an argument (a string, a number, true or false), found 'x'"),
        ("  v : Date | date(\"x)", "test.map:4:19: error: unterminated string"),
        ("  v : Int | round(99999999999999999999)", "test.map:4:19: error: integer '99999999999999999999' does not fit in 64 bits"),
        ("  v : E extra", "test.map:4:9: error: expected 'inverse' or end of line after the type, found 'extra'"),
        ("  v : E inverse", "test.map:4:16: error: expected a relationship name after 'inverse', found end of line"),
        ("  v : E inverse a b", "test.map:4:19: error: expected end of line after the inverse name, found 'b'"),
        ("  v : [E", "test.map:4:9: error: expected ']' after the entity name, found end of line"),
        ("  v : Int é", "test.map:4:11: error: expected '|' and a converter, or end of line after the type, found 'é'"),
        ("  key", "test.map:4:6: error: expected an attribute name after 'key', found end of line"),
        ("  key id,", "test.map:4:10: error: expected an attribute name after ',', found end of line"),
        ("  key id name", "test.map:4:10: error: expected ',' or end of line after the key attribute, found 'name'"),
        ("  : Int", "test.map:4:3: error: expected `records`, `entity`, `key` or an attribute name at the start of a line, found ':'"),
        ("entity", "test.map:4:7: error: expected an entity name after 'entity', found end of line"),
        ("entity F tabel f", "test.map:4:10: error: expected 'table' or end of line after the entity name, found 'tabel'"),
        ("entity F table", "test.map:4:15: error: expected a table name after 'table', found end of line"),
        ("entity F table \"\"", "test.map:4:16: error: a table name cannot be empty"),
        ("entity F table f g", "test.map:4:18: error: expected end of line after the table name, found 'g'"),
        ("records $[*]", "test.map:4:9: error: expected 'at' after 'records', found '$'"),
        ("records at", "test.map:4:11: error: expected a path after 'at', found end of line"),
        ("records at x,", "test.map:4:14: error: expected a path after ',', found end of line"),
        ("records at x y", "test.map:4:14: error: expected ',', 'as' or end of line after the path, found 'y'"),
        ("records at x as", "test.map:4:16: error: expected an entity name after 'as', found end of line"),
        ("records at x as E F", "test.map:4:19: error: expected end of line after the entity name, found 'F'"),
    ])
    func reportsSyntaxError(line: String, headline: String) {
        #expect(headlines(Self.entity + line + "\n") == [headline])
    }

    @Test func suggestsStatementKeywordForMisspelledStatement() {
        let error = onlyError("entiy User\n  key id\n  id : Int\n")
        #expect(error?.0 == "test.map:1:1: error: unknown statement 'entiy'")
        #expect(error?.1 == "did you mean 'entity'?")
    }

    @Test func explainsStatementsForUnknownWordBeforeAnyEntity() {
        let found = diagnostics("frobnicate everything\n" + Self.entity)
        #expect(found.map(\.headline) == ["test.map:1:1: error: unknown statement 'frobnicate'"])
        #expect(
            found.first?.hint
                == "a line is `records at PATH`, `entity NAME`, `key NAME` or an attribute `name <- path : Type`")
    }

    @Test func rejectsMemberBeforeAnyEntity() {
        let error = onlyError("  id : Int\n" + Self.entity)
        #expect(error?.0 == "test.map:1:3: error: 'id' appears before any entity")
        #expect(error?.1 == "attribute and relationship lines belong to the `entity NAME` line above them")
    }

    @Test func rejectsKeyBeforeAnyEntity() {
        let error = onlyError("key id\n" + Self.entity)
        #expect(error?.0 == "test.map:1:1: error: 'key' appears before any entity")
        #expect(error?.1 == "put `key NAME` below the `entity NAME` line it belongs to")
    }

    @Test func reportsBadEscapeWithHint() {
        let found = diagnostics(Self.entity + "  v : Date | date(\"\\x\")\n")
        #expect(found.map(\.headline) == ["test.map:4:20: error: unknown escape '\\x' in a string"])
        #expect(found.first?.hint == "a string accepts \\\" \\\\ \\n \\t and \\uXXXX")
    }

    @Test func recoversAtNextLineAndReportsEveryError() {
        let found = headlines(
            """
            entity Tweet
              key id
              id Int
              text <- text : String
              lang <- a. : String
              user : User inverse
            entity User
              key id
              id : Int
            """)
        #expect(
            found == [
                "test.map:3:6: error: expected ':' and a type after the attribute name, found 'Int'",
                "test.map:5:14: error: expected a key right after '.', found ':'",
                "test.map:6:22: error: expected a relationship name after 'inverse', found end of line",
            ])
    }

    @Test func brokenEntityLineCausesNoFollowUpErrors() {
        // The members still get their syntax checked, but `User` is not reported as unknown
        // and has no "missing key" error: the entity line's own error says it all.
        let found = headlines(
            """
            entity Tweet
              key id
              id : Int
              author : User
            entity User tabel users
              key id
              id Int
            """)
        #expect(
            found == [
                "test.map:5:13: error: expected 'table' or end of line after the entity name, found 'tabel'",
                "test.map:7:6: error: expected ':' and a type after the attribute name, found 'Int'",
            ])
    }

    @Test func brokenMemberLineCausesNoKeyError() {
        #expect(
            headlines("entity E\n  key id\n  id Int\n")
                == ["test.map:3:6: error: expected ':' and a type after the attribute name, found 'Int'"])
    }

    @Test func brokenKeyLineCausesNoMissingKeyError() {
        #expect(
            headlines("entity E\n  key id,\n  id : Int\n")
                == ["test.map:2:10: error: expected an attribute name after ',', found end of line"])
    }

    @Test func rendersSourceLineCaretAndHint() {
        let found = diagnostics(Self.entity + "  createdAt <- created_at : Date | iso8610\n")
        #expect(
            found.map(\.description) == [
                """
                test.map:4:36: error: unknown converter 'iso8610'
                 4 |   createdAt <- created_at : Date | iso8610
                   |                                    ^
                help: did you mean 'iso8601'?
                """
            ])
    }

    @Test func rendersAllErrorsTogether() {
        do {
            _ = try parse("entity E\n  key id\n  id : Strin\n  n : Int | trimm\n")
            Issue.record("the map parsed")
        } catch {
            #expect(
                error.description == """
                    test.map:3:8: error: unknown type 'Strin'
                     3 |   id : Strin
                       |        ^
                    help: did you mean 'String'?
                    test.map:4:13: error: unknown converter 'trimm'
                     4 |   n : Int | trimm
                       |             ^
                    help: did you mean 'trim'?
                    """)
        }
    }
}
