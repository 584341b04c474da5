import GraphImport
import GraphImportStoreTestSupport
import GraphImportSchema
import Testing

/// GitHub's events of 2012: a gist event's actor is `{"url": ".../users/"}`, with no id.
private let eventsMap = """
    records at $[*] as Event
    entity Event
      key id
      id : String
      actor : User? inverse events unkeyed skip
      org : User? inverse orgEvents
    entity User
      key id
      id : Int
      login : String?
    """

/// Members listed with a role each; some lists hold `null`s and deleted users without an id.
private let teamsMap = """
    records at $[*] as Team
    entity Team
      key id
      id : Int
      members : [User] unkeyed skip inverse teams
        link role : String?
      admins <- memberships : [User] each user unkeyed skip inverse adminOf
      strict <- reviewers : [User] inverse reviews
    entity User
      key id
      id : Int
      login : String?
    """

@Suite("unkeyed skip: elements without their key")
struct UnkeyedSkipTests {
    @Test(arguments: StoreKind.testable)
    func anAnonymousActorLeavesTheLinkNullAndIsCounted(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: eventsMap)
        let summary = try fixture.importJSON(
            #"""
            [{"id": "1", "actor": {"id": 7, "login": "ann"}},
             {"id": "2", "actor": {"url": "https://api.github.com/users/"}},
             {"id": "3", "actor": {"id": null}}]
            """#)
        #expect(summary.importedRecords == 3)
        #expect(
            try fixture.select("SELECT e.id, u.login FROM events e LEFT JOIN \"users\" u ON u.pk = e.actor_pk ORDER BY e.id") == [
                ["1", "ann"], ["2", "NULL"], ["3", "NULL"],
            ])
        #expect(countsByEntity(summary)["User"] == [1, 0, 0, 0])
        #expect(
            summary.skippedElements == [
                SkippedElements(member: "Event.actor", count: 2, reason: "an object without its key 'id'", paths: ["$[1].actor", "$[2].actor"])
            ])
        let again = try fixture.importJSON(#"[{"id": "2", "actor": {"url": "https://api.github.com/users/"}}]"#)
        #expect(!again.changed)
    }

    @Test(arguments: StoreKind.testable)
    func anAnonymousActorClearsAStoredLinkAsANullWould(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: eventsMap)
        try fixture.importJSON(#"[{"id": "1", "actor": {"id": 7}}]"#)
        let summary = try fixture.importJSON(#"[{"id": "1", "actor": {"login": "ghost"}}]"#)
        #expect(countsByEntity(summary)["Event"] == [0, 1, 0, 0])
        #expect(try fixture.value("SELECT actor_pk FROM events") == "NULL")
    }

    @Test(arguments: StoreKind.testable)
    func withoutTheClauseAnObjectWithoutItsKeyRefusesTheRecord(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: eventsMap)
        guard case .record(let error)? = fixture.failure(#"[{"id": "1", "org": {"url": "https://api.github.com/orgs/"}}]"#) else {
            Issue.record("expected a record error")
            return
        }
        #expect(error.path == "$[0].org")
        #expect(error.message == "the object has no 'id', the key of User")
        #expect(error.hint?.contains("add `unkeyed skip` to the relationship") == true)
        #expect(try fixture.holdsNoData())
    }

    @Test(arguments: StoreKind.testable)
    func aToManyLeavesOutNullsAndObjectsWithoutKeysInTheFeedsOrder(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: teamsMap)
        let summary = try fixture.importJSON(
            #"""
            [{"id": 1, "members": [{"id": 1, "role": "owner"}, null, {"login": "deleted", "role": "x"}, {"id": 2, "role": "dev"}],
              "memberships": [{"user": {"id": 3}}, {"since": 2019}, {"user": null}]}]
            """#)
        #expect(
            try fixture.select(
                "SELECT u.id, j.position, j.role FROM teams_members j JOIN \"users\" u ON u.pk = j.users_pk ORDER BY j.position")
                == [["1", "0", "owner"], ["2", "1", "dev"]])
        #expect(try fixture.select("SELECT u.id FROM teams_admins j JOIN \"users\" u ON u.pk = j.users_pk") == [["3"]])
        #expect(
            summary.skippedElements == [
                SkippedElements(member: "Team.members", count: 2, reason: "a null element", paths: ["$[0].members[1]", "$[0].members[2]"]),
                SkippedElements(
                    member: "Team.admins", count: 2, reason: "an element without 'user'", paths: ["$[0].memberships[1]", "$[0].memberships[2].user"]),
            ])
        #expect(try fixture.value("SELECT count(*) FROM \"users\"") == "3")
    }

    @Test(arguments: StoreKind.testable)
    func nullMembersOfAKeyedObjectAreLeftOut(_ kind: StoreKind) throws {
        let fixture = try MappedStore(
            kind,
            map: """
                records at $[*] as Team
                entity Team
                  key id
                  id : Int
                  members <- members{*} : [User] unkeyed skip
                entity User
                  key id
                  id <- $key : String
                  since <- $ : Int?
                """)
        let summary = try fixture.importJSON(#"[{"id": 1, "members": {"alice": 2019, "bob": null, "carol": 2021}}]"#)
        #expect(try fixture.select("SELECT id, since FROM \"users\" ORDER BY id") == [["alice", "2019"], ["carol", "2021"]])
        #expect(summary.skippedElements == [SkippedElements(member: "Team.members", count: 1, reason: "a null element", paths: ["$[0].members.bob"])])
    }

    @Test(arguments: StoreKind.testable)
    func aRecordWithoutItsKeyIsNotToldToSkipIt(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: eventsMap)
        guard case .record(let error)? = fixture.failure(#"[{"actor": {"id": 1}}]"#) else {
            Issue.record("expected a record error")
            return
        }
        #expect(error.hint == "every Event needs its key; check the map's `key` line and the path `id`")
    }

    @Test(arguments: StoreKind.testable)
    func aToManyWithoutTheClauseRefusesANullElement(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: teamsMap)
        guard case .record(let error)? = fixture.failure(#"[{"id": 1, "reviewers": [{"id": 1}, null]}]"#) else {
            Issue.record("expected a record error")
            return
        }
        #expect(error.path == "$[0].reviewers[1]")
        #expect(error.message == "an element of the array is null")
        #expect(error.hint?.contains("`unkeyed skip`") == true)
    }

    @Test(arguments: StoreKind.testable)
    func aSkippedRecordDoesNotCountItsElements(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: teamsMap)
        var options = ImportOptions()
        options.skipInvalid = true
        let summary = try fixture.importJSON(
            #"[{"id": 1, "members": [null], "reviewers": [null]}, {"id": 2, "members": [{"id": 5}, null]}]"#, options: options)
        #expect(summary.skippedRecords == 1)
        #expect(summary.skippedElements == [SkippedElements(member: "Team.members", count: 1, reason: "a null element", paths: ["$[1].members[1]"])])
    }

    @Test(arguments: StoreKind.testable)
    func aKeyThatDoesNotConvertStillRefusesTheRecord(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: teamsMap)
        guard case .record(let error)? = fixture.failure(#"[{"id": 1, "members": [{"id": "seven"}]}]"#) else {
            Issue.record("expected a record error")
            return
        }
        #expect(error.path == "$[0].members[0].id")
    }

    @Test(arguments: StoreKind.testable)
    func theSampleCheckCountsWhatWouldBeSkippedWithoutWarning(_ kind: StoreKind) throws {
        let report = try SampleCheckTests().check(
            eventsMap,
            sample: #"[{"id": "1", "actor": {"id": 7, "login": "a"}}, {"id": "2", "actor": {"url": "u"}}, {"id": "3", "org": {"url": "o"}}]"#)
        #expect(
            report.diagnostics.map(\.headline) == [
                // The org has no clause; the actor's object without a key is not a User object of the import.
                "test.map:9:3: warning: 'id' (User.id), the key of User, is absent or null in 1 of 2 User objects (first: record 2 at line 1, column 85, $[2].org.id)"
            ])
        #expect(report.skippedElements == [SkippedElements(member: "Event.actor", count: 1, reason: "an object without its key 'id'", paths: ["$[1].actor"])])
    }

    @Test(arguments: StoreKind.testable)
    func theSampleCheckLeavesOutWhatAToManyWouldSkip(_ kind: StoreKind) throws {
        let report = try SampleCheckTests().check(
            teamsMap,
            sample: #"""
                [{"id": 1, "members": [{"id": 1, "login": "a", "role": "x"}, null, {"role": "y"}, {"id": 4, "role": 5}],
                  "memberships": [{"user": {"id": 2}}, {"since": 1}], "reviewers": [{"id": 3}, null]}]
                """#)
        #expect(report.diagnostics.map(\.headline).contains { $0.contains("(Team.strict)") && $0.contains("null") })
        // The one value of `role` that does not convert is in an element kept; the skipped ones are not read.
        #expect(report.diagnostics.map(\.headline).filter { $0.contains("Team.members") }.map { $0.contains("1 of 2") } == [true])
        #expect(!report.diagnostics.map(\.headline).contains { $0.contains("Team.admins") })
        #expect(
            report.skippedElements == [
                SkippedElements(member: "Team.members", count: 2, reason: "a null element", paths: ["$[0].members[1]", "$[0].members[2]"]),
                SkippedElements(member: "Team.admins", count: 1, reason: "an element without 'user'", paths: ["$[0].memberships[1]"]),
            ])
    }
}
