import GraphImportMapping
import Testing

/// `default`, `always`, `onchange`, `null`, `missing` and `check` after an attribute's type.
@Suite struct AttributeClauseTests {
    static let entity = "entity E\n  key id\n  id : Int\n"

    static let postMap = """
        entity Post
          key id
          id : Int
          title : String null reject missing keep check nonEmpty check length(1, 300) "1 to 300 characters"
          firstSeenAt : Date default now
          lastSeenAt : Date always now
          updatedAt : Date onchange now
          importRun : Int default run
          score <- ups : Int? null 0 missing null check range(0, 1e6)
          rating <- stars : Double? default 3 null store missing 0
          releasedAt <- release : Date? default "2024-01-31T12:00:00Z" missing keep
        """

    @Test func parsesClausesIntoAttribute() throws {
        let post = try parse(Self.postMap).entities[0]
        #expect(
            post.attribute(named: "title")
                == Attribute(
                    name: "title", source: KeyPath([.key("title")]), type: .string, isOptional: false, converters: [],
                    location: at(4, 3, 34), nullRule: .reject, missingRule: .keep,
                    checks: [
                        Check(name: "nonEmpty", arguments: [], location: at(4, 49, 80)),
                        Check(
                            name: "length", arguments: [.int(1), .int(300)], message: "1 to 300 characters", location: at(4, 64, 95)),
                    ]))
        #expect(
            post.attribute(named: "score")
                == Attribute(
                    name: "score", source: KeyPath([.key("ups")]), type: .int, isOptional: true, converters: [],
                    location: at(9, 3, 260), nullRule: .value(.int(0)), missingRule: .null,
                    checks: [Check(name: "range", arguments: [.double(0), .double(1e6)], location: at(9, 49, 306))],
                    pathLocation: at(9, 12, 269)))
        #expect(
            post.attribute(named: "rating")
                == Attribute(
                    name: "rating", source: KeyPath([.key("stars")]), type: .double, isOptional: true, converters: [],
                    location: at(10, 3, 322), defaultValue: .literal(.double(3)), nullRule: .store,
                    missingRule: .value(.double(0)), pathLocation: at(10, 13, 332)))
        #expect(
            post.attribute(named: "firstSeenAt")
                == Attribute(
                    name: "firstSeenAt", source: nil, type: .date, isOptional: false, converters: [], location: at(5, 3, 134),
                    defaultValue: .now))
        #expect(post.attribute(named: "lastSeenAt")?.always == .now)
        #expect(post.attribute(named: "updatedAt")?.onChange == .now)
        #expect(post.attribute(named: "importRun")?.defaultValue == .run)
        #expect(post.attribute(named: "releasedAt")?.defaultValue == .literal(.string("2024-01-31T12:00:00Z")))
    }

    @Test(arguments: [
        ("v <- x : Int default 1", KeyPath([.key("x")]) as KeyPath?),
        ("v : Int default 1", nil),
        ("v : Date always now", nil),
        ("v : Date onchange now", nil),
        ("v : String derived \"{id}\"", nil),
        ("v : Int? null 0 missing 0 check range(0, 1)", KeyPath([.key("v")])),
        ("v : Int", KeyPath([.key("v")])),
    ])
    func attributeReadsJSONOnlyWithPathOrWithoutEngineSetValue(line: String, source: KeyPath?) throws {
        let mapping = try parse(Self.entity + "  " + line + "\n")
        #expect(mapping.entities[0].attribute(named: "v")?.source == source)
    }

    @Test func clausesMayComeInAnyOrder() throws {
        let mapping = try parse(Self.entity + "  v <- v : Int? check range(0, 9) missing 0 default 1 null keep always 2 onchange 3\n")
        let v = try #require(mapping.entities[0].attribute(named: "v"))
        #expect(v.checks.map(\.name) == ["range"])
        #expect(v.missingRule == .value(.int(0)) && v.nullRule == .keep)
        #expect(v.defaultValue == .literal(.int(1)) && v.always == .literal(.int(2)) && v.onChange == .literal(.int(3)))
    }

    /// `missing reject` states the rule both ways explicit: for a required and an optional attribute.
    @Test(arguments: ["Int", "Int?"])
    func missingRejectIsParsed(type: String) throws {
        let mapping = try parse(Self.entity + "  v : \(type) missing reject\n")
        #expect(mapping.entities[0].attribute(named: "v")?.missingRule == .reject)
    }

    @Test(arguments: [(false, NullRule.reject), (true, NullRule.store)])
    func unwrittenNullRuleDependsOnOptionality(isOptional: Bool, rule: NullRule) throws {
        let mapping = try parse(Self.entity + "  v : Int\(isOptional ? "?" : "")\n")
        let v = try #require(mapping.entities[0].attribute(named: "v"))
        #expect(v.nullRule == nil && v.missingRule == nil)
        #expect(v.effectiveNullRule == rule && v.effectiveMissingRule == .keep)
    }

    @Test(arguments: [
        ("JSON", "true"), ("JSON", "\"x\""), ("JSON", "1.5"), ("URL", "\"https://example.com\""), ("Double", "-2"),
        ("Data", "\"AAEC\""), ("Date", "\"2024-01-31\""), ("Date", "\"2024-01-31 12:00\""),
        ("Date", "\"2024-01-31T12:00:00.123+02:00\""), ("Date", "\"2024-01-31T23:59:60-0500\""), ("Bool", "false"),
    ])
    func acceptsValueThatFitsType(type: String, value: String) throws {
        _ = try parse(Self.entity + "  v : \(type) default \(value)\n")
    }

    @Test(arguments: [
        (
            "Int default \"x\"", "test.map:4:19: error: default \"x\" does not fit type Int",
            "an Int value is an integer, or 'run' (the import's run id)"
        ),
        (
            "Int default 1.5", "test.map:4:19: error: default 1.5 does not fit type Int",
            "an Int value is an integer, or 'run' (the import's run id)"
        ),
        (
            "Int default now", "test.map:4:19: error: default now does not fit type Int",
            "an Int value is an integer, or 'run' (the import's run id)"
        ),
        ("Bool always 1", "test.map:4:19: error: always 1 does not fit type Bool", "a Bool value is true or false"),
        (
            "String onchange run", "test.map:4:23: error: onchange run does not fit type String",
            "a String value is a string in double quotes"
        ),
        (
            "Date default 5", "test.map:4:20: error: default 5 does not fit type Date",
            "a Date value is 'now' or an ISO 8601 string such as \"2024-01-31\" or \"2024-01-31T12:00:00Z\""
        ),
        ("Date? null now", "test.map:4:18: error: expected 'store', 'keep', 'reject' or a value after 'null', found 'now'", nil),
        ("Int null \"x\"", "test.map:4:16: error: null \"x\" does not fit type Int", "an Int value is an integer"),
        ("Double? missing true", "test.map:4:23: error: missing true does not fit type Double", "a Double value is a number"),
        (
            "Date? missing \"soon\"", "test.map:4:21: error: missing \"soon\" is not an ISO 8601 date",
            "a Date value is an ISO 8601 string such as \"2024-01-31\" or \"2024-01-31T12:00:00Z\""
        ),
    ])
    func rejectsValueThatDoesNotFitType(clause: String, headline: String, hint: String?) {
        let found = diagnostics(Self.entity + "  v : \(clause)\n")
        #expect(found.map(\.headline) == [headline])
        #expect(found.first?.hint == hint)
    }

    @Test(arguments: [
        "2024-13-01", "2024-01-32", "2024-1-31", "24-01-31", "2024-01-31T24:00", "2024-01-31T12", "2024-01-31T12:00:00.",
        "2024-01-31T12:00+2", "2024-01-31Z", "2024-01-31T12:00:00Z ", "yesterday", "",
    ])
    func rejectsDateThatIsNotISO8601(text: String) {
        #expect(
            headlines(Self.entity + "  v : Date default \"\(text)\"\n")
                == ["test.map:4:20: error: default \"\(text)\" is not an ISO 8601 date"])
    }

    @Test(arguments: [("null store", 16), ("missing null", 19)])
    func rejectsNullRuleStoringNullInRequiredAttribute(clause: String, column: Int) {
        let error = onlyError(Self.entity + "  v : Int \(clause)\n")
        #expect(error?.0 == "test.map:4:\(column): error: '\(clause)' stores null, but attribute 'v' is required")
        #expect(error?.1 == "make it optional with '?' after the type, or give a value instead")
    }

    @Test(arguments: [("default 0 null 1", 21), ("always 0 missing 1", 20)])
    func rejectsNullOrMissingRuleOnAttributeWithoutSource(clauses: String, column: Int) {
        let keyword = String(clauses.split(separator: " ")[2])
        let error = onlyError(Self.entity + "  v : Int \(clauses)\n")
        #expect(error?.0 == "test.map:4:\(column): error: attribute 'v' reads no JSON, so '\(keyword)' never applies")
        #expect(error?.1 == "add `<- path` to read a value, or remove '\(keyword)'")
    }

    @Test func rejectsRepeatedClause() {
        let error = onlyError(Self.entity + "  v : Int default 1 always 2 default 3\n")
        #expect(error?.0 == "test.map:4:30: error: 'default' appears twice on 'v'")
        #expect(error?.1 == "each clause appears at most once on a line; only 'check' may repeat")
    }

    @Test func suggestsClauseForMisspelledClause() {
        let error = onlyError(Self.entity + "  v : Int defualt 1\n")
        #expect(error?.0 == "test.map:4:11: error: unknown clause 'defualt'")
        #expect(error?.1 == "did you mean 'default'?")
    }

    @Test(arguments: [
        ("v : Int default", "test.map:4:18: error: expected a value after 'default' (a string, a number, true, false, 'now' or 'run'), found end of line"),
        ("v : Int always x", "test.map:4:18: error: expected a value after 'always' (a string, a number, true, false, 'now' or 'run'), found 'x'"),
        ("v : Int null", "test.map:4:15: error: expected 'store', 'keep', 'reject' or a value after 'null', found end of line"),
        ("v : Int missing store", "test.map:4:19: error: expected 'keep', 'null', 'reject' or a value after 'missing', found 'store'"),
        ("v : Int default 1 x", "test.map:4:21: error: expected another clause or end of line after the default value, found 'x'"),
        ("v : Int default 1 | trim", "test.map:4:21: error: expected another clause or end of line after the default value, found '|'"),
        ("v : Int? null keep 5", "test.map:4:22: error: expected another clause or end of line after the null rule, found '5'"),
        ("v : Int check", "test.map:4:16: error: expected a validator name after 'check', found end of line"),
        ("v : Int check range(1, 2", "test.map:4:27: error: expected ',' or ')' after the argument, found end of line"),
        ("v : Int check url \"bad", "test.map:4:21: error: unterminated string"),
        ("v : Int check url \"m\" x", "test.map:4:25: error: expected another clause or end of line after the check's message, found 'x'"),
        ("v : Int check url x", "test.map:4:21: error: expected another clause or end of line after the check, found 'x'"),
    ])
    func reportsClauseSyntaxError(line: String, headline: String) {
        #expect(headlines(Self.entity + "  " + line + "\n") == [headline])
    }

    // MARK: Checks

    @Test func acceptsVariadicCheckWithManyArguments() throws {
        let mapping = try parse(Self.entity + "  v : String check oneOf(\"a\", \"b\", \"c\") check matches(\"^[a-c]$\")\n")
        let checks = try #require(mapping.entities[0].attribute(named: "v")?.checks)
        #expect(checks.map(\.arguments) == [[.string("a"), .string("b"), .string("c")], [.string("^[a-c]$")]])
    }

    @Test func suggestsValidatorForUnknownCheck() {
        let error = onlyError(Self.entity + "  v : URL check urll\n")
        #expect(error?.0 == "test.map:4:17: error: unknown check 'urll'")
        #expect(error?.1 == "did you mean 'url'?")
    }

    @Test func listsValidatorsWhenNothingIsClose() {
        #expect(
            onlyError(Self.entity + "  v : URL check frobnicate\n")?.1
                == "the checks are url, matches, range, length, oneOf, nonEmpty")
    }

    @Test(arguments: [
        ("url(\"x\")", "test.map:4:17: error: check 'url' takes no arguments, found 1"),
        ("range(1)", "test.map:4:17: error: check 'range' takes 2 arguments (a number, a number), found 1"),
        ("length(1, 2.5)", "test.map:4:27: error: argument 2 of check 'length' must be an integer, found 2.5"),
        ("oneOf", "test.map:4:17: error: check 'oneOf' takes at least 1 argument (a string, …), found 0"),
        ("oneOf(\"a\", 2)", "test.map:4:28: error: argument 2 of check 'oneOf' must be a string, found 2"),
    ])
    func checksValidatorArguments(call: String, headline: String) {
        #expect(headlines(Self.entity + "  v : Int check \(call)\n") == [headline])
    }

    // MARK: Clauses in the wrong place

    @Test(arguments: ["default 1", "check url", "derived \"{id}\"", "missing keep"])
    func rejectsAttributeClauseOnRelationship(clause: String) {
        let keyword = String(clause.prefix { $0 != " " })
        let error = onlyError(Self.entity + "  parent : E? \(clause)\n")
        #expect(error?.0 == "test.map:4:15: error: relationship 'parent' cannot have '\(keyword)'")
        #expect(
            error?.1
                == "'E' is an entity; 'default', 'always', 'onchange', 'null', 'missing', 'check' and 'derived' belong to attributes")
    }

    @Test(arguments: [("delete cascade", "delete"), ("each data", "each")])
    func rejectsRelationshipClauseOnAttribute(clause: String, keyword: String) {
        let error = onlyError(Self.entity + "  v : Int \(clause)\n")
        #expect(error?.0 == "test.map:4:11: error: attribute 'v' cannot have '\(keyword)'")
        #expect(error?.1 == "'Int' is a built-in type; only a relationship to an entity has '\(keyword)'")
    }
}
