import GraphImportMapping
import Testing

/// `: (Post | Comment) by PATH` and `: [Photo | Video] by PATH` with case lines below: one
/// relationship to several entities.
@Suite struct PolymorphicRelationshipTests {
    static let entities = """
        entity Post
          key name
          name : String
        entity Photo
          key id
          id : Int
        entity Video
          key id
          id : Int

        """

    /// Reddit's `parent_id`: the fullname's prefix says whether it names a post or a comment.
    @Test func parsesAToOneChosenByTheFormOfItsKey() throws {
        let mapping = try parse(
            Self.entities + """
                entity Comment
                  key name
                  name : String
                  parent <- parent_id : (Post | Comment)? by $ inverse children
                    has prefix "t3_" -> Post
                    has suffix "_c" -> Comment
                    else -> ignore
                """)
        let parent = try #require(mapping.entity(named: "Comment")?.relationship(named: "parent"))
        #expect(parent.target == "Post")
        #expect(parent.targets == ["Post", "Comment"])
        #expect(!parent.isToMany && parent.isOptional)
        #expect(parent.inverse == "children")
        let choice = try #require(parent.choice)
        #expect(choice.discriminator == KeyPath([]))
        #expect(choice.cases.map(\.test) == [.hasPrefix("t3_"), .hasSuffix("_c"), nil])
        #expect(choice.cases.map(\.entity) == ["Post", "Comment", nil])
        #expect(choice.cases.map(\.location.line) == [14, 15, 16])
        #expect(choice.location.line == 13)
    }

    @Test func parsesAToManyChosenByAFieldOfEachElement() throws {
        let mapping = try parse(
            Self.entities + """
                entity Album
                  key id
                  id : Int
                  media <- items : [Photo | Video] by meta.type each data
                    "photo" -> Photo
                    7 -> Video
                    true -> ignore
                """)
        let media = try #require(mapping.entity(named: "Album")?.relationship(named: "media"))
        #expect(media.isToMany && media.targets == ["Photo", "Video"])
        #expect(media.elementPath == KeyPath([.key("data")]))
        #expect(media.choice?.discriminator == KeyPath([.key("meta"), .key("type")]))
        #expect(media.choice?.cases.map(\.test) == [.equals(.string("photo")), .equals(.int(7)), .equals(.bool(true))])
        #expect(media.choice?.fallback == nil)
    }

    @Test func linkLinesMayFollowTheCases() throws {
        let mapping = try parse(
            Self.entities + """
                entity Album
                  key id
                  id : Int
                  media : [Photo | Video] by type
                    "photo" -> Photo
                    "video" -> Video
                    link caption : String?
                """)
        #expect(mapping.entity(named: "Album")?.relationship(named: "media")?.linkAttributes.map(\.name) == ["caption"])
    }

    @Test func aRelationshipToOneEntityHasNoChoice() throws {
        let mapping = try parse(Self.entities + "entity Album\n  key id\n  id : Int\n  cover : Photo?\n")
        #expect(mapping.entity(named: "Album")?.relationship(named: "cover")?.choice == nil)
    }

    // MARK: Map errors

    static func album(_ member: String) -> String { Self.entities + "entity Album\n  key id\n  id : Int\n" + member }

    @Test func severalEntitiesWithoutBySayHowToChoose() {
        let error = onlyError(Self.album("  media : [Photo | Video]\n"))
        #expect(error?.0 == "test.map:13:12: error: 'media' may link to Photo or Video but does not say how each is chosen")
        #expect(error?.1 == "add `by PATH` to the line and case lines below it, such as `\"photo\" -> Photo`")
    }

    @Test func byOnARelationshipToOneEntityIsAnError() {
        let error = onlyError(Self.album("  cover : Photo by type\n    \"p\" -> Photo\n"))
        #expect(error?.0 == "test.map:13:17: error: 'by' chooses among several entities, and 'cover' links to one (Photo)")
        #expect(error?.1 == "write the entities it may link to: `(Photo | Other)` for a to-one, `[Photo | Other]` for a to-many")
    }

    @Test func caseNamingAnEntityOutsideTheTypeSuggestsTheClosest() {
        let error = onlyError(Self.album("  media : [Photo | Video] by type\n    \"p\" -> Photo\n    \"v\" -> Vdeo\n    \"x\" -> Video\n"))
        #expect(error?.0 == "test.map:15:12: error: 'Vdeo' is not one of the entities of 'media' (Photo, Video)")
        #expect(error?.1 == "did you mean 'Video'?")
    }

    @Test func everyEntityOfTheTypeNeedsACase() {
        let error = onlyError(Self.album("  media : [Photo | Video] by type\n    \"p\" -> Photo\n    else -> ignore\n"))
        #expect(error?.0 == "test.map:13:20: error: no case line of 'media' chooses 'Video'")
    }

    @Test func byWithoutCaseLinesIsAnError() {
        let error = onlyError(Self.album("  media : [Photo | Video] by type\n"))
        #expect(error?.0 == "test.map:13:27: error: 'media' chooses by a value but has no case lines")
        #expect(error?.1 == "add lines such as `\"photo\" -> Photo` or `has prefix \"t3_\" -> Post` below it")
    }

    @Test func caseLinesBelowAMemberWithoutByAreAnError() {
        let error = onlyError(Self.album("  cover : Photo?\n    has prefix \"p\" -> Photo\n"))
        #expect(
            error?.0
                == "test.map:14:5: error: a case line must follow a `records … by PATH` line or a relationship with `by PATH`; 'cover' has no 'by'")
    }

    @Test func byOnAnAttributeIsAnError() {
        let error = onlyError(Self.album("  kind : String by type\n    \"p\" -> Photo\n"))
        #expect(error?.0 == "test.map:13:17: error: attribute 'kind' cannot have 'by' or case lines")
    }

    @Test func duplicateCasesAreNamedWithTheFirstLine() {
        let found = headlines(
            Self.album("  media : [Photo | Video] by type\n    has prefix \"p\" -> Photo\n    \"v\" -> Video\n    has prefix \"p\" -> Video\n"))
        #expect(found == ["test.map:16:5: error: duplicate case has prefix \"p\" (already declared at line 14)"])
    }

    @Test func caseWithAtPointsToEach() {
        let error = onlyError(Self.album("  media : [Photo | Video] by type\n    \"p\" -> Photo at data\n    \"v\" -> Video\n"))
        #expect(error?.0 == "test.map:14:18: error: a relationship's case takes no 'at'")
        #expect(error?.1 == "say where the object sits in each element with `each PATH` on the relationship line")
    }

    @Test func parenthesesNeedSeveralEntities() {
        let error = onlyError(Self.album("  cover : (Photo) by type\n"))
        #expect(
            error?.0 == "test.map:13:17: error: expected '|' and another entity name after 'Photo' (one entity needs no parentheses), found ')'")
    }

    @Test func whereAndByTogetherAreAnError() {
        let error = onlyError(Self.album("  media <- items where a = 1 : [Photo | Video] by type\n    \"p\" -> Photo\n    \"v\" -> Video\n"))
        #expect(error?.0 == "test.map:13:18: error: 'media' has both 'where' and 'by'")
    }

    @Test func membersOfAnObjectAreChosenAmongAsAnArraysElementsAre() throws {
        let mapping = try parse(Self.album("  media <- items{*} : [Photo | Video] by type\n    \"p\" -> Photo\n    \"v\" -> Video\n"))
        #expect(mapping.entity(named: "Album")?.relationship(named: "media")?.targets == ["Photo", "Video"])
    }

    @Test func anUnknownEntityInTheTypeIsNamed() {
        let error = onlyError(Self.album("  media : [Photo | Vido] by type\n    \"p\" -> Photo\n"))
        #expect(error?.0 == "test.map:13:20: error: no entity named 'Vido'")
        #expect(error?.1 == "did you mean 'Video'?")
    }

    @Test func deletionCannotBeScopedByAPolymorphicToOne() {
        let error = onlyError(
            Self.album("  delete missing within owner\n  owner : (Photo | Video) by type\n    \"p\" -> Photo\n    \"v\" -> Video\n"))
        #expect(error?.0 == "test.map:13:25: error: `within` names a to-one relationship to one entity; 'owner' links to several")
    }

    @Test func inverseClashesAreCheckedOnEveryEntity() {
        let found = headlines(Self.album("  media : [Photo | Video] by type inverse id\n    \"p\" -> Photo\n    \"v\" -> Video\n"))
        #expect(
            found == [
                "test.map:13:43: error: inverse 'id' clashes with attribute 'id' of entity 'Photo'",
                "test.map:13:43: error: inverse 'id' clashes with attribute 'id' of entity 'Video'",
            ])
    }
}
