import GraphImportMapping
import Testing

/// An entity whose to-many reads `$` (`files <- $ : [File]`) takes arrays as its objects: its
/// other members may read only what an array has (`$`, `$key`, `$index`, `@parent`, `@root`).
@Suite struct ArrayObjectTests {
    static let releases =
        "records at releases{*} as Release\nentity Release\n key version\n version <- $key : String\n files <- $ : [File]\n"
    static let file = "entity File\n key name\n name : String\n"

    @Test func aToManyMayReadTheArrayItIs() throws {
        let mapping = try parse(Self.releases + " package <- @root.info.name : String?\n count <- $ : JSON?\n" + Self.file)
        #expect(mapping.entities[0].relationship(named: "files")?.source == KeyPath([]))
    }

    @Test func aFallbackBeforeTheArrayReadsObjectsToo() throws {
        let map =
            "records at releases{*} as Release\nentity Release\n key version\n version <- $key : String\n"
            + " files <- files, $ : [File]\n size : Int?\n" + Self.file
        #expect(try parse(map).entities[0].attributes.count == 2)
    }

    @Test(arguments: [
        (
            " size : Int\n",
            "test.map:6:2: error: Release.size reads 'size', but Release objects are arrays (`files <- $ : [File]` reads their elements), which have no members"
        ),
        (
            " first <- $[0].name : String?\n",
            "test.map:6:11: error: Release.first reads '$[0].name', but Release objects are arrays (`files <- $ : [File]` reads their elements), which have no members"
        ),
        (
            " latest <- latest : File?\n",
            "test.map:6:12: error: Release.latest reads 'latest', but Release objects are arrays (`files <- $ : [File]` reads their elements), which have no members"
        ),
        (
            " yanked <- yanked : [File]\n",
            "test.map:6:12: error: Release.yanked reads 'yanked', but Release objects are arrays (`files <- $ : [File]` reads their elements), which have no members"
        ),
    ])
    func refusesAMemberAnArrayDoesNotHave(member: String, headline: String) {
        #expect(headlines(Self.releases + member + Self.file) == [headline])
    }

    @Test func theRefusalSaysWhereTheValueMayComeFrom() {
        let error = onlyError(
            "records at releases{*} as Release\nentity Release\n key package, version\n package <- info.name : String\n"
                + " version <- $key : String\n files <- $ : [File]\n" + Self.file)
        #expect(
            error?.0
                == "test.map:4:13: error: Release.package reads 'info.name', but Release objects are arrays (`files <- $ : [File]` reads their elements), which have no members"
        )
        #expect(
            error?.1
                == "read it from each element's entity, or from `$key`, `$index`, `@parent.…` or `@root.…`; for Release objects that are objects too, give the to-many a path to try first (`<- items, $`)"
        )
    }
}

/// The example of "Members whose values are arrays" parses as the section says.
extension ReadmeExampleTests {
    @Test func arrayMembersExampleParses() throws {
        let pypi = try parse(try Self.block(after: "### Members whose values are arrays"))
        let release = try #require(pypi.entity(named: "Release"))
        #expect(release.relationship(named: "files")?.source == KeyPath([]))
        #expect(release.attribute(named: "version")?.source == KeyPath([.memberName]))
        #expect(pypi.entity(named: "Package")?.relationship(named: "releases")?.source == KeyPath([.key("releases"), .anyMember]))
    }
}
