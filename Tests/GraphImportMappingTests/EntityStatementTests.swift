import GraphImportMapping
import Testing

/// `extras NAME` and `delete missing [within RELATIONSHIP]` inside an entity.
@Suite struct EntityStatementTests {
    static let entity = "entity E\n  key id\n  id : Int\n"

    @Test func parsesExtrasAndDeletionRules() throws {
        let mapping = try parse(
            """
            entity Comment
              key id
              extras raw
              delete missing within post
              id : String
              post : Post
            entity Post
              key id
              delete missing
              id : String
            """)
        #expect(mapping.entities.map(\.extras) == ["raw", nil])
        #expect(
            mapping.entities.map(\.deletion) == [
                DeletionRule(scope: "post", location: at(4, 3, 39)), DeletionRule(scope: nil, location: at(9, 3, 117)),
            ])
    }

    @Test func entityWithoutStatementsHasNoExtrasNorDeletion() throws {
        let entity = try parse(Self.entity).entities[0]
        #expect(entity.extras == nil && entity.deletion == nil)
    }

    @Test func keywordsStayUsableAsAttributeNames() throws {
        let mapping = try parse(Self.entity + "  extras : JSON?\n  delete <- deleted : Bool?\n  meta : String?\n")
        #expect(mapping.entities[0].attributes.map(\.name) == ["id", "extras", "delete", "meta"])
    }

    @Test func rejectsExtrasClashingWithMember() {
        let error = onlyError(Self.entity + "  extras ID\n")
        #expect(error?.0 == "test.map:4:10: error: extras 'ID' clashes with attribute 'id' of entity 'E'")
        #expect(error?.1 == "choose a name that 'E' does not use")
    }

    @Test(arguments: [
        ("  extras a\n  extras b\n", "test.map:5:3: error: entity 'E' already has `extras` (line 4)"),
        ("  delete missing\n  delete missing\n", "test.map:5:3: error: entity 'E' already has `delete missing` (line 4)"),
    ])
    func rejectsSecondStatement(lines: String, headline: String) {
        #expect(headlines(Self.entity + lines) == [headline])
    }

    @Test(arguments: [("extras raw", "extras NAME"), ("delete missing", "delete missing")])
    func rejectsStatementBeforeAnyEntity(line: String, written: String) {
        let keyword = String(line.prefix { $0 != " " })
        let error = onlyError(line + "\n" + Self.entity)
        #expect(error?.0 == "test.map:1:1: error: '\(keyword)' appears before any entity")
        #expect(error?.1 == "put `\(written)` below the `entity NAME` line it belongs to")
    }

    @Test func suggestsToOneForUnknownWithin() {
        let error = onlyError(Self.entity + "  parent : E?\n  delete missing within parnt\n")
        #expect(error?.0 == "test.map:5:25: error: no relationship named 'parnt' in entity 'E'")
        #expect(error?.1 == "did you mean 'parent'?")
    }

    @Test(arguments: [("id", "an attribute"), ("kids", "a to-many relationship")])
    func rejectsWithinNamingNoToOne(name: String, kind: String) {
        let error = onlyError(Self.entity + "  kids : [E]\n  delete missing within \(name)\n")
        #expect(error?.0 == "test.map:5:25: error: `within` names a to-one relationship; '\(name)' is \(kind)")
        #expect(error?.1 == "`within` names the parent of each object, one object: a to-one of this entity, or the `inverse` name of a to-many into it")
    }

    @Test(arguments: [
        ("extras", "test.map:4:9: error: expected an attribute name after 'extras', found end of line"),
        ("extras a b", "test.map:4:12: error: expected end of line after the attribute name, found 'b'"),
        ("delete", "test.map:4:9: error: expected 'missing' after 'delete', found end of line"),
        ("delete everything", "test.map:4:10: error: expected 'missing' after 'delete', found 'everything'"),
        ("delete missing now", "test.map:4:18: error: expected 'within' or end of line after 'missing', found 'now'"),
        ("delete missing within", "test.map:4:24: error: expected a relationship name after 'within', found end of line"),
        ("delete missing within a b", "test.map:4:27: error: expected end of line after the relationship name, found 'b'"),
        ("extra raw", "test.map:4:3: error: unknown statement 'extra'"),
    ])
    func reportsEntityStatementSyntaxError(line: String, headline: String) {
        #expect(headlines(Self.entity + "  " + line + "\n") == [headline])
    }
}
