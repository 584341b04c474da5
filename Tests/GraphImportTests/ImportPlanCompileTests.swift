import GraphImport
import GraphImportMapping
import Testing

/// `ImportPlan.compile(text:fileName:)`: the one way from a map's text to a plan.
@Suite("Compiling a map's text")
struct ImportPlanCompileTests {
    @Test func mapTextBecomesAPlanWithItsTables() throws {
        let plan = try ImportPlan.compile(text: "records at $[*] as PullRequest\nentity PullRequest\n  key id\n  id : Int\n", fileName: "prs.map")
        #expect(plan.entities.map(\.table) == ["pull_requests"])
        #expect(plan.mapping.fileName == "prs.map")
    }

    @Test func syntaxProblemsComeBackAsMappingErrors() {
        #expect(throws: MappingErrors.self) { try ImportPlan.compile(text: "records at $[*] as User\nentity User\n  key id\n  id : Nope\n", fileName: "a.map") }
    }

    @Test func unknownConverterIsRefusedWithTheCatalogGivenOnce() throws {
        var converters = ConverterCatalog.standard
        converters.register(
            Converter(signature: ConverterSignature(name: "shout", parameters: [], summary: "upper case")) { _ throws(ConversionError) in
                { value throws(ConversionError) in value }
            })
        let map = "records at $[*] as User\nentity User\n  key id\n  id : Int\n  name : String? | shout\n"
        #expect(throws: MappingErrors.self) { try ImportPlan.compile(text: map, fileName: "a.map") }
        let plan = try ImportPlan.compile(text: map, fileName: "a.map", converters: converters)
        #expect(plan.entities[0].attributes.map(\.name) == ["id", "name"])
    }

    /// A plan problem about an entity of an included file is shown in that file, with its `include`.
    @Test func planProblemsInAnIncludedFileNameThatFile() {
        let includes = IncludeResolver.files(["common.map": "entity User\n  key id\n  id : Int\n"])
        let map = "entity Person table users\n  key id\n  id : Int\ninclude \"common.map\"\n"
        do {
            _ = try ImportPlan.compile(text: map, fileName: "people.map", includes: includes)
            Issue.record("the map compiled")
        } catch {
            #expect(
                error.description == """
                    common.map:1:8: error: entity 'User' and entity 'Person' would share the table 'users'
                     1 | entity User
                       |        ^
                    help: give one of them its own name with `table NAME`
                    note: included from people.map:4:1
                    """)
        }
    }
}
