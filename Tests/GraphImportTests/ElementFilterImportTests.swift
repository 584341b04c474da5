import GraphImport
import GraphImportStoreTestSupport
import GraphImportSchema
import Testing

/// Twitter v2: each tweet lists the tweets it references as `{type, id}` pairs.
private let twitterMap = """
    records at data[*] as Tweet
    entity Tweet
      key id
      id : Int | int
      text : String?
      inReplyTo <- referenced_tweets where type = "replied_to" : Tweet? each id inverse replies
      quotes <- referenced_tweets where type = "quoted" : Tweet? each id inverse quotedBy
      retweetOf <- referenced_tweets where type = "retweeted" : Tweet? each id inverse retweets
      cited <- referenced_tweets where type in ("quoted", "retweeted") : [Tweet] each id inverse citedBy
    """

/// A feed whose `data` holds tweets and users side by side, told apart by `type`.
private let mixedMap = """
    records at data[*] where type = "tweet" as Tweet
    records at data[*] where type in ("user", "account") as User
    entity Tweet
      key id
      id : Int
    entity User
      key id
      id : Int
    """

@Suite("Element filters and fallback paths")
struct ElementFilterImportTests {
    @Test(arguments: StoreKind.testable)
    func toOnesTakeTheFirstElementOfTheirTypeAndToManyEveryOne(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: twitterMap)
        let summary = try fixture.importJSON(
            #"""
            {"data": [
              {"id": "1", "text": "a", "referenced_tweets": [{"type": "quoted", "id": "2"}, {"type": "replied_to", "id": "3"}]},
              {"id": "4", "referenced_tweets": [{"type": "retweeted", "id": "1"}, {"type": "replied_to", "id": "5"}, {"type": "replied_to", "id": "6"}]},
              {"id": "7", "referenced_tweets": []}
            ]}
            """#)
        #expect(summary.records == 3)
        let rows = try fixture.select(
            """
            SELECT t.id, r.id, q.id, rt.id FROM tweets t LEFT JOIN tweets r ON r.pk = t.in_reply_to_pk
            LEFT JOIN tweets q ON q.pk = t.quotes_pk LEFT JOIN tweets rt ON rt.pk = t.retweet_of_pk WHERE t.text IS NOT NULL OR t.id IN (4, 7) ORDER BY t.id
            """)
        #expect(rows == [["1", "3", "2", "NULL"], ["4", "5", "NULL", "1"], ["7", "NULL", "NULL", "NULL"]])
        #expect(
            try fixture.select(
                "SELECT t.id, c.id FROM tweets t JOIN tweets_cited j ON j.tweets_pk = t.pk JOIN tweets c ON c.pk = j.cited_pk ORDER BY t.id, j.position")
                == [["1", "2"], ["4", "1"]])
    }

    @Test(arguments: StoreKind.testable)
    func aReferenceThatNoLongerHoldsClearsTheToOneAndAnAbsentArrayKeepsIt(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: twitterMap)
        try fixture.importJSON(#"{"data": [{"id": "1", "referenced_tweets": [{"type": "quoted", "id": "2"}]}]}"#)
        try fixture.importJSON(#"{"data": [{"id": "1", "text": "edited"}]}"#)
        #expect(try fixture.value("SELECT count(quotes_pk) FROM tweets WHERE id = 1") == "1")
        try fixture.importJSON(#"{"data": [{"id": "1", "referenced_tweets": [{"type": "replied_to", "id": "3"}]}]}"#)
        #expect(try fixture.select("SELECT count(quotes_pk), count(in_reply_to_pk) FROM tweets WHERE id = 1") == [["0", "1"]])
    }

    @Test(arguments: StoreKind.testable)
    func requiredToOneWithNoMatchingElementIsARecordErrorAtTheArray(_ kind: StoreKind) throws {
        let map = twitterMap.replacingOccurrences(of: #"where type = "quoted" : Tweet?"#, with: #"where type = "quoted" : Tweet"#)
        let fixture = try MappedStore(kind, map: map)
        let error = fixture.recordFailure(#"{"data": [{"id": "1", "referenced_tweets": [{"type": "replied_to", "id": "3"}]}]}"#)
        #expect(error?.member == "Tweet.quotes")
        #expect(error?.message == #"nothing here holds for `where type = "quoted"`"#)
        #expect(error?.hint == "declare it optional: `: Tweet?`")
        #expect(error?.path == "$.data[0].referenced_tweets")
        #expect(try fixture.holdsNoData())
    }

    @Test(arguments: StoreKind.testable)
    func recordsLinesOverOneArrayRouteEachRecordByItsFilter(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: mixedMap)
        let summary = try fixture.importJSON(
            #"{"data": [{"type": "tweet", "id": 1}, {"type": "account", "id": 2}, {"type": "user", "id": 3}, {"type": "list", "id": 4}, {"id": 5}]}"#)
        #expect(summary.records == 5)
        #expect(summary.ignoredRecords == 2)
        #expect(countsByEntity(summary)["Tweet"] == [1, 0, 0, 0])
        #expect(countsByEntity(summary)["User"] == [2, 0, 0, 0])
        #expect(try fixture.select("SELECT id FROM \"users\" ORDER BY id") == [["2"], ["3"]])
    }

    @Test(arguments: StoreKind.testable)
    func recordsLineWithoutFilterAfterFilteredOnesTakesTheRest(_ kind: StoreKind) throws {
        let map = mixedMap.replacingOccurrences(of: #"records at data[*] where type in ("user", "account") as User"#, with: "records at data[*] as User")
        let fixture = try MappedStore(kind, map: map)
        let summary = try fixture.importJSON(#"{"data": [{"type": "tweet", "id": 1}, {"type": "list", "id": 4}, {"id": 5}]}"#)
        #expect(summary.ignoredRecords == 0)
        #expect(try fixture.select("SELECT id FROM \"users\" ORDER BY id") == [["4"], ["5"]])
    }

    @Test(arguments: [
        (#"where $ has prefix "t3_""#, ["t3_a", "t3_c", "t3_é"]),
        (#"where $ has suffix "_c""#, ["t1_c", "t3_c"]),
        (#"where $ matches "t?_*""#, ["t1_c", "t3_a", "t3_c", "t3_é"]),
        (#"where $ matches "*é""#, ["t3_é"]),
        (#"where $ in ("t3_a", "zz")"#, ["t3_a"]),
    ])
    func stringConditionsPickScalarElements(condition: String, expected: [String]) throws {
        for kind in StoreKind.testable {
            let map = """
                entity Post
                  key id
                  id : Int
                  tags <- tags \(condition) : [Tag]
                entity Tag
                  key name
                  name : String
                """
            let fixture = try MappedStore(kind, map: map)
            try fixture.importJSON(#"[{"id": 1, "tags": ["t3_a", "t1_c", "t3_c", "xt3_", "t3_é", 7, null]}]"#)
            #expect(try fixture.select("SELECT name FROM tags ORDER BY name").map { $0[0] } == expected.map { "\($0)" })
        }
    }

    @Test(arguments: [
        ("where deleted_at is absent", ["1", "4"]),
        ("where deleted_at is present", ["2", "3"]),
        ("where deleted_at is null", ["2"]),
        ("where meta.rank = 2", ["3"]),
        ("where pinned = true", ["4"]),
    ])
    func presenceAndValueConditionsPickObjectElements(condition: String, expected: [String]) throws {
        for kind in StoreKind.testable {
            let map = """
                entity Board
                  key id
                  id : Int
                  items <- items \(condition) : [Item]
                entity Item
                  key id
                  id : Int
                """
            let fixture = try MappedStore(kind, map: map)
            try fixture.importJSON(
                #"""
                [{"id": 1, "items": [{"id": 1, "meta": {"rank": 2.5}}, {"id": 2, "deleted_at": null}, {"id": 3, "deleted_at": "x", "meta": {"rank": 2}}, {"id": 4, "pinned": true}]}]
                """#)
            #expect(
                try fixture.select("SELECT i.id FROM boards_items j JOIN items i ON i.pk = j.items_pk ORDER BY j.position").map { $0[0] } == expected)
        }
    }

    // MARK: Fallback paths

    static let repoMap = """
        entity Repo
          key id
          id : Int
          fullName <- full_name, name : String?
          owner <- owner, owner_id : User?
          members <- members, member_ids : [User]
        entity User
          key id
          id : Int
          login : String?
        """

    @Test(arguments: StoreKind.testable)
    func theFirstPathWithAValueWinsAndNullFallsThrough(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.repoMap)
        try fixture.importJSON(
            #"""
            [{"id": 1, "full_name": "o/one", "name": "one"},
             {"id": 2, "name": "o/two"},
             {"id": 3, "full_name": null, "name": "o/three"},
             {"id": 4, "full_name": null}]
            """#)
        #expect(try fixture.select("SELECT id, full_name FROM repos ORDER BY id") == [["1", "o/one"], ["2", "o/two"], ["3", "o/three"], ["4", "NULL"]])
    }

    @Test(arguments: StoreKind.testable)
    func aRelationshipFedFromObjectsOrFromIdsLinksTheSameRows(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.repoMap)
        try fixture.importJSON(#"[{"id": 1, "owner": {"id": 7, "login": "ada"}, "members": [{"id": 7, "login": "ada"}, {"id": 8, "login": "bob"}]}]"#)
        try fixture.importJSON(#"[{"id": 2, "owner_id": 8, "member_ids": [8, 7]}]"#)
        #expect(try fixture.value("SELECT count(*) FROM \"users\"") == "2")
        #expect(try fixture.select("SELECT r.id, o.login FROM repos r JOIN \"users\" o ON o.pk = r.owner_pk ORDER BY r.id") == [["1", "ada"], ["2", "bob"]])
        #expect(
            try fixture.select(
                "SELECT r.id, m.login FROM repos r JOIN repos_members j ON j.repos_pk = r.pk JOIN \"users\" m ON m.pk = j.users_pk ORDER BY r.id, j.position")
                == [["1", "ada"], ["1", "bob"], ["2", "bob"], ["2", "ada"]])
    }

    @Test(arguments: StoreKind.testable)
    func missingRuleAppliesOnlyWhenNoPathIsPresent(_ kind: StoreKind) throws {
        let map = Self.repoMap.replacingOccurrences(of: "fullName <- full_name, name : String?", with: "fullName <- full_name, name : String? missing reject")
        let fixture = try MappedStore(kind, map: map)
        try fixture.importJSON(#"[{"id": 1, "name": "o/one"}]"#)
        let error = fixture.recordFailure(#"[{"id": 2, "title": "x"}]"#)
        #expect(error?.member == "Repo.fullName")
        #expect(error?.message == "the object has no 'full_name, name'")
    }

    @Test(arguments: StoreKind.testable)
    func aValueThatDoesNotConvertIsReportedAtThePathThatHeldIt(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.repoMap)
        let error = fixture.recordFailure(#"[{"id": 1, "name": 42}]"#)
        #expect(error?.member == "Repo.fullName")
        #expect(error?.path == "$[0].name")
    }

    @Test(arguments: StoreKind.testable)
    func unmappedKeysOfEveryFallbackPathStayOutOfExtras(_ kind: StoreKind) throws {
        let map = Self.repoMap.replacingOccurrences(of: "  id : Int\n  fullName", with: "  id : Int\n  extras rest\n  fullName")
        let fixture = try MappedStore(kind, map: map)
        try fixture.importJSON(#"[{"id": 1, "name": "o/one", "member_ids": [], "stars": 3}]"#)
        #expect(try fixture.value("SELECT rest FROM repos") == #"{"stars":3}"#)
    }
}
