import GraphImportMapping
import Testing

/// How a diagnostic is rendered: headline, quoted line, caret, help.
@Suite struct DiagnosticTests {
    @Test func warningSaysWarningInItsHeadlineAndKeepsTheCaret() throws {
        let mapping = try parse("entity User\n  key id\n  id : Int\n  login <- logn : String?\n")
        let login = try #require(mapping.entities[0].attribute(named: "login"))
        let diagnostic = mapping.diagnostic(at: login.pathLocation, "no record holds 'logn'", hint: "did you mean 'login'?", severity: .warning)
        #expect(
            diagnostic.description == """
                test.map:4:12: warning: no record holds 'logn'
                 4 |   login <- logn : String?
                   |            ^
                help: did you mean 'login'?
                """)
    }

    @Test func shorthandPathIsWhereTheNameIs() throws {
        let attribute = try #require(try parse("entity E\n  key id\n  id : Int\n").entities[0].attribute(named: "id"))
        #expect(attribute.pathLocation == attribute.location)
    }
}
