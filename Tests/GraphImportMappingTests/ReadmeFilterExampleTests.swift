import GraphImportMapping
import Testing

/// The examples of `where` and fallback paths in Mappings/README.md parse.
extension ReadmeExampleTests {
    static let targets = ["Tweet", "User", "Item", "Post", "File"].map { "entity \($0)\n  key id\n  id : Int\n" }.joined()

    @Test func filteredRecordsExampleParses() throws {
        let mapping = try parse(try Self.block(after: "### Filtered records") + Self.targets)
        #expect(mapping.records.map(\.entity) == ["Tweet", "User", "Item"])
        #expect(mapping.records.map { $0.filter?.test } == [.equals([.string("tweet")]), .equals([.string("user"), .string("account")]), .isAbsent])
    }

    @Test func elementFiltersExampleParses() throws {
        let mapping = try parse("entity Feed\n  key id\n  id : Int\n" + (try Self.block(after: "### Element filters")) + Self.targets)
        let relationships = mapping.entities[0].relationships
        #expect(relationships.map(\.name) == ["quotes", "inReplyTo", "cited", "posts", "images", "live"])
        #expect(relationships.map(\.filter?.field.description) == ["type", "type", "type", "$", "name", "deleted_at"])
        #expect(relationships[1].elementPath == KeyPath([.key("id")]))
    }

    @Test func fallbackPathsExampleParses() throws {
        let mapping = try parse("entity Repo\n  key id\n  id : Int\n" + (try Self.block(after: "### Fallback paths")) + Self.targets)
        let repo = mapping.entities[0]
        #expect(repo.attributes.map(\.sources.written) == ["id", "full_name, name", "username, screen_name"])
        #expect(repo.relationships.map(\.sources.written) == ["owner, owner_id", "items, items_ids"])
    }
}
