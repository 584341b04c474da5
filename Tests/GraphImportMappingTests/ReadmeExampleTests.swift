import Foundation
import GraphImportMapping
import Testing

/// The language reference's examples are maps that parse, read from Mappings/README.md at test time.
@Suite struct ReadmeExampleTests {
    /// The first fenced block after `heading` in the README.
    static func block(after heading: String) throws -> String {
        // Resolved, so that a package that links this folder in still finds the repository's README.
        let readme = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Mappings/README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let section = try #require(text.range(of: heading)).upperBound
        let open = try #require(text.range(of: "```\n", range: section..<text.endIndex)).upperBound
        let close = try #require(text.range(of: "```", range: open..<text.endIndex)).lowerBound
        return String(text[open..<close])
    }

    @Test func combinedExampleParses() throws {
        let mapping = try parse(try Self.block(after: "## A combined example"))
        #expect(mapping.meta.map(\.name) == ["after"])
        #expect(mapping.records.first?.choice?.cases.map(\.entity) == ["Post", "Comment", nil])
        let post = try #require(mapping.entity(named: "Post"))
        #expect(post.extras == "raw" && post.deletion?.scope == nil)
        #expect(post.attributes.filter { $0.source == nil }.map(\.name) == ["label", "firstSeenAt", "lastSeenAt", "updatedAt"])
        let comment = try #require(mapping.entity(named: "Comment"))
        #expect(comment.deletion?.scope == "post")
        #expect(comment.relationships.map(\.deleteRule) == [.cascade, .nullify])
        #expect(comment.relationships.map(\.elementPath) == [nil, KeyPath([.key("data")])])
    }

    @Test func entityStatementsExampleParses() throws {
        let example = try Self.block(after: "## Entity statements")
        let mapping = try parse(example + "entity User\n  key id\n  id : Int\n")
        #expect(mapping.entities[0].deletion?.scope == "owner")
    }
}

/// The examples of "Keys scoped by the parent" parse as the section says.
extension ReadmeExampleTests {
    @Test func parentScopedKeyExamplesParse() throws {
        let issues = try parse(try Self.block(after: "### Keys scoped by the parent"))
        #expect(issues.entity(named: "Issue")?.key == ["repoId", "number"])
        #expect(issues.entity(named: "Issue")?.deletion?.scope == "repo")
        #expect(issues.entity(named: "Comment")?.attribute(named: "repoId")?.source == KeyPath([.parent, .parent, .key("id")]))
        let wrapped = try parse(try Self.block(after: "so on. What follows the anchor") + "entity Repo\n  key id\n  id : Int\n")
        #expect(wrapped.entities[0].relationship(named: "repo")?.source == KeyPath([.root, .key("repository")]))
        let orders = try parse(try Self.block(after: "- `delete missing within INVERSE`"))
        #expect(orders.entity(named: "Line")?.deletion?.scope == "order")
    }
}
