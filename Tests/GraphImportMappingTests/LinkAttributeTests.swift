import GraphImportMapping
import Testing

/// `link NAME [<- path] : Type` lines below a to-many: attributes of its links.
@Suite struct LinkAttributeTests {
    static let entities = "entity Team\n  key id\n  id : Int\n"
    static let user = "entity User\n  key id\n  id : Int\n"

    @Test func linkLinesBelongToTheToManyAboveThem() throws {
        let mapping = try parse(
            Self.entities + """
                  members <- memberships : [User] each user inverse teams
                    link role : String
                    # a comment and a blank line do not end the link lines

                    link since <- joined_at : Date? | iso8601 check nonEmpty
                  name : String?

                """ + Self.user)
        let relationship = try #require(mapping.entities[0].relationship(named: "members"))
        #expect(relationship.elementPath == KeyPath([.key("user")]))
        #expect(
            relationship.linkAttributes == [
                Attribute(
                    name: "role", source: KeyPath([.key("role")]), type: .string, isOptional: false, converters: [], location: at(5, 10, 99)),
                Attribute(
                    name: "since", source: KeyPath([.key("joined_at")]), type: .date, isOptional: true,
                    converters: [ConverterCall(name: "iso8601", arguments: [], location: at(8, 39, 211))], location: at(8, 10, 182),
                    checks: [Check(name: "nonEmpty", arguments: [], message: nil, location: at(8, 53, 225))],
                    pathLocation: at(8, 19, 191)),
            ])
        #expect(mapping.entities[0].attribute(named: "name") != nil)
        #expect(mapping.entities[0].attributes.count == 2)
    }

    @Test func theReferenceExampleParses() throws {
        let example = try ReadmeExampleTests.block(after: "### Link attributes")
        let mapping = try parse("entity Tweet\n  key id\n  id : Int\n" + example + "entity User\n  key id\n  id : Int\n")
        #expect(mapping.entities[0].relationships.map { $0.linkAttributes.map(\.name) } == [["start", "end"], ["role", "since"]])
    }

    @Test func aMemberNamedLinkIsStillAMember() throws {
        let mapping = try parse(Self.entities + "  link : String\n  link2 <- link : String\n")
        #expect(mapping.entities[0].attributes.map(\.name) == ["id", "link", "link2"])
    }

    @Test func linkOutsideARelationshipIsAnError() {
        let error = onlyError("entity Team\n  key id\n  link role : String\n  id : Int\n")
        #expect(error?.0 == "test.map:3:3: error: a `link` line must follow a to-many relationship line")
        #expect(
            error?.1 == "write `link NAME <- path : Type` right below `name <- path : [Entity]`, with only other `link` lines in between")
    }

    @Test func linkBelowAnAttributeOrAToOneIsAnError() {
        #expect(
            headlines(Self.entities + "  name : String\n    link a : Int\n  owner : User\n    link b : Int\n" + Self.user) == [
                "test.map:5:5: error: 'link' applies only to a to-many relationship",
                "test.map:7:5: error: 'link' applies only to a to-many relationship",
            ])
        let error = onlyError(Self.entities + "  owner : User\n    link b : Int\n" + Self.user)
        #expect(error?.1 == "'owner' is a to-one: data about its link is an attribute of this entity, `name <- path : Type`")
    }

    @Test func linkAttributesHaveBuiltInTypesAndTheirOwnClauses() {
        #expect(
            headlines(
                Self.entities + """
                      members : [User]
                        link a : User
                        link b : Int default 3
                        link c : Int inverse x
                        link d : Int? null keep
                        link e : Int? missing keep
                        link f : Date always now

                    """ + Self.user) == [
                    "test.map:5:14: error: link attribute 'a' must have a built-in type, not 'User'",
                    "test.map:6:18: error: link attribute 'b' cannot have 'default'",
                    "test.map:7:26: error: link attribute 'c' cannot have 'inverse'",
                    "test.map:8:24: error: link attribute 'd' cannot have `null keep`",
                    "test.map:9:27: error: link attribute 'e' cannot have `missing keep`",
                    "test.map:10:19: error: link attribute 'f' cannot have 'always'",
                ])
    }

    @Test func linkAttributeNamesAreUniqueWithinTheRelationshipIgnoringCase() {
        let error = onlyError(Self.entities + "  members : [User]\n    link role : String\n    link Role : String\n" + Self.user)
        #expect(error?.0 == "test.map:6:10: error: duplicate link attribute 'Role' (already declared at line 5)")
        #expect(error?.1 == "names are compared ignoring case because they become SQL names")
    }

    @Test func linkNamesMayRepeatTheEntitysMemberNames() throws {
        let mapping = try parse(Self.entities + "  id2 : Int?\n  members : [User]\n    link id : Int?\n    link id2 : Int?\n" + Self.user)
        #expect(mapping.entities[0].relationships[0].linkAttributes.map(\.name) == ["id", "id2"])
    }

    @Test func aSyntaxErrorInALinkLineKeepsTheLinesAfterIt() {
        #expect(
            headlines(Self.entities + "  members : [User]\n    link role String\n    link x : Strin\n" + Self.user) == [
                "test.map:5:15: error: expected '<-' and a path, or ':' and a type after the link attribute name, found 'String'",
                "test.map:6:14: error: unknown type 'Strin'",
            ])
    }

    @Test func linkLinesBelowABrokenRelationshipAreNotReportedAgain() {
        #expect(
            headlines(Self.entities + "  members <- : [User]\n    link role : String\n" + Self.user) == [
                "test.map:4:14: error: expected a path after '<-', found ':'"
            ])
    }
}
