import GraphImportMapping
import Testing

/// `records at PATH by DISCRIMINATOR` and its case lines: one feed, several entities.
@Suite struct RecordChoiceTests {
    static let entities = "entity Post\n  key id\n  id : String\nentity Comment\n  key id\n  id : String\n"

    @Test func parsesCasesIntoRecordChoice() throws {
        let mapping = try parse(
            """
            records at data.children[*] by kind
              "t1" -> Comment at data
              "t3" -> Post at data
              "more" -> ignore
              1 -> Post
              true -> Comment at "x y".z

            """ + Self.entities)
        let data = KeyPath([.key("data")])
        #expect(
            mapping.records == [
                RecordSource(
                    paths: [KeyPath([.key("data"), .key("children"), .anyIndex])], entity: "Comment", location: at(1, 1, 0),
                    choice: RecordChoice(
                        discriminator: KeyPath([.key("kind")]),
                        cases: [
                            RecordCase(value: .string("t1"), entity: "Comment", subpath: data, location: at(2, 3, 38)),
                            RecordCase(value: .string("t3"), entity: "Post", subpath: data, location: at(3, 3, 64)),
                            RecordCase(value: .string("more"), entity: nil, location: at(4, 3, 87)),
                            RecordCase(value: .int(1), entity: "Post", location: at(5, 3, 106)),
                            RecordCase(
                                value: .bool(true), entity: "Comment", subpath: KeyPath([.key("x y"), .key("z")]),
                                location: at(6, 3, 118)),
                        ],
                        location: at(1, 29, 28)),
                    pathLocations: [at(1, 12, 11)])
            ])
    }

    @Test func asFormHasNoChoice() throws {
        #expect(try parse("records at $[*] as Post\n" + Self.entities).records.map(\.choice) == [nil])
    }

    @Test func choiceOfOnlyIgnoredCasesHasNoEntity() throws {
        let mapping = try parse("records at $[*] by type\n  \"ad\" -> ignore\n" + Self.entities)
        #expect(mapping.records.map(\.entity) == [""])
    }

    @Test func caseLinesMayHaveBlankAndCommentLinesBetween() throws {
        let mapping = try parse("records at $[*] by type\n\n  # posts\n  \"p\" -> Post\n\n  \"c\" -> Comment\n" + Self.entities)
        #expect(mapping.records[0].choice?.cases.map(\.entity) == ["Post", "Comment"])
    }

    @Test func suggestsEntityForUnknownCaseEntity() {
        let error = onlyError("records at $[*] by type\n  \"c\" -> Coment\n" + Self.entities)
        #expect(error?.0 == "test.map:2:10: error: no entity named 'Coment'")
        #expect(error?.1 == "did you mean 'Comment'?")
    }

    @Test func rejectsDuplicateCaseValue() {
        let found = headlines("records at $[*] by type\n  \"c\" -> Comment\n  1 -> Post\n  \"c\" -> Post\n  1 -> ignore\n" + Self.entities)
        #expect(
            found == [
                "test.map:4:3: error: duplicate case \"c\" (already declared at line 2)",
                "test.map:5:3: error: duplicate case 1 (already declared at line 3)",
            ])
    }

    @Test func rejectsChoiceWithoutCases() {
        let error = onlyError("records at $[*] by type\n" + Self.entities)
        #expect(error?.0 == "test.map:1:17: error: `records … by` has no case lines")
        #expect(error?.1 == "add lines such as `\"t1\" -> Comment` or `\"more\" -> ignore` below it")
    }

    @Test func brokenCaseLineCausesNoMissingCasesError() {
        #expect(
            headlines("records at $[*] by type\n  \"c\" Comment\n" + Self.entities)
                == ["test.map:2:7: error: expected '->' and an entity after the case value, found 'Comment'"])
    }

    @Test func brokenRecordsLineCausesNoErrorsForItsCases() {
        #expect(
            headlines("records at $[*] by\n  \"c\" -> Comment\n" + Self.entities)
                == ["test.map:1:19: error: expected a path after 'by', found end of line"])
    }

    @Test(arguments: [
        "  \"c\" -> Comment\n" + entities,
        "records at $[*] by type\n  \"p\" -> Post\nentity Other\n  key id\n  id : Int\n  \"c\" -> Comment\n" + entities,
    ])
    func rejectsCaseLineNotBelowRecordsBy(map: String) {
        let found = diagnostics(map)
        #expect(found.map(\.message) == ["a case line must follow a `records … by PATH` line"])
        #expect(found.first?.hint == "write `records at PATH by PATH` and its case lines with nothing else in between")
    }

    @Test(arguments: [
        ("records at $[*] as Post by type", "test.map:1:25: error: a `records` line takes 'as' or 'by', not both"),
        ("records at $[*] by type as Post", "test.map:1:25: error: a `records` line takes 'as' or 'by', not both"),
    ])
    func rejectsAsTogetherWithBy(line: String, headline: String) {
        let found = diagnostics(line + "\n" + Self.entities)
        #expect(found.map(\.headline) == [headline])
        #expect(found.first?.hint == "`as ENTITY` maps every record to one entity; `by PATH` chooses it with case lines")
    }

    @Test(arguments: [
        ("1.5 -> Post", "test.map:2:3: error: case value 1.5 is not a string, an integer, true or false"),
        ("t1 -> Post", "test.map:2:3: error: expected a case value (a string, an integer, true or false) or 'else', found 't1'"),
        ("\"t1\" ->", "test.map:2:10: error: expected an entity name or 'ignore' after '->', found end of line"),
        ("\"t1\" -> Post data", "test.map:2:16: error: expected 'at' or end of line after the entity name, found 'data'"),
        ("\"t1\" -> Post at", "test.map:2:18: error: expected a path after 'at', found end of line"),
        ("\"t1\" -> Post at a[*]", "test.map:2:20: error: '[*]' is allowed only in a `records` path"),
        ("\"t1\" -> Post at a b", "test.map:2:21: error: expected end of line after the path, found 'b'"),
        ("\"t1\" -> ignore at data", "test.map:2:18: error: expected end of line after 'ignore', found 'at'"),
        ("\"t1 -> Post", "test.map:2:3: error: unterminated string"),
    ])
    func reportsCaseSyntaxError(line: String, headline: String) {
        #expect(headlines("records at $[*] by type\n  " + line + "\n  \"ok\" -> Post\n" + Self.entities) == [headline])
    }

    @Test func elseCaseParsesAsACaseWithoutValue() throws {
        let mapping = try parse("records at $[*] by type\n  \"p\" -> Post\n  else -> ignore\n" + Self.entities)
        #expect(mapping.records.first?.choice?.cases.map(\.value) == [.string("p"), nil])
        #expect(mapping.records.first?.choice?.cases.map(\.entity) == ["Post", nil])
    }

    @Test func secondElseCaseIsADuplicate() {
        #expect(
            headlines("records at $[*] by type\n  else -> Post\n  else -> ignore\n" + Self.entities)
                == ["test.map:3:3: error: duplicate case else (already declared at line 2)"])
    }

    @Test func missingEmptyMarksTheRecordsLine() throws {
        let mapping = try parse(
            "records at items[*] as Post missing empty\nrecords at data[*] by type missing empty\n  else -> Comment\nrecords at x[*]\n"
                + Self.entities)
        #expect(mapping.records.map(\.mayBeMissing) == [true, true, false])
    }

    @Test func missingMustBeFollowedByEmpty() {
        #expect(
            headlines("records at items[*] as Post missing\n" + Self.entities)
                == ["test.map:1:36: error: expected 'empty' after 'missing' (a feed that leaves the records out has none), found end of line"])
    }

    @Test func discriminatorPathCannotUseAnyIndex() {
        #expect(
            headlines("records at $[*] by types[*]\n  \"p\" -> Post\n" + Self.entities)
                == ["test.map:1:25: error: '[*]' is allowed only in a `records` path"])
    }

    @Test func discriminatorPathEndsTheLine() {
        #expect(
            headlines("records at $[*] by type x\n  \"p\" -> Post\n" + Self.entities)
                == ["test.map:1:25: error: expected end of line after the discriminator path, found 'x'"])
    }
}
