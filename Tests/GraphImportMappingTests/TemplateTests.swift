import GraphImportMapping
import Testing

/// `derived "template"`: values built from other attributes of the same object.
@Suite struct TemplateTests {
    static let movie = """
        entity Movie
          key id
          id : Int
          title : String
          releasedAt : Date | iso8601
          price : Double?
          author : Person?
        entity Person
          key id
          id : Int

        """

    /// The only diagnostic of `movie` with `line` added to Movie, as (headline, hint).
    func error(_ line: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> (String, String?)? {
        onlyError(Self.movie.replacing("  author", with: "  " + line + "\n  author"), sourceLocation: sourceLocation)
    }

    @Test func parsesTemplateIntoTextAndReferences() throws {
        let mapping = try parse(
            """
            entity Movie
              key id
              id : Int
              title : String
              releasedAt : Date | iso8601
              price : Double?
              label : String | trim derived "{title} ({releasedAt:yyyy}) {{{price:%.2f}}}"
            """)
        let label = try #require(mapping.entities[0].attribute(named: "label"))
        #expect(
            label
                == Attribute(
                    name: "label", source: nil, type: .string, isOptional: false,
                    converters: [ConverterCall(name: "trim", arguments: [], location: at(7, 20, 117))], location: at(7, 3, 100),
                    derived: Template(
                        text: "{title} ({releasedAt:yyyy}) {{{price:%.2f}}}",
                        parts: [
                            .attribute(name: "title", format: nil), .text(" ("), .attribute(name: "releasedAt", format: "yyyy"),
                            .text(") {"), .attribute(name: "price", format: "%.2f"), .text("}"),
                        ],
                        location: at(7, 33, 130))))
        #expect(label.derived?.attributeNames == ["title", "releasedAt", "price"])
    }

    @Test(arguments: [
        ("", [TemplatePart]()), ("plain", [.text("plain")]), ("{{}}", [.text("{}")]),
        ("{id}{id}", [.attribute(name: "id", format: nil), .attribute(name: "id", format: nil)]),
        ("\\u00e9{id:%05d}\\n", [.text("é"), .attribute(name: "id", format: "%05d"), .text("\n")]),
        ("{id: yyyy-MM-dd HH:mm }", [.attribute(name: "id", format: " yyyy-MM-dd HH:mm ")]),
    ])
    func splitsTemplateIntoParts(written: String, parts: [TemplatePart]) throws {
        let mapping = try parse("entity E\n  key id\n  id : Int\n  v : String derived \"\(written)\"\n")
        #expect(mapping.entities[0].attribute(named: "v")?.derived?.parts == parts)
    }

    @Test(arguments: [
        ("\"{title\"", "test.map:7:27: error: unterminated '{' in a template", "close it with '}', or write '{{' for a literal brace"),
        ("\"a } b\"", "test.map:7:29: error: unmatched '}' in a template", "write '}}' for a literal brace"),
        (
            "\"{}\"", "test.map:7:27: error: '{}' is not `{attribute}` or `{attribute:format}`",
            "name an attribute of this entity; write '{{' and '}}' for literal braces"
        ),
        (
            "\"x{a b}\"", "test.map:7:28: error: '{a b}' is not `{attribute}` or `{attribute:format}`",
            "name an attribute of this entity; write '{{' and '}}' for literal braces"
        ),
        (
            "\"{title:}\"", "test.map:7:27: error: '{title:}' is not `{attribute}` or `{attribute:format}`",
            "name an attribute of this entity; write '{{' and '}}' for literal braces"
        ),
        (
            "\"\\t\\u00e9{titl}\"", "test.map:7:36: error: the template names no attribute 'titl' of entity 'Movie'",
            "did you mean 'title'?"
        ),
        ("\"{author}\"", "test.map:7:28: error: a template names attributes; 'author' is a relationship", nil),
        (
            "\"{label}\"", "test.map:7:28: error: a template cannot use 'label', which is derived itself",
            "name the attributes that 'label' is built from"
        ),
        ("title", "test.map:7:26: error: expected a template string after 'derived', found 'title'", nil),
        ("\"{title}", "test.map:7:26: error: unterminated string", "close it with '\"' on the same line"),
    ])
    func rejectsBadTemplate(template: String, headline: String, hint: String?) {
        let found = error("label : String derived \(template)")
        #expect(found?.0 == headline)
        #expect(found?.1 == hint)
    }

    @Test func rejectsTemplateUsingAnotherDerivedAttribute() {
        let found = error("full : String derived \"{short}!\"\n  short : String derived \"{title}\"")
        #expect(found?.0 == "test.map:7:27: error: a template cannot use 'short', which is derived itself")
    }

    @Test func rejectsDerivedAttributeWithPath() {
        let found = error("label <- label : String derived \"{title}\"")
        #expect(found?.0 == "test.map:7:9: error: derived attribute 'label' cannot have a path")
        #expect(found?.1 == "its value is built from its template; remove `<- path`")
    }

    @Test(arguments: ["default \"x\"", "always \"x\"", "onchange \"x\"", "null \"x\"", "missing keep"])
    func rejectsDerivedAttributeWithValueClause(clause: String) {
        let keyword = String(clause.prefix { $0 != " " })
        let found = error("label : String? derived \"{title}\" \(clause)")
        #expect(found?.0 == "test.map:7:37: error: derived attribute 'label' cannot have '\(keyword)'")
        #expect(found?.1 == "its value always comes from its template")
    }

    @Test func derivedAttributeMayHaveChecks() throws {
        let mapping = try parse(Self.movie.replacing("  author", with: "  label : String derived \"{title}\" check nonEmpty\n  author"))
        #expect(mapping.entities[0].attribute(named: "label")?.checks.map(\.name) == ["nonEmpty"])
    }
}
