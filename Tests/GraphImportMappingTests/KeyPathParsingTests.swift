import GraphImportMapping
import Testing

/// Every path form, in member lines and `records` lines, and the errors paths can have.
@Suite struct KeyPathParsingTests {
    /// The path a member line `value <- PATH : JSON?` reads.
    func memberPath(_ path: String) throws -> KeyPath? {
        try parse("entity E\n key id\n id : Int\n value <- \(path) : JSON?\n").entities[0].attribute(named: "value")?.source
    }

    @Test(arguments: [
        ("id", [KeyPath.Component.key("id")]),
        ("user.screen_name", [.key("user"), .key("screen_name")]),
        ("geometry.coordinates[1]", [.key("geometry"), .key("coordinates"), .index(1)]),
        ("$", []),
        ("$.a", [.key("a")]),
        ("$[0]", [.index(0)]),
        ("$[0][12].x", [.index(0), .index(12), .key("x")]),
        ("a[\"odd key\"]", [.key("a"), .key("odd key")]),
        ("\"odd \\\"key\\\"\".x", [.key("odd \"key\""), .key("x")]),
        ("\"\\u00e9t\\u00e9\"", [.key("été")]),
        ("first-name", [.key("first-name")]),
        ("@id", [.key("@id")]),
        ("_id.$oid", [.key("_id"), .key("$oid")]),
        ("0", [.key("0")]),
        ("a.0.b", [.key("a"), .key("0"), .key("b")]),
        ("a.\"\".b", [.key("a"), .key(""), .key("b")]),
    ])
    func parsesMemberPath(written: String, components: [KeyPath.Component]) throws {
        #expect(try memberPath(written) == KeyPath(components))
    }

    @Test(arguments: [
        KeyPath([.key("user"), .key("screen_name")]), KeyPath([]), KeyPath([.index(3), .key("a b")]),
        KeyPath([.key("$oid")]), KeyPath([.key("x"), .key("$oid"), .key("line\nbreak\u{1}")]),
        KeyPath([.key(""), .key("first-name"), .key("0")]), KeyPath([.key("quote\"back\\slash\ttab")]),
    ])
    func descriptionParsesBackToSamePath(path: KeyPath) throws {
        #expect(try memberPath(path.description) == path)
    }

    @Test func descriptionWritesKeysPlainWhereItCan() {
        #expect(KeyPath([.key("_id"), .key("$oid"), .index(0)]).description == "_id.$oid[0]")
        #expect(KeyPath([.key("$oid"), .key("a b")]).description == "\"$oid\".\"a b\"")
        #expect(KeyPath([.anyIndex, .key("x")]).description == "$[*].x")
    }

    @Test func recordsPathsMayUseAnyIndex() throws {
        let mapping = try parse("records at $[*], data.children[*].data, a[*][*]\nentity E\n key id\n id : Int")
        #expect(
            mapping.records[0].paths == [
                KeyPath([.anyIndex]), KeyPath([.key("data"), .key("children"), .anyIndex, .key("data")]),
                KeyPath([.key("a"), .anyIndex, .anyIndex]),
            ])
    }

    @Test func rejectsAnyIndexInMemberPath() {
        let error = onlyError("entity E\n key id\n id : Int\n tags <- entities.tags[*] : String\n")
        #expect(error?.0 == "test.map:4:23: error: '[*]' is allowed only in a `records` path")
        #expect(error?.1 == "a to-many relationship `name <- path : [Entity]` maps arrays")
    }

    @Test(arguments: [
        ("a. b", "test.map:4:10: error: expected a key right after '.', found 'b'"),
        ("a.", "test.map:4:10: error: expected a key right after '.', found ':'"),
        ("a[x]", "test.map:4:9: error: expected an index, '*' or a quoted key after '[', found 'x'"),
        ("a[0", "test.map:4:11: error: expected ']', found ':'"),
        ("[0]", "test.map:4:7: error: expected a path after '<-', found '['"),
        ("a[99999999999999999999]", "test.map:4:9: error: integer '99999999999999999999' does not fit in 64 bits"),
        ("$oid", "test.map:4:7: error: a path cannot start with '$oid': a leading '$' is the whole object"),
        ("\"a\\qb\"", "test.map:4:9: error: unknown escape '\\q' in a string"),
        ("\"a\\u12\"", "test.map:4:9: error: '\\u12' is not a Unicode escape"),
        ("\"a\\uD800\"", "test.map:4:9: error: '\\uD800' is not a Unicode escape"),
        ("\"open : JSON?", "test.map:4:7: error: unterminated string"),
    ])
    func rejectsMalformedPath(written: String, headline: String) {
        #expect(headlines("entity E\n key id\n id : Int\n v <- \(written) : JSON?\n") == [headline])
    }

    @Test func pathEndsAtFirstSpace() {
        #expect(
            headlines("entity E\n key id\n id : Int\n v <- a .b : JSON?\n")
                == ["test.map:4:9: error: expected ':' and a type after the path, found '.'"])
    }

    @Test func countsColumnsInUnicodeScalarsAndOffsetsInBytes() throws {
        let found = diagnostics("entity E\n key id\n id : Int\n v <- \"clé\".\"ünï\" : Strin\n")
        #expect(found.map(\.location) == [at(4, 21, 50)])
        #expect(found.map(\.headline) == ["test.map:4:21: error: unknown type 'Strin'"])
    }
}
