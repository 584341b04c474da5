import GraphImportMapping
import Testing

/// `@parent.PATH` (a value of the object whose relationship reached this one) and `@root.PATH`
/// (a value of the response's root document): how they parse, and where they may stand.
@Suite struct AnchorPathTests {
    /// A repo's issues, numbered per repo: the key takes the repo's id from the parent.
    static let issues = """
        records at repos[*] as Repo
        entity Repo
          key id
          id : Int
          issues : [Issue] inverse repo
        entity Issue
          key repoId, number
          number : Int

        """

    @Test func parentAndRootPathsParseAsAnchorsFollowedBySteps() throws {
        let mapping = try parse(
            Self.issues + "  repoId <- @parent.id : Int\n  owner <- @parent.@parent.login : String?\n  total <- @root.meta.total : Int?\n"
                + "  odd <- \"@parent\".id : Int?\n  owner2 <- repository.id, @parent.id : Repo?\n")
        let issue = mapping.entities[1]
        #expect(issue.attribute(named: "repoId")?.source == KeyPath([.parent, .key("id")]))
        #expect(issue.attribute(named: "owner")?.source == KeyPath([.parent, .parent, .key("login")]))
        #expect(issue.attribute(named: "total")?.source == KeyPath([.root, .key("meta"), .key("total")]))
        #expect(issue.attribute(named: "odd")?.source == KeyPath([.key("@parent"), .key("id")]))
        #expect(issue.relationship(named: "owner2")?.sources == [KeyPath([.key("repository"), .key("id")]), KeyPath([.parent, .key("id")])])
    }

    @Test func anchorsAndKeysSpelledLikeThemAreWrittenBackAsTheyParse() throws {
        let paths = [
            KeyPath([.parent, .key("id")]), KeyPath([.parent, .parent, .key("id")]), KeyPath([.root, .key("a"), .index(0)]),
            KeyPath([.key("@parent"), .key("id")]), KeyPath([.parent, .key("@parent")]), KeyPath([.key("@root")]),
        ]
        #expect(paths.map(\.description) == ["@parent.id", "@parent.@parent.id", "@root.a[0]", "\"@parent\".id", "@parent.\"@parent\"", "\"@root\""])
        for path in paths {
            let mapping = try parse(Self.issues + "  repoId <- @parent.id : Int\n  x <- \(path.description) : JSON\n")
            #expect(mapping.entities[1].attribute(named: "x")?.source == path)
        }
    }

    @Test func withinMayNameTheInverseOfAToManyIntoTheEntity() throws {
        let mapping = try parse(Self.issues + "  repoId <- @parent.id : Int\n  delete missing within repo\n")
        #expect(mapping.entities[1].deletion?.scope == "repo")
    }

    @Test(arguments: [
        ("  repoId <- @parent : Int\n", "test.map:9:13: error: `@parent` needs a key after it"),
        ("  repoId <- @root : Int\n", "test.map:9:13: error: `@root` needs a key after it"),
        ("  repoId <- @parent.@parent : Int\n", "test.map:9:13: error: `@parent` needs a key after it"),
        ("  repoId <- @parent.id : Int\n  tags <- @parent.tags : [Issue]\n", "test.map:10:11: error: the to-many 'tags' cannot read `@parent`"),
        ("  repoId <- @parent.id : Int\n  tags <- tags, @root.tags : [Issue]\n", "test.map:10:17: error: the to-many 'tags' cannot read `@root`"),
        ("  repoId <- @parent.id : Int\n  tags <- tags : [Issue] each @parent.x\n", "test.map:10:31: error: `@parent` cannot start the path of `each`"),
        (
            "  repoId <- @parent.id : Int\n  tags <- tags : [Issue]\n    link at <- @root.t : Int\n",
            "test.map:11:16: error: `@root` cannot start the path of a `link` line"
        ),
        (
            "  repoId <- @parent.id : Int\n  tags <- tags where @parent.x = 1 : [Issue]\n",
            "test.map:10:22: error: `@parent` cannot start the path of a `where` condition"
        ),
        ("  repoId <- @parent.id : Int\n  delete missing within rep\n", "test.map:10:25: error: no relationship named 'rep' in entity 'Issue'"),
    ])
    func misplacedAnchorsAreMapErrors(lines: String, expected: String) {
        #expect(onlyError(Self.issues + lines)?.0 == expected)
    }

    @Test(arguments: [
        ("records at @root.items[*] as Repo\n", "test.map:1:12: error: `@root` cannot start the path of a `records` line"),
        ("meta total <- @root.total : Int\n", "test.map:1:15: error: `@root` cannot start the path of a `meta` line"),
        ("records at items[*] by @parent.kind\n  \"r\" -> Repo\n", "test.map:1:24: error: `@parent` cannot start the path of a discriminator"),
    ])
    func anchorsOutsideMembersAreMapErrors(line: String, expected: String) {
        #expect(onlyError(line + "entity Repo\n  key id\n  id : Int\n")?.0 == expected)
    }

    @Test func metaHintSaysItsPathStartsAtTheRootAlready() {
        #expect(
            onlyError("meta total <- @root.total : Int\nentity Repo\n  key id\n  id : Int\n")?.1
                == "a `meta` path starts at the response's root already: drop `@root.`")
    }

    /// A record has no parent: an entity only records reach would never read a value there.
    @Test func parentReadByAnEntityNoRelationshipReachesIsAMapError() {
        let error = onlyError("records at items[*] as Issue\nentity Issue\n  key repoId, number\n  repoId <- @parent.id : Int\n  number : Int\n")
        #expect(error?.0 == "test.map:4:13: error: `@parent` is read by Issue, but no relationship of the map reaches Issue objects")
        #expect(error?.1?.hasPrefix("`@parent` is the object whose relationship reached this one") == true)
    }

    @Test func rootPathAroundAMetaPathIsAMapError() {
        let error = onlyError(
            "meta owner <- repository.owner : String\nrecords at issues[*] as Issue\nentity Issue\n  key id\n  id : Int\n  repo <- @root.repository : JSON\n")
        #expect(
            error?.0
                == "test.map:6:11: error: `@root.repository` holds the value that `meta owner <- repository.owner` reads: the reader keeps that value, not the one around it"
        )
    }

    @Test func rootPathInsideAMetaPathIsFine() throws {
        let mapping = try parse(
            "meta repo <- repository : JSON\nrecords at issues[*] as Issue\nentity Issue\n  key id\n  id : Int\n  repoId <- @root.repository.id : Int\n")
        #expect(mapping.entities[0].attribute(named: "repoId")?.source == KeyPath([.root, .key("repository"), .key("id")]))
    }

    @Test func withinNamingNothingSuggestsTheInverseOfAToMany() {
        #expect(onlyError(Self.issues + "  repoId <- @parent.id : Int\n  delete missing within rep\n")?.1 == "did you mean 'repo'?")
    }
}

extension AnchorPathTests {
    @Test func parentMemberNameParsesAsTheParentsKeyAndEndsThePath() throws {
        let mapping = try parse(Self.issues + "  repoId <- @parent.id : Int\n  a <- @parent.$key : String?\n  b <- @parent.\"$key\" : String?\n")
        #expect(mapping.entities[1].attribute(named: "a")?.source == KeyPath([.parent, .memberName]))
        #expect(mapping.entities[1].attribute(named: "b")?.source == KeyPath([.parent, .key("$key")]))
        #expect(KeyPath([.parent, .parent, .memberName]).description == "@parent.@parent.$key")
        #expect(KeyPath([.parent, .key("$key")]).description == "@parent.\"$key\"")
        #expect(onlyError(Self.issues + "  repoId <- @parent.id : Int\n  a <- @parent.$key.x : String?\n")?.0.hasPrefix("test.map:10:16: error: ") == true)
    }
}
