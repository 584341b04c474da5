import GraphImportMapping
import Testing

/// What the grammar cannot check: names, types, converters, keys and inverses.
@Suite struct ValidationDiagnosticsTests {
    static let entity = "entity E\n  key id\n  id : Int\n"

    // MARK: Types and entities

    @Test func suggestsBuiltInTypeForUnknownType() {
        let error = onlyError(Self.entity + "  text : Strin\n")
        #expect(error?.0 == "test.map:4:10: error: unknown type 'Strin'")
        #expect(error?.1 == "did you mean 'String'?")
    }

    @Test func listsTypesWhenNothingIsClose() {
        let error = onlyError(Self.entity + "  when : Timestamp\n")
        #expect(error?.0 == "test.map:4:10: error: unknown type 'Timestamp'")
        #expect(error?.1 == "a type is one of String, Int, Double, Bool, Date, URL, Data, JSON, or the name of an entity")
    }

    @Test func suggestsEntityForMisspelledRelationshipTarget() {
        let error = onlyError(Self.entity + "  author <- user : Usr inverse tweets\nentity User\n  key id\n  id : Int\n")
        #expect(error?.0 == "test.map:4:20: error: no entity named 'Usr'")
        #expect(error?.1 == "did you mean 'User'?")
    }

    @Test func bareNameCloseToEntityIsReportedAsMissingEntity() {
        #expect(
            onlyError(Self.entity + "  author : Usr\nentity User\n  key id\n  id : Int\n")?.0
                == "test.map:4:12: error: no entity named 'Usr'")
    }

    @Test func reportsUnknownToManyTarget() {
        let error = onlyError(Self.entity + "  tags : [Tag]\n")
        #expect(error?.0 == "test.map:4:11: error: no entity named 'Tag'")
        #expect(error?.1 == "declare it with `entity Tag`")
    }

    @Test func reportsUnknownRecordsEntity() {
        let error = onlyError("records at $[*] as Tweets\nentity Tweet\n  key id\n  id : Int\n")
        #expect(error?.0 == "test.map:1:20: error: no entity named 'Tweets'")
        #expect(error?.1 == "did you mean 'Tweet'?")
    }

    @Test func rejectsArrayOfBuiltInType() {
        let error = onlyError(Self.entity + "  tags : [String]\n")
        #expect(error?.0 == "test.map:4:11: error: '[String]' is not a type: only an entity can be in brackets, as a to-many relationship")
        #expect(error?.1 == "keep the whole array as JSON text with `: JSON`")
    }

    @Test func rejectsConvertersOnRelationship() {
        let error = onlyError(Self.entity + "  parent : E? | trim\n")
        #expect(error?.0 == "test.map:4:17: error: relationship 'parent' cannot have converters")
        #expect(error?.1 == "'E' is an entity; convert values in its own attribute lines")
    }

    @Test func rejectsInverseOnAttribute() {
        let error = onlyError(Self.entity + "  name : String inverse names\n")
        #expect(error?.0 == "test.map:4:25: error: attribute 'name' cannot have an inverse")
        #expect(error?.1 == "'String' is a built-in type; only a relationship to an entity has an inverse")
    }

    @Test func rejectsMapWithoutEntities() {
        let error = onlyError("# nothing here\nrecords at $[*]\n")
        #expect(error?.0 == "test.map:1:1: error: the map declares no entity")
        #expect(error?.1 == "add `entity NAME`, a `key` line and attribute lines `name <- path : Type`")
    }

    @Test func rejectsEmptyMap() {
        #expect(headlines("") == ["test.map:1:1: error: the map declares no entity"])
    }

    // MARK: Names

    @Test func rejectsDuplicateEntityIgnoringCase() {
        let error = onlyError(Self.entity + "entity e\n  key id\n  id : Int\n")
        #expect(error?.0 == "test.map:4:8: error: duplicate entity 'e' (already declared at line 1)")
        #expect(error?.1 == "names are compared ignoring case because they become SQL names")
    }

    @Test func rejectsDuplicateAttributeIgnoringCase() {
        let found = diagnostics(
            """
            entity Tweet
              key id
              id : Int
              createdAt <- created_at : Date | iso8601
              text : String
              CreatedAt <- created : Date | iso8601
              text <- full_text : String
            """)
        #expect(
            found.map(\.headline) == [
                "test.map:6:3: error: duplicate attribute 'CreatedAt' (already declared at line 4)",
                "test.map:7:3: error: duplicate attribute 'text' (already declared at line 5)",
            ])
        #expect(found.map(\.hint) == ["names are compared ignoring case because they become SQL names", nil])
    }

    @Test func rejectsDuplicateRelationship() {
        #expect(
            headlines(Self.entity + "  parent : E?\n  parent : E?\n")
                == ["test.map:5:3: error: duplicate relationship 'parent' (already declared at line 4)"])
    }

    @Test(arguments: ["Date", "String", "json"])
    func rejectsEntityNamedLikeBuiltInType(name: String) {
        let error = onlyError("entity \(name)\n  key id\n  id : Int\n")
        #expect(error?.0 == "test.map:1:8: error: an entity cannot be named '\(name)', like the built-in type")
        #expect(error?.1 == "built-in types are String, Int, Double, Bool, Date, URL, Data, JSON")
    }

    @Test func rejectsTableUsedTwice() {
        #expect(
            headlines("entity A table t\n key id\n id : Int\nentity B table T\n key id\n id : Int\n")
                == ["test.map:4:16: error: table 't' is already used by entity 'A' (line 1)"].map {
                    $0.replacingTable()
                })
    }

    @Test func rejectsReservedTableName() {
        let error = onlyError("entity A table graphimport_runs\n key id\n id : Int\n")
        #expect(error?.0 == "test.map:1:16: error: table 'graphimport_runs' uses the reserved prefix 'graphimport_'")
    }

    // MARK: Converters

    @Test func suggestsConverterForUnknownConverter() {
        let error = onlyError(Self.entity + "  name : String | lowercse\n")
        #expect(error?.0 == "test.map:4:19: error: unknown converter 'lowercse'")
        #expect(error?.1 == "did you mean 'lowercase'?")
    }

    @Test func listsConvertersWhenNothingIsClose() {
        let error = onlyError(Self.entity + "  name : String | frobnicate\n")
        #expect(
            error?.1
                == "the converters are date, iso8601, epochSeconds, epochMillis, trim, lowercase, round, scale, replace, nonEmpty"
        )
    }

    @Test(arguments: [
        ("date", "test.map:4:15: error: converter 'date' takes 1 argument (a string), found 0"),
        ("date()", "test.map:4:15: error: converter 'date' takes 1 argument (a string), found 0"),
        ("date(\"a\", \"b\")", "test.map:4:15: error: converter 'date' takes 1 argument (a string), found 2"),
        ("trim(1)", "test.map:4:15: error: converter 'trim' takes no arguments, found 1"),
        ("replace(\"a\")", "test.map:4:15: error: converter 'replace' takes 2 arguments (a string, a string), found 1"),
        ("round(1, 2)", "test.map:4:15: error: converter 'round' takes 0 to 1 arguments (optionally an integer), found 2"),
        ("date(5)", "test.map:4:20: error: argument 1 of converter 'date' must be a string, found 5"),
        ("round(1.5)", "test.map:4:21: error: argument 1 of converter 'round' must be an integer, found 1.5"),
        ("scale(\"x\")", "test.map:4:21: error: argument 1 of converter 'scale' must be a number, found \"x\""),
        ("nonEmpty(1)", "test.map:4:24: error: argument 1 of converter 'nonEmpty' must be true or false, found 1"),
        ("replace(\"a\", true)", "test.map:4:28: error: argument 2 of converter 'replace' must be a string, found true"),
    ])
    func checksConverterArguments(call: String, headline: String) {
        #expect(headlines(Self.entity + "  v : Date? | \(call)\n") == [headline])
    }

    @Test func acceptsIntegerWhereNumberIsExpected() throws {
        let mapping = try parse(Self.entity + "  v : Double? | scale(100)\n")
        #expect(mapping.entities[0].attribute(named: "v")?.converters[0].arguments == [.double(100)])
    }

    // MARK: Keys

    @Test func requiresKey() {
        let error = onlyError("entity Tweet\n  id : Int\n")
        #expect(error?.0 == "test.map:1:8: error: entity 'Tweet' has no key")
        #expect(
            error?.1 == "add `key <attribute>` naming the attribute(s) that identify a Tweet"
                + ", or write `entity Tweet owned` for nested objects with no identity of their own")
    }

    @Test func rejectsSecondKeyLine() {
        let error = onlyError("entity Tweet\n  key id\n  key name\n  id : Int\n  name : String\n")
        #expect(error?.0 == "test.map:3:3: error: entity 'Tweet' already has a key (line 2)")
        #expect(error?.1 == "name every key attribute on one line: `key owner, name`")
    }

    @Test func suggestsAttributeForKeyNamingNothing() {
        let error = onlyError("entity Tweet\n  key idd\n  id : Int\n")
        #expect(error?.0 == "test.map:2:7: error: no attribute named 'idd' in entity 'Tweet'")
        #expect(error?.1 == "did you mean 'id'?")
    }

    @Test func rejectsRelationshipInKey() {
        let error = onlyError("entity Tweet\n  key id, author\n  id : Int\n  author : Tweet\n")
        #expect(error?.0 == "test.map:2:11: error: a key must name attributes; 'author' is a relationship")
        #expect(error?.1 == nil)
    }

    @Test func rejectsOptionalKeyAttribute() {
        let error = onlyError("entity Tweet\n  key id\n  id : Int?\n")
        #expect(error?.0 == "test.map:2:7: error: key attribute 'id' cannot be optional")
        #expect(error?.1 == "every object has its key: remove the '?' from the type of 'id'")
    }

    @Test func rejectsNameRepeatedInKey() {
        #expect(
            headlines("entity Repo\n  key owner, Owner\n  owner : String\n")
                == ["test.map:2:14: error: 'Owner' appears twice in the key"])
    }

    @Test func keyMayBeDeclaredBeforeOrAfterItsAttributes() throws {
        let mapping = try parse("entity Repo\n  owner : String\n  name : String\n  key owner, name\n")
        #expect(mapping.entities[0].key == ["owner", "name"])
    }

    // MARK: Inverses

    @Test func rejectsInverseClashingWithTargetAttribute() {
        let error = onlyError(
            "entity Tweet\n  key id\n  id : Int\n  author : User inverse handle\nentity User\n  key id\n  id : Int\n  handle : String\n")
        #expect(error?.0 == "test.map:4:25: error: inverse 'handle' clashes with attribute 'handle' of entity 'User'")
        #expect(error?.1 == "choose an inverse name that 'User' does not use")
    }

    @Test func rejectsSelfInverseClashingWithRelationship() {
        #expect(
            headlines("entity Tweet\n  key id\n  id : Int\n  retweetOf : Tweet? inverse RetweetOf\n")
                == ["test.map:4:30: error: inverse 'RetweetOf' clashes with relationship 'retweetOf' of entity 'Tweet'"])
    }

    @Test func rejectsTwoRelationshipsDeclaringSameInverse() {
        let error = onlyError(
            """
            entity Tweet
              key id
              id : Int
              author : User inverse tweets
              mentions : [User] inverse Tweets
            entity User
              key id
              id : Int
            """)
        #expect(
            error?.0 == "test.map:5:29: error: entity 'User' already has an inverse named 'Tweets', from 'Tweet.author' (line 4)")
        #expect(error?.1 == "give each relationship into 'User' its own inverse name")
    }

    @Test func sameInverseNameOnDifferentTargetsIsFine() throws {
        let mapping = try parse(tweetsMap)
        #expect(mapping.entities[0].relationships.compactMap(\.inverse) == ["tweets", "tweets", "retweets"])
    }

    // MARK: Many at once

    @Test func reportsEveryProblemInSourceOrder() {
        let found = headlines(
            """
            records at $[*] as Twet
            entity Tweet
              id : Int
              text <- text : Strng
              when : Date | isoDate
              id : Int
              author : Usr inverse tweets
              hashtags <- entities.hashtags[*] : [Hashtag]
            entity Date
              key id
              id : Int
            """)
        #expect(
            found == [
                "test.map:1:20: error: no entity named 'Twet'",
                "test.map:2:8: error: entity 'Tweet' has no key",
                "test.map:4:18: error: unknown type 'Strng'",
                "test.map:5:17: error: unknown converter 'isoDate'",
                "test.map:6:3: error: duplicate attribute 'id' (already declared at line 3)",
                "test.map:7:12: error: no entity named 'Usr'",
                "test.map:8:32: error: '[*]' is allowed only in a `records` path",
                "test.map:9:8: error: an entity cannot be named 'Date', like the built-in type",
            ])
    }
}

extension String {
    /// The table clash names the later table as written (`T`).
    fileprivate func replacingTable() -> String { replacing("table 't'", with: "table 'T'") }
}
