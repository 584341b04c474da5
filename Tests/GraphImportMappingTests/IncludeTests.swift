import Foundation
import GraphImportMapping
import Testing

/// `include "FILE"`: files read through an in-memory resolver, spliced at the `include` line;
/// every diagnostic names the file it is in.
@Suite struct IncludeTests {
    static let common = """
        # shared
        entity User
          key id
          id : Int

        """

    /// Parses `files["main.map"]` as `main.map`, reading includes from `files`.
    static func parse(_ files: [String: String]) throws(MappingErrors) -> Mapping {
        try MapParser.parse(
            files["main.map"] ?? "", fileName: "main.map", includes: .files(files), converters: testConverters, validators: testValidators)
    }

    /// The diagnostics of files that must fail, rendered as the command line shows them.
    static func errors(_ files: [String: String], sourceLocation: Testing.SourceLocation = #_sourceLocation) -> String {
        do {
            _ = try parse(files)
            Issue.record("the map parsed without errors", sourceLocation: sourceLocation)
            return ""
        } catch {
            return error.description
        }
    }

    @Test func includedEntitiesAreDefinedAtTheIncludeLine() throws {
        let main = """
            entity Tweet
              key id
              id : Int
              author <- user : User inverse tweets
            include "common.map"
            entity Tag
              key name
              name : String

            """
        let mapping = try Self.parse(["main.map": main, "common.map": Self.common])
        #expect(mapping.entities.map(\.name) == ["Tweet", "User", "Tag"])
        #expect(mapping.includedFiles == [MapFile(name: "common.map", text: Self.common)])
        // Locations are in the file the entity is written in.
        #expect(mapping.entity(named: "User")?.location.line == 2)
        #expect(mapping.entity(named: "Tag")?.location.line == 6)
    }

    @Test func aMapWithoutRecordsTakesTheFirstEntityEvenFromAnInclude() throws {
        let mapping = try Self.parse(["main.map": "include \"common.map\"\n", "common.map": Self.common])
        #expect(mapping.records.map(\.entity) == ["User"])
    }

    @Test func namesAreRelativeToTheIncludingFile() throws {
        let files = [
            "main.map": "include \"shared/a.map\"\n",
            "shared/a.map": "include \"b.map\"\nentity A\n  key id\n  id : Int\n  b : B\n",
            "shared/b.map": "entity B\n  key id\n  id : Int\n",
        ]
        let mapping = try Self.parse(files)
        #expect(mapping.entities.map(\.name) == ["B", "A"])
        #expect(mapping.includedFiles.map(\.name) == ["shared/a.map", "shared/b.map"])
    }

    @Test func anErrorInAnIncludedFileNamesItsFileAndTheIncludeLine() {
        let files = [
            "main.map": "records at $[*] as Tweet\n\ninclude \"mid.map\"\n",
            "mid.map": "# the middle\ninclude \"common.map\"\n",
            "common.map": "entity Tweet\n  key id\n  id : Innt\n",
        ]
        #expect(
            Self.errors(files) == """
                common.map:3:8: error: unknown type 'Innt'
                 3 |   id : Innt
                   |        ^
                help: did you mean 'Int'?
                note: included from mid.map:2:1
                note: included from main.map:3:1
                """)
    }

    @Test func errorsAreInTheOrderOfTheSplicedText() {
        let files = [
            "main.map": "entity A\n  key id\n  id : Intt\ninclude \"b.map\"\nentity C\n  key id\n  id : Intt\n",
            "b.map": "entity B\n  key id\n  id : Intt\n",
        ]
        let headlines = Self.errors(files).split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(headlines.map { $0.split(separator: ":").prefix(2).joined(separator: ":") } == ["main.map:3", "b.map:3", "main.map:7"])
    }

    @Test func aMissingFileIsAnErrorAtTheIncludeLine() {
        #expect(
            Self.errors(["main.map": "entity A\n  key id\n  id : Int\ninclude \"nowhere.map\"\n"]) == """
                main.map:4:1: error: cannot include 'nowhere.map': no such file
                 4 | include "nowhere.map"
                   | ^
                """)
    }

    @Test func aMapGivenAsTextCannotInclude() {
        do {
            _ = try MapParser.parse("include \"common.map\"\n" + Self.common, fileName: "text.map", converters: testConverters)
            Issue.record("the map parsed")
        } catch {
            #expect(error.diagnostics.map(\.message) == ["cannot include 'common.map': this map was given as text, with no files to include"])
        }
    }

    @Test func aCycleIsAnErrorAtTheIncludeThatClosesItNamingTheChain() {
        let files = [
            "main.map": "include \"a.map\"\n",
            "a.map": "include \"b.map\"\nentity A\n  key id\n  id : Int\n",
            "b.map": "entity B\n  key id\n  id : Int\ninclude \"a.map\"\n",
        ]
        #expect(
            Self.errors(files) == """
                b.map:4:1: error: include cycle: 'a.map' includes 'b.map' includes 'a.map'
                 4 | include "a.map"
                   | ^
                help: a file cannot include itself, even through another; move what both need into a file that includes neither
                note: included from a.map:1:1
                note: included from main.map:1:1
                """)
    }

    @Test func aMapIncludingItselfIsACycle() {
        let message = Self.errors(["main.map": "include \"main.map\"\nentity A\n  key id\n  id : Int\n"])
        #expect(message.hasPrefix("main.map:1:1: error: include cycle: 'main.map' includes 'main.map'\n"))
    }

    @Test func includesNestAtMost32FilesDeep() throws {
        var files = ["main.map": "include \"1.map\"\nentity A\n  key id\n  id : Int\n"]
        for depth in 1...40 { files["\(depth).map"] = "include \"\(depth + 1).map\"\n" }
        files["41.map"] = ""
        let message = Self.errors(files)
        #expect(message.hasPrefix("31.map:1:1: error: includes nest more than 32 files deep\n"))
        files["31.map"] = ""
        _ = try Self.parse(files)
    }

    @Test func aFileReachedTwiceIsIncludedOnce() throws {
        let files = [
            "main.map": "include \"a.map\"\ninclude \"b.map\"\ninclude \"./common.map\"\n",
            "a.map": "include \"common.map\"\nentity A\n  key id\n  id : Int\n  user : User\n",
            "b.map": "include \"common.map\"\nentity B\n  key id\n  id : Int\n  user : User\n",
            "common.map": Self.common,
            "./common.map": Self.common,
        ]
        let resolver = IncludeTests.normalizing(files)
        let mapping = try MapParser.parse(files["main.map"]!, fileName: "main.map", includes: resolver, converters: testConverters)
        #expect(mapping.entities.map(\.name) == ["User", "A", "B"])
        #expect(mapping.includedFiles.map(\.name) == ["a.map", "common.map", "b.map"])
    }

    /// Like `.files`, but `./NAME` is the same file as `NAME`, as a resolved path would make it.
    static func normalizing(_ files: [String: String]) -> IncludeResolver {
        IncludeResolver { name, _ in
            guard let text = files[name] else { return .failure(IncludeFailure("no such file")) }
            let identity = name.hasPrefix("./") ? String(name.dropFirst(2)) : name
            return .success(MapFile(name: name, identity: identity, text: text))
        }
    }

    @Test func anEntityDefinedInTwoFilesIsAnErrorAtTheIncludeLineNamingBoth() {
        let files = ["main.map": "entity User\n  key id\n  id : Int\n\ninclude \"common.map\"\n", "common.map": Self.common]
        #expect(
            Self.errors(files) == """
                main.map:5:1: error: entity 'User' is defined twice: at main.map:1 and at common.map:2
                 5 | include "common.map"
                   | ^
                help: define an entity in one file; a map uses the entities of the files it includes as they are
                """)
    }

    @Test func anEntityOfAnIncludeDefinedAgainInTheMapIsAnErrorAtTheDefinition() {
        let files = ["main.map": "include \"common.map\"\nentity user\n  key id\n  id : Int\n", "common.map": Self.common]
        let first = Self.errors(files).split(separator: "\n").first
        #expect(first == "main.map:2:8: error: entity 'user' is defined twice: at common.map:2 and at main.map:2")
    }

    @Test func aTableUsedInAnotherFileNamesThatFile() {
        let files = [
            "main.map": "include \"common.map\"\nentity Person table User\n  key id\n  id : Int\n",
            "common.map": "entity User table User\n  key id\n  id : Int\n",
        ]
        #expect(Self.errors(files).hasPrefix("main.map:2:21: error: table 'User' is already used by entity 'User' (line 1 of common.map)\n"))
    }

    @Test func recordsAndMetaLinesBelongToTheMapNotToAnInclude() {
        let files = [
            "main.map": "include \"common.map\"\n",
            "common.map": "records at users[*] as User\n  meta next <- cursor : String\nentity User\n  key id\n  id : Int\n",
        ]
        let headlines = Self.errors(files).split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(
            headlines == [
                "common.map:1:1: error: `records` cannot be in an included file",
                "common.map:2:3: error: `meta` cannot be in an included file",
            ])
    }

    @Test func linesAfterAnIncludeDoNotJoinTheEntityAboveIt() {
        let files = [
            "main.map": "entity Tweet\n  key id\n  id : Int\ninclude \"common.map\"\n  text : String\n",
            "common.map": "entity User\n  key id\n  id : Int",
        ]
        let headlines = Self.errors(files).split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(headlines == ["main.map:5:3: error: 'text' appears before any entity"])
    }

    @Test func anIncludeWithoutAQuotedNameIsASyntaxError() {
        let headline = Self.errors(["main.map": "include common.map\nentity A\n  key id\n  id : Int\n"]).split(separator: "\n").first
        #expect(headline == "main.map:1:9: error: expected a file name in double quotes after 'include', found 'common'")
    }

    @Test func includeIsStillAnAttributeName() throws {
        let mapping = try Self.parse(["main.map": "entity A\n  key id\n  id : Int\n  include : Bool\n"])
        #expect(mapping.entities[0].attributes.map(\.name) == ["id", "include"])
    }

    @Test func laterStagesPlaceALocationInItsFile() throws {
        let mapping = try Self.parse(["main.map": "\ninclude \"common.map\"\n", "common.map": Self.common])
        let user = try #require(mapping.entity(named: "User"))
        let diagnostic = mapping.diagnostic(at: user.location, "a plan problem")
        #expect(diagnostic.fileName == "common.map")
        #expect(diagnostic.sourceLine == "entity User")
        #expect(diagnostic.notes == ["included from main.map:2:1"])
    }

    @Test func theRecordedTextHasEveryIncludedFileUnderItsName() throws {
        let main = "include \"common.map\"\n"
        let mapping = try Self.parse(["main.map": main, "common.map": Self.common])
        #expect(mapping.textWithIncludes == main + "# included: common.map\n" + Self.common)
        let alone = try Self.parse(["main.map": Self.common])
        #expect(alone.textWithIncludes == Self.common)
    }

    @Test func theReadmeExampleParsesWithTheCorpusEntities() throws {
        let example = try ReadmeExampleTests.block(after: "## Shared map files")
        let entities = try String(contentsOfFile: Self.mappingsFile("mastodon-entities.map"), encoding: .utf8)
        let mapping = try MapParser.parse(
            example, fileName: "mastodon-context.map", includes: .files(["mastodon-entities.map": entities]),
            converters: testConverters + [ConverterSignature(name: "string", parameters: [], summary: "a number as text")])
        #expect(mapping.records.first?.entity == "Status")
        #expect(mapping.entities.map(\.name) == ["Status", "Account", "Tag", "Media", "Card"])
    }

    static func mappingsFile(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Mappings/" + name).path
    }
}
