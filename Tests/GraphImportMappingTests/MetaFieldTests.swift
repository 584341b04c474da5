import GraphImportMapping
import Testing

/// `meta NAME [<- PATH] : TYPE[?] { | converter }`: response-level values read from the document's root.
@Suite struct MetaFieldTests {
    static let entity = "entity E\n  key id\n  id : Int\n"

    @Test func parsesMetaLinesIntoMetaFields() throws {
        let mapping = try parse(
            """
            meta sinceId <- search_metadata.max_id : Int
            meta cursor <- data.after : String?
            meta hasMore <- has_more : Bool
            meta count : Int | round(0)
            entity E
              key id
              id : Int
              meta : String
            """)
        #expect(
            mapping.meta == [
                MetaField(
                    name: "sinceId", source: KeyPath([.key("search_metadata"), .key("max_id")]), type: .int, isOptional: false,
                    converters: [], location: at(1, 6, 5), pathLocation: at(1, 17, 16)),
                MetaField(
                    name: "cursor", source: KeyPath([.key("data"), .key("after")]), type: .string, isOptional: true,
                    converters: [], location: at(2, 6, 50), pathLocation: at(2, 16, 60)),
                MetaField(
                    name: "hasMore", source: KeyPath([.key("has_more")]), type: .bool, isOptional: false, converters: [],
                    location: at(3, 6, 86), pathLocation: at(3, 17, 97)),
                MetaField(
                    name: "count", source: KeyPath([.key("count")]), type: .int, isOptional: false,
                    converters: [ConverterCall(name: "round", arguments: [.int(0)], location: at(4, 20, 132))],
                    location: at(4, 6, 118)),
            ])
        // `meta` followed by ':' is still an attribute named meta.
        #expect(mapping.entities[0].attributes.map(\.name) == ["id", "meta"])
    }

    @Test func metaLineMayFollowEntities() throws {
        let mapping = try parse(Self.entity + "meta total <- $.total : Int?\n  name : String\n")
        #expect(mapping.meta.map(\.name) == ["total"])
        #expect(mapping.entities[0].attributes.map(\.name) == ["id", "name"])
    }

    @Test func mapWithoutMetaHasNone() throws {
        #expect(try parse(Self.entity).meta == [])
    }

    @Test func rejectsDuplicateMetaName() {
        let error = onlyError("meta cursor : String\nmeta cursor <- after : String\n" + Self.entity)
        #expect(error?.0 == "test.map:2:6: error: duplicate meta 'cursor' (already declared at line 1)")
        #expect(error?.1 == nil)
    }

    @Test(arguments: [("E", 15), ("[E]", 16)])
    func rejectsEntityAsMetaType(type: String, column: Int) {
        let error = onlyError("meta parent : \(type)\n" + Self.entity)
        #expect(error?.0 == "test.map:1:\(column): error: meta 'parent' cannot have type '\(type)'")
        #expect(error?.1 == "a meta value is one of String, Int, Double, Bool, Date, URL, Data, JSON")
    }

    @Test func suggestsBuiltInTypeForUnknownMetaType() {
        let error = onlyError("meta cursor : Strin\n" + Self.entity)
        #expect(error?.0 == "test.map:1:15: error: unknown type 'Strin'")
        #expect(error?.1 == "did you mean 'String'?")
    }

    @Test func checksMetaConverters() {
        let error = onlyError("meta since : Date | iso8610\n" + Self.entity)
        #expect(error?.0 == "test.map:1:21: error: unknown converter 'iso8610'")
        #expect(error?.1 == "did you mean 'iso8601'?")
    }

    @Test(arguments: [
        ("meta", "test.map:1:5: error: expected a name after 'meta', found end of line"),
        ("meta cursor", "test.map:1:12: error: expected '<-' and a path, or ':' and a type after the meta name, found end of line"),
        ("meta cursor <- after String", "test.map:1:22: error: expected ':' and a type after the path, found 'String'"),
        ("meta cursor <- data[*].after : String", "test.map:1:20: error: '[*]' is allowed only in a `records` path"),
        ("meta cursor : String default \"x\"", "test.map:1:22: error: expected '|' and a converter, or end of line after the type, found 'default'"),
        ("meta cursor : String | trim x", "test.map:1:29: error: expected '|' and a converter, or end of line after the converter, found 'x'"),
    ])
    func reportsMetaSyntaxError(line: String, headline: String) {
        #expect(headlines(line + "\n" + Self.entity) == [headline])
    }
}
