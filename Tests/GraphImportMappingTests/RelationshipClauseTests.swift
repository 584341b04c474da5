import GraphImportMapping
import Testing

/// `delete nullify|cascade|deny` and `each SUBPATH` after a relationship's type.
@Suite struct RelationshipClauseTests {
    static let entity = "entity E\n  key id\n  id : Int\n"

    @Test func parsesDeleteRuleAndElementPathInAnyOrderWithInverse() throws {
        let mapping = try parse(
            """
            entity Comment
              key id
              id : String
              post <- link_id : Post delete cascade inverse comments
              replies <- replies.data.children : [Comment] each data inverse parent
              awards : [Award] inverse comments each "award info".id delete deny
            entity Post
              key id
              id : String
            entity Award
              key id
              id : String
            """)
        #expect(
            mapping.entities[0].relationships == [
                Relationship(
                    name: "post", source: KeyPath([.key("link_id")]), target: "Post", isToMany: false, isOptional: false,
                    inverse: "comments", location: at(4, 3, 40), deleteRule: .cascade, pathLocation: at(4, 11, 48)),
                Relationship(
                    name: "replies", source: KeyPath([.key("replies"), .key("data"), .key("children")]), target: "Comment",
                    isToMany: true, isOptional: true, inverse: "parent", location: at(5, 3, 97),
                    elementPath: KeyPath([.key("data")]), pathLocation: at(5, 14, 108)),
                Relationship(
                    name: "awards", source: KeyPath([.key("awards")]), target: "Award", isToMany: true, isOptional: true,
                    inverse: "comments", location: at(6, 3, 169), deleteRule: .deny,
                    elementPath: KeyPath([.key("award info"), .key("id")])),
            ])
    }

    @Test(arguments: DeleteRule.allCases)
    func parsesEveryDeleteRule(rule: DeleteRule) throws {
        let mapping = try parse(Self.entity + "  parent : E? delete \(rule.rawValue)\n")
        #expect(mapping.entities[0].relationships[0].deleteRule == rule)
    }

    @Test func deleteRuleDefaultsToNullify() throws {
        let mapping = try parse(Self.entity + "  parent : E?\n  children : [E]\n")
        #expect(mapping.entities[0].relationships.map(\.deleteRule) == [.nullify, .nullify])
        #expect(mapping.entities[0].relationships.map(\.elementPath) == [nil, nil])
    }

    @Test func suggestsDeleteRuleForMisspelledRule() {
        let error = onlyError(Self.entity + "  parent : E? delete casade\n")
        #expect(error?.0 == "test.map:4:22: error: unknown delete rule 'casade'")
        #expect(error?.1 == "did you mean 'cascade'?")
    }

    @Test func rejectsEachOnToOne() {
        let error = onlyError(Self.entity + "  parent : E? each data\n")
        #expect(error?.0 == "test.map:4:15: error: 'each' applies only to a to-many relationship, or a to-one with `where`; 'parent' is a to-one")
        #expect(error?.1 == "write the path to the E itself after '<-', or make the type `[E]`")
    }

    @Test func rejectsRepeatedInverse() {
        #expect(
            headlines(Self.entity + "  parent : E? inverse a delete deny inverse b\n")
                == ["test.map:4:37: error: 'inverse' appears twice on 'parent'"])
    }

    @Test(arguments: [
        ("parent : E? delete", "test.map:4:21: error: expected 'nullify', 'cascade' or 'deny' after 'delete', found end of line"),
        ("parent : E? delete 1", "test.map:4:22: error: expected 'nullify', 'cascade' or 'deny' after 'delete', found '1'"),
        ("parent : E? delete deny x", "test.map:4:27: error: expected another clause or end of line after the delete rule, found 'x'"),
        ("kids : [E] each", "test.map:4:18: error: expected a path after 'each', found end of line"),
        ("kids : [E] each a[*]", "test.map:4:20: error: '[*]' is allowed only in a `records` path"),
        ("kids : [E] each data y", "test.map:4:24: error: expected another clause or end of line after the element path, found 'y'"),
        ("kids : [E] each data delete deny inverse a b", "test.map:4:46: error: expected end of line after the inverse name, found 'b'"),
    ])
    func reportsRelationshipClauseSyntaxError(line: String, headline: String) {
        #expect(headlines(Self.entity + "  " + line + "\n") == [headline])
    }
}
