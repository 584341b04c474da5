import GraphImportMapping
import Testing

/// `where CONDITION` after the path of a relationship or a `records` line, and fallback paths
/// `<- a, b` after a member's arrow.
@Suite struct ElementFilterTests {
    static let entity = "entity E\n  key id\n  id : Int\n"

    /// The filter of the relationship on line 4 of `Self.entity` + `line`.
    func filter(_ line: String) throws -> ElementFilter? {
        try parse(Self.entity + line + "\n").entities[0].relationships.first?.filter
    }

    @Test(arguments: [
        (#"where type = "quoted""#, ElementFilter.Test.equals([.string("quoted")]), #"type = "quoted""#),
        (#"where type in ("quoted", "retweeted")"#, .equals([.string("quoted"), .string("retweeted")]), #"type in ("quoted", "retweeted")"#),
        ("where a.rank = -3", .equals([.int(-3)]), "a.rank = -3"),
        ("where flags[0] = true", .equals([.bool(true)]), "flags[0] = true"),
        (#"where $ has prefix "t3_""#, .hasPrefix("t3_"), #"$ has prefix "t3_""#),
        (#"where name has suffix ".png""#, .hasSuffix(".png"), #"name has suffix ".png""#),
        (#"where name matches "img-*.p?g""#, .matches("img-*.p?g"), #"name matches "img-*.p?g""#),
        ("where deleted_at is absent", .isAbsent, "deleted_at is absent"),
        ("where deleted_at is present", .isPresent, "deleted_at is present"),
        ("where deleted_at is null", .isNull, "deleted_at is null"),
    ])
    func parsesEveryOperator(written: String, test: ElementFilter.Test, description: String) throws {
        let parsed = try #require(try filter("  refs <- refs \(written) : [E] each id"))
        #expect(parsed.test == test)
        #expect(parsed.description == description)
        #expect(parsed.location == at(4, 16, 44))
    }

    @Test func toOneWithWhereTakesEach() throws {
        let mapping = try parse(Self.entity + #"  inReplyTo <- refs where type = "replied_to" : E? each id inverse replies"# + "\n")
        let relationship = mapping.entities[0].relationships[0]
        #expect(!relationship.isToMany)
        #expect(relationship.elementPath == KeyPath([.key("id")]))
        #expect(relationship.filter?.field == KeyPath([.key("type")]))
    }

    @Test func recordsLinesTakeAFilterBeforeAsOrBy() throws {
        let mapping = try parse(
            """
            records at data[*] where type = "tweet" as E
            records at data[*] where type in ("user", "account") by kind missing empty
              else -> E
            \(Self.entity)
            """)
        #expect(mapping.records.map { $0.filter?.description } == [#"type = "tweet""#, #"type in ("user", "account")"#])
        #expect(mapping.records[1].mayBeMissing)
        #expect(mapping.records[1].choice?.discriminator == KeyPath([.key("kind")]))
    }

    @Test func fallbackPathsFollowTheFirstPath() throws {
        let mapping = try parse(
            Self.entity + "  fullName <- full_name, name, owner.\"full name\" : String? missing null\n  items <- items, items_ids : [E]\n")
        let attribute = mapping.entities[0].attributes[1]
        #expect(attribute.source == KeyPath([.key("full_name")]))
        #expect(attribute.fallbackSources == [KeyPath([.key("name")]), KeyPath([.key("owner"), .key("full name")])])
        #expect(attribute.sources.written == #"full_name, name, owner."full name""#)
        #expect(attribute.missingRule == .null)
        #expect(mapping.entities[0].relationships[0].sources == [KeyPath([.key("items")]), KeyPath([.key("items_ids")])])
    }

    @Test func singlePathHasNoFallbacks() throws {
        let mapping = try parse(Self.entity + "  name : String\n  parent <- up : E?\n")
        #expect(mapping.entities[0].attributes.map(\.fallbackSources) == [[], []])
        #expect(mapping.entities[0].relationships[0].fallbackSources == [])
        #expect(mapping.entities[0].relationships[0].filter == nil)
    }

    @Test(arguments: [
        (
            #"  refs <- refs where type == "q" : [E]"#, "test.map:4:27: error: unknown operator '==' in a `where` condition",
            "did you mean '='?"
        ),
        (
            #"  refs <- refs where type contains "q" : [E]"#, "test.map:4:27: error: unknown operator 'contains' in a `where` condition",
            #"a condition is `PATH = VALUE`, `PATH in (VALUE, …)`, `PATH has prefix "…"`, `PATH has suffix "…"`, `PATH matches "…"` or `PATH is present|absent|null`"#
        ),
        (#"  refs <- refs where type matchs "x" : [E]"#, "test.map:4:27: error: unknown operator 'matchs' in a `where` condition", "did you mean 'matches'?"),
        (
            "  refs <- refs where type in () : [E]", "test.map:4:30: error: `in ()` lists no value, so nothing would be taken",
            #"write the values in the parentheses: `in ("quoted", "retweeted")`"#
        ),
        (#"  refs <- refs where type in ("a", 2, "a") : [E]"#, #"test.map:4:39: error: "a" appears twice in the `in` list"#, nil),
        (
            "  refs <- refs where type = null : [E]", "test.map:4:29: error: a condition cannot compare with null",
            "write `is null` (the key holds null) or `is absent` (no such key)"
        ),
        (
            "  refs <- refs where rank = 1.5 : [E]", "test.map:4:29: error: 1.5 is not a string, an integer, true or false",
            "a condition compares with exact values; decimals are not exact"
        ),
        (
            "  refs <- refs where id has prefix 3 : [E]", "test.map:4:36: error: 'has prefix' takes a string, found 3",
            #"write the text in double quotes: `has prefix "3"`"#
        ),
        ("  refs <- refs where id is there : [E]", "test.map:4:28: error: expected 'present', 'absent' or 'null' after 'is', found 'there'", nil),
        (
            #"  name <- name where type = "x" : String"#, "test.map:4:16: error: attribute 'name' cannot have a `where` condition",
            "'String' is a built-in type; `where` picks the elements a relationship or a `records` line takes"
        ),
        (
            "  name <- full_name, name, full_name : String?", "test.map:4:28: error: path 'full_name' appears twice in the list of paths",
            "each path of `<- a, b` is tried once, in order"
        ),
        (
            #"  label <- a, b : String derived "{id}""#, "test.map:4:9: error: derived attribute 'label' cannot have a path",
            "its value is built from its template; remove `<- path`"
        ),
    ])
    func rejectsMisusedConditionsAndPaths(line: String, headline: String, hint: String?) {
        let error = onlyError(Self.entity + line + "\n")
        #expect(error?.0 == headline)
        #expect(error?.1 == hint)
    }

    @Test func rejectsEachOnToOneWithoutWhere() {
        let error = onlyError(Self.entity + "  parent <- refs : E? each id\n")
        #expect(error?.0 == "test.map:4:23: error: 'each' applies only to a to-many relationship, or a to-one with `where`; 'parent' is a to-one")
    }
}
