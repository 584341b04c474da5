import GraphImportMapping
import Testing

/// Each construct of the language parses into exactly the AST it describes.
@Suite struct MapParserTests {
    @Test func parsesEntityWithTableKeyAndShorthandAttribute() throws {
        let mapping = try parse("entity Tweet table tweets\n  key id\n  id : Int\n")
        #expect(
            mapping.entities == [
                Entity(
                    name: "Tweet", tableName: "tweets", key: ["id"],
                    attributes: [
                        Attribute(
                            name: "id", source: KeyPath([.key("id")]), type: .int, isOptional: false, converters: [],
                            location: at(3, 3, 37))
                    ],
                    relationships: [], location: at(1, 8, 7))
            ])
        #expect(mapping.fileName == "test.map")
    }

    @Test func parsesQuotedTableNameAndNoTable() throws {
        let mapping = try parse("entity Tweet table \"All Tweets\"\n key id\n id : Int\nentity User\n key id\n id : Int")
        #expect(mapping.entities.map(\.tableName) == ["All Tweets", nil])
    }

    @Test func parsesCompoundKey() throws {
        let mapping = try parse("entity Repo\n  key owner, name\n  owner : String\n  name : String\n")
        #expect(mapping.entities[0].key == ["owner", "name"])
    }

    @Test func parsesAttributeWithPathOptionalAndConverters() throws {
        let mapping = try parse(
            """
            entity Tweet
              key id
              id : Int
              lang <- metadata.iso_language_code : String? | trim | lowercase
            """)
        let lang = try #require(mapping.entities[0].attribute(named: "lang"))
        #expect(lang.source == KeyPath([.key("metadata"), .key("iso_language_code")]))
        #expect(lang.type == .string)
        #expect(lang.isOptional)
        #expect(lang.converters.map(\.name) == ["trim", "lowercase"])
        #expect(lang.converters.map(\.location) == [at(4, 50, 82), at(4, 57, 89)])
        #expect(lang.location == at(4, 3, 35))
    }

    @Test(arguments: ValueType.allCases)
    func parsesEveryBuiltInType(type: ValueType) throws {
        let mapping = try parse("entity E\n key id\n id : Int\n value : \(type.rawValue)\n")
        #expect(mapping.entities[0].attribute(named: "value")?.type == type)
    }

    @Test func parsesConverterArgumentsOfEveryKind() throws {
        let mapping = try parse(
            """
            entity E
              key id
              id : Int
              a : Date | date("EEE \\"q\\" \\\\ \\n \\t \\u00e9 # not a comment")
              b : Double | round(-2) | scale(2) | scale(-1.5e3) | round()
              c : String | replace("a", "") | nonEmpty(true) | nonEmpty(false)
            """)
        let entity = mapping.entities[0]
        #expect(entity.attribute(named: "a")?.converters[0].arguments == [.string("EEE \"q\" \\ \n \t é # not a comment")])
        #expect(entity.attribute(named: "b")?.converters.map(\.arguments) == [[.int(-2)], [.double(2)], [.double(-1500)], []])
        #expect(
            entity.attribute(named: "c")?.converters.map(\.arguments) == [
                [.string("a"), .string("")], [.bool(true)], [.bool(false)],
            ])
    }

    @Test func parsesRelationshipsOfEveryKind() throws {
        let mapping = try parse(tweetsMap)
        let tweet = try #require(mapping.entity(named: "Tweet"))
        let user = KeyPath([.key("user")])
        #expect(
            tweet.relationship(named: "author")
                == Relationship(
                    name: "author", source: user, target: "User", isToMany: false, isOptional: false,
                    inverse: "tweets", location: at(11, 3, 701), pathLocation: at(11, 16, 714)))
        let hashtags = try #require(tweet.relationship(named: "hashtags"))
        #expect(hashtags.source == KeyPath([.key("entities"), .key("hashtags")]))
        #expect(hashtags.target == "Hashtag" && hashtags.isToMany && hashtags.isOptional && hashtags.inverse == "tweets")
        let retweetOf = try #require(tweet.relationship(named: "retweetOf"))
        #expect(retweetOf.target == "Tweet" && !retweetOf.isToMany && retweetOf.isOptional && retweetOf.inverse == "retweets")
        let replyTo = try #require(tweet.relationship(named: "replyTo"))
        #expect(replyTo.source == KeyPath([.key("in_reply_to_status_id")]) && replyTo.inverse == nil)
    }

    @Test func acceptsOptionalToManyAsToMany() throws {
        let mapping = try parse("entity A\n key id\n id : Int\n bs : [B]?\n cs : [B]\nentity B\n key id\n id : Int")
        let a = mapping.entities[0]
        #expect(a.relationships.map(\.isToMany) == [true, true])
        #expect(a.relationships.map(\.isOptional) == [true, true])
    }

    @Test func relationshipShorthandUsesNameAsPath() throws {
        let mapping = try parse("entity A\n key id\n id : Int\n owner : B\nentity B\n key id\n id : Int")
        #expect(mapping.entities[0].relationships[0].source == KeyPath([.key("owner")]))
        #expect(mapping.entities[0].relationships[0].isOptional == false)
    }

    @Test func parsesRecordsWithSeveralPathsAndLines() throws {
        let mapping = try parse(
            """
            records at statuses[*], data.children[*].data as Tweet
            records at $ as User
            entity Tweet
              key id
              id : Int
            entity User
              key id
              id : Int
            """)
        #expect(
            mapping.records == [
                RecordSource(
                    paths: [
                        KeyPath([.key("statuses"), .anyIndex]),
                        KeyPath([.key("data"), .key("children"), .anyIndex, .key("data")]),
                    ], entity: "Tweet", location: at(1, 1, 0), pathLocations: [at(1, 12, 11), at(1, 25, 24)]),
                RecordSource(paths: [KeyPath([])], entity: "User", location: at(2, 1, 55), pathLocations: [at(2, 12, 66)]),
            ])
    }

    @Test func recordsWithoutAsGoToFirstEntity() throws {
        let mapping = try parse("records at items[*]\nentity Item\n key id\n id : Int\nentity Other\n key id\n id : Int")
        #expect(mapping.records.map(\.entity) == ["Item"])
    }

    @Test func defaultsRecordsToEveryElementOfTopLevelArray() throws {
        let mapping = try parse("# no records line\nentity Item\n key id\n id : Int\nentity Other\n key id\n id : Int")
        #expect(mapping.records == [RecordSource(paths: [KeyPath([.anyIndex])], entity: "Item", location: at(2, 8, 25))])
    }

    @Test func membersBelongToMostRecentEntityWhateverTheIndentation() throws {
        let mapping = try parse("entity A\nkey id\nid : Int\n    entity B\n        key code\n  code : String\n")
        #expect(mapping.entities.map { $0.attributes.map(\.name) } == [["id"], ["code"]])
    }

    @Test func ignoresCommentsAndBlankLinesAndCarriageReturns() throws {
        let mapping = try parse("# header\r\n\r\n   \nentity A # trailing\r\n\tkey id#tight\r\n  id : Int # c\r\n#end")
        #expect(mapping.entities[0].attributes.map(\.name) == ["id"])
        #expect(mapping.entities[0].key == ["id"])
    }

    @Test func quotesLinesOfWindowsLineEndedMap() throws {
        let mapping = try parse("entity A\r\n  key id\r\n  id : Int\r\n")
        let attribute = try #require(mapping.entities[0].attribute(named: "id"))
        #expect(attribute.location == at(3, 3, 22))
        #expect(mapping.diagnostic(at: attribute.location, "bad").sourceLine == "  id : Int")
        let found = diagnostics("entity A\r\n  key id\r\n  id : Strin\r\n")
        #expect(found.map(\.sourceLine) == ["  id : Strin"])
    }

    @Test func keywordsCanBeMemberNames() throws {
        let mapping = try parse("entity A\n key key\n key : String\n records <- r : Int?\n inverse : Bool?")
        #expect(mapping.entities[0].attributes.map(\.name) == ["key", "records", "inverse"])
    }

    @Test func parsesTheTweetsExample() throws {
        let mapping = try parse(tweetsMap)
        #expect(mapping.entities.map(\.name) == ["Tweet", "User", "Hashtag"])
        #expect(
            mapping.records == [
                RecordSource(paths: [KeyPath([.anyIndex])], entity: "Tweet", location: at(2, 1, 13), pathLocations: [at(2, 12, 24)])
            ])
        let tweet = mapping.entities[0]
        #expect(tweet.tableName == "tweets")
        #expect(tweet.attributes.map(\.name) == ["id", "text", "createdAt", "sentAt", "lang", "lat"])
        #expect(tweet.relationships.map(\.name) == ["author", "hashtags", "retweetOf", "replyTo"])
        #expect(
            tweet.attribute(named: "createdAt")?.converters.map(\.arguments) == [[.string("EEE MMM dd HH:mm:ss Z yyyy")]])
        #expect(tweet.attribute(named: "lat")?.source == KeyPath([.key("geometry"), .key("coordinates"), .index(1)]))
        #expect(tweet.attribute(named: "sentAt")?.isOptional == true)
        #expect(mapping.entities[1].attribute(named: "handle")?.source == KeyPath([.key("screen_name")]))
        #expect(mapping.entities[2].attribute(named: "text")?.converters.map(\.name) == ["lowercase"])
    }

    @Test func keepsSourceSoLaterStagesCanQuoteIt() throws {
        let text = "entity A\n  key id\n  id : Int\n"
        let mapping = try parse(text)
        #expect(mapping.source == text)
        let attribute = try #require(mapping.entities[0].attribute(named: "id"))
        #expect(
            mapping.diagnostic(at: attribute.location, "value is not an integer").description
                == "test.map:3:3: error: value is not an integer\n 3 |   id : Int\n   |   ^")
    }
}
