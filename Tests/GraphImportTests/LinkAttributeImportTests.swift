import GraphImport
import GraphImportJSON
import GraphImportMapping
import GraphImportSchema
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// `link` attributes: data about each link of a to-many, stored in its join table beside
/// `position`, for the two shapes feeds use: the element is the target and carries the link's
/// data (Twitter's `user_mentions` with `indices`), or the element wraps the target
/// (`{"role": "admin", "user": {…}}`).
@Suite("Attributes on join rows")
struct LinkAttributeImportTests {
    /// The element is the target object; its `indices` describe the mention.
    static let mentionsMap = """
        records at $[*] as Tweet
        entity Tweet
          key id
          id : Int
          mentions <- entities.user_mentions : [User] inverse mentionedIn
            link indices : JSON
            link start <- indices[0] : Int
            link end <- indices[1] : Int
        entity User
          key id
          id : Int
          handle <- screen_name : String
        """

    /// The element wraps the target, at `user`; the rest of it describes the membership.
    static let membersMap = """
        records at $[*] as Team
        entity Team
          key id
          id : Int
          members <- memberships : [User] each user inverse teams
            link role : String | lowercase check oneOf("admin", "member", "owner")
            link since <- joined_at : Date? | iso8601
            link weight : Double? missing 1
        entity User
          key id
          id : Int
          name : String?
        """

    static func team(_ members: String) -> String { #"[{"id": 1, "memberships": [\#(members)]}]"# }
    static let ann = #"{"role": "Admin", "joined_at": "2020-01-02T03:04:05Z", "user": {"id": 7, "name": "Ann"}}"#
    static let bob = #"{"role": "member", "weight": 2.5, "user": {"id": 8}}"#

    static let mentionRows =
        #"SELECT t.id, u.id, m.position, m.indices, m.start, m."end" FROM tweets_mentions m "#
        + #"JOIN tweets t ON t.pk = m.tweets_pk JOIN users u ON u.pk = m.users_pk ORDER BY t.id, m.position"#
    static let memberRows =
        #"SELECT t.id, u.id, m.position, m.role, m.since, m.weight FROM teams_members m "#
        + #"JOIN teams t ON t.pk = m.teams_pk JOIN users u ON u.pk = m.users_pk ORDER BY t.id, m.position"#

    @Test(arguments: StoreKind.testable)
    func theElementThatIsTheTargetGivesItsLinkDataToTheJoinRow(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.mentionsMap)
        try store.importJSON(
            """
            [{"id": 10, "entities": {"user_mentions": [
              {"id": 1, "screen_name": "ann", "indices": [0, 4]},
              {"id": 2, "screen_name": "bob", "indices": [9, 13]}]}}]
            """)
        #expect(try store.select(Self.mentionRows) == [["10", "1", "0", "[0,4]", "0", "4"], ["10", "2", "1", "[9,13]", "9", "13"]])
        #expect(try store.select(#"SELECT id, handle FROM "users" ORDER BY id"#) == [["1", "ann"], ["2", "bob"]])
    }

    @Test(arguments: StoreKind.testable)
    func theElementThatWrapsTheTargetGivesItsOtherKeysToTheJoinRow(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.membersMap)
        try store.importJSON(Self.team(Self.ann + ", " + Self.bob))
        #expect(
            try store.select(Self.memberRows) == [
                ["1", "7", "0", "admin", "2020-01-02T03:04:05.000Z", "1"],
                ["1", "8", "1", "member", "NULL", "2.5"],
            ])
        #expect(try store.select(#"SELECT id, name FROM "users" ORDER BY id"#) == [["7", "Ann"], ["8", "NULL"]])
    }

    /// One store: the text of SQLite's schema, no import.
    @Test func linkAttributesAreColumnsOfTheJoinTable() throws {
        let plan = try ImportPlan.compile(text: Self.membersMap, fileName: "test.map")
        #expect(
            plan.schemaSQL.contains(
                #"CREATE TABLE "teams_members" ("teams_pk" INTEGER NOT NULL REFERENCES "teams"("pk") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, "users_pk" INTEGER NOT NULL REFERENCES "users"("pk") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, "position" INTEGER NOT NULL, "role" TEXT, "since" TEXT, "weight" REAL, PRIMARY KEY ("teams_pk", "users_pk")) STRICT, WITHOUT ROWID"#
            ))
    }

    @Test(arguments: StoreKind.testable)
    func reimportWithTheSameLinkDataChangesNothing(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.membersMap)
        try store.importJSON(Self.team(Self.ann + ", " + Self.bob))
        let summary = try store.importJSON(Self.team(Self.ann + ", " + Self.bob))
        #expect(countsByEntity(summary)["Team"] == [0, 0, 1, 0])
        #expect(try store.select("SELECT changed_run FROM teams") == [["1"]])
    }

    @Test(arguments: StoreKind.testable)
    func aChangedLinkAttributeRewritesTheListAndMarksTheOwnerChanged(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.membersMap)
        try store.importJSON(Self.team(Self.ann + ", " + Self.bob))
        let promoted = Self.bob.replacingOccurrences(of: #""member""#, with: #""owner""#)
        let summary = try store.importJSON(Self.team(Self.ann + ", " + promoted))
        #expect(countsByEntity(summary)["Team"] == [0, 1, 0, 0])
        #expect(countsByEntity(summary)["User"] == [0, 0, 2, 0])
        #expect(try store.select("SELECT changed_run FROM teams") == [["2"]])
        #expect(try store.select(Self.memberRows).map { [$0[1], $0[3]] } == [["7", "admin"], ["8", "owner"]])
        // A null where a value was is a change too.
        let cleared = try store.importJSON(Self.team(Self.ann.replacingOccurrences(of: #""joined_at": "2020-01-02T03:04:05Z", "#, with: "")))
        #expect(countsByEntity(cleared)["Team"] == [0, 1, 0, 0])
        #expect(try store.select(Self.memberRows).map { [$0[1], $0[4]] } == [["7", "NULL"]])
    }

    @Test(arguments: StoreKind.testable, [5000, 1])
    func anObjectMetTwiceInARunComparesItsLinkDataWithWhatItWroteFirst(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: Self.membersMap, batchSize: batchSize)
        let first = #"{"id": 1, "memberships": [\#(Self.ann)]}"#
        let demoted = first.replacingOccurrences(of: #""Admin""#, with: #""member""#)
        let summary = try store.importJSON("[\(first), \(first), \(demoted)]")
        #expect(countsByEntity(summary)["Team"] == [1, 0, 0, 0])
        #expect(try store.select("SELECT role FROM teams_members") == [["member"]])
    }

    @Test(arguments: StoreKind.testable)
    func aTargetTwiceInAListKeepsItsFirstElementsLinkData(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.mentionsMap)
        try store.importJSON(
            """
            [{"id": 10, "entities": {"user_mentions": [
              {"id": 1, "screen_name": "ann", "indices": [0, 4]},
              {"id": 2, "screen_name": "bob", "indices": [5, 9]},
              {"id": 1, "screen_name": "ann", "indices": [20, 24]}]}}]
            """)
        #expect(try store.select(Self.mentionRows).map { [$0[1], $0[2], $0[4]] } == [["1", "0", "0"], ["2", "1", "5"]])
    }

    @Test(arguments: StoreKind.testable)
    func longListsAreWrittenManyRowsToAStatementWithTheirLinkData(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.mentionsMap)
        let mentions = (0..<37).map { #"{"id": \#($0), "screen_name": "u\#($0)", "indices": [\#($0 * 10), \#($0 * 10 + 3)]}"# }
        try store.importJSON(#"[{"id": 10, "entities": {"user_mentions": [\#(mentions.joined(separator: ", "))]}}]"#)
        let rows = try store.select(Self.mentionRows).map { [$0[1], $0[2], $0[4], $0[5]] }
        #expect(rows == (0..<37).map { ["\($0)", "\($0)", "\($0 * 10)", "\($0 * 10 + 3)"] })
    }

    @Test(arguments: StoreKind.testable)
    func aRequiredLinkAttributeAbsentFromAnElementRefusesTheRecord(kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.membersMap)
        let noRole = #"{"user": {"id": 9}}"#
        let record = fixture.recordFailure(Self.team(Self.ann + ", " + noRole))
        #expect(record?.member == "Team.members.role")
        #expect(record?.path == "$[0].memberships[1]")
        #expect(record?.message == "the element has no 'role', a required link attribute")
        #expect(record?.hint == "declare it optional (`: String?`) to store null for elements without it")
        #expect(try fixture.holdsNoData())
    }

    @Test(arguments: StoreKind.testable)
    func anElementWithoutItsTargetIsReportedBeforeItsLinkData(kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.membersMap)
        let record = fixture.recordFailure(Self.team(#"{"member": {"id": 7}}"#))
        #expect(record?.path == "$[0].memberships[0]")
        #expect(record?.message == "expected an object with 'user' in each element, found an object")
    }

    @Test(arguments: StoreKind.testable)
    func linkValuesGoThroughTheAttributesConvertersNullRuleAndChecks(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.membersMap)
        let summary = try store.importJSON(
            #"[{"id": 1, "memberships": [{"role": "guest", "user": {"id": 7}}]}, {"id": 2, "memberships": [{"role": null, "user": {"id": 7}}]}, {"id": 3, "memberships": [{"role": "admin", "joined_at": "soon", "user": {"id": 7}}]}, {"id": 4, "memberships": [{"role": "ADMIN", "user": {"id": 7}}]}]"#,
            options: ImportOptions(skipInvalid: true))
        #expect(summary.skippedRecords == 3)
        #expect(try store.select(Self.memberRows).map { [$0[0], $0[3]] } == [["4", "admin"]])
    }

    /// Which records are skipped, and why, is the reader's and the drafts' work: the same for both stores.
    @Test(arguments: StoreKind.testable)
    func skippedLinkValuesAreReportedWithTheirPaths(kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.membersMap)
        var skipped: [RecordError] = []
        let summary = try fixture.importJSON(
            #"[{"id": 1, "memberships": [{"role": "guest", "user": {"id": 7}}]}, {"id": 2, "memberships": [{"role": null, "user": {"id": 7}}]}, {"id": 3, "memberships": [{"role": "admin", "joined_at": "soon", "user": {"id": 7}}]}]"#,
            options: ImportOptions(skipInvalid: true), onSkip: { skipped.append($0) })
        #expect(summary.skippedRecords == 3)
        #expect(skipped.map(\.path) == ["$[0].memberships[0].role", "$[1].memberships[0].role", "$[2].memberships[0].joined_at"])
        #expect(skipped.map(\.member) == ["Team.members.role", "Team.members.role", "Team.members.since"])
        #expect(skipped[1].message == "is required but the value is null")
        #expect(try fixture.select("SELECT count(*) FROM teams_members") == [["0"]])
    }

    @Test(arguments: StoreKind.testable)
    func readableFromTheTargetsSideThroughTheJoinTable(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.membersMap)
        try store.importJSON(#"[{"id": 1, "memberships": [\#(Self.ann)]}, {"id": 2, "memberships": [\#(Self.bob), {"role": "owner", "user": {"id": 7}}]}]"#)
        // User.teams, the inverse, with the role each membership gives.
        #expect(
            try store.select(
                """
                SELECT teams.id, teams_members.role FROM users
                JOIN teams_members ON teams_members.users_pk = users.pk JOIN teams ON teams.pk = teams_members.teams_pk
                WHERE users.id = 7 ORDER BY teams.id
                """) == [["1", "admin"], ["2", "owner"]])
    }

    @Test(arguments: StoreKind.testable)
    func addingALinkAttributeToAStoreAddsItsColumnAndFillsItOnTheNextImport(kind: StoreKind) throws {
        let before = Self.membersMap.replacingOccurrences(of: "    link since <- joined_at : Date? | iso8601\n", with: "")
        let old = try MappedStore(kind, map: before)
        try old.importJSON(Self.team(Self.ann + ", " + Self.bob))
        let summary = try old.store.importJSON(Self.team(Self.ann + ", " + Self.bob), map: Self.membersMap)
        #expect(summary.schemaChanges == ["add column teams_members.since"])
        #expect(countsByEntity(summary)["Team"] == [0, 1, 0, 0])
        #expect(try old.select("SELECT since FROM teams_members ORDER BY position") == [["2020-01-02T03:04:05.000Z"], ["NULL"]])
    }

    @Test(arguments: StoreKind.testable)
    func aLinkAttributeWhoseColumnCannotChangeIsRefusedAtItsLine(kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.membersMap)
        try fixture.importJSON(Self.team(Self.ann))
        let retyped = Self.membersMap.replacingOccurrences(of: "link weight : Double? missing 1", with: "link weight : Int?")
        let target = fixture.store.migrationTarget
        #expect {
            try fixture.store.importJSON(Self.team(Self.ann), map: retyped)
        } throws: { error in
            guard case .migration(_, let refusals) = error as? ImportError else { return false }
            return refusals.map(\.headline) == [
                "test.map:8:10: error: column teams_members.weight is REAL in the store and INTEGER in the map; \(target.cannot) change a column's type in place"
            ]
        }
    }

    @Test func linkColumnsClashingWithTheJoinTablesOwnOrEachOtherAreMapErrors() {
        let map = """
            entity Team
              key id
              id : Int
              members : [User]
                link position : Int
                link teamsPk : Int
                link usersPk : Int
                link aB : Int
                link a_b : Int
            entity User
              key id
              id : Int
            """
        #expect {
            try ImportPlan.compile(text: map, fileName: "test.map")
        } throws: { error in
            guard let errors = error as? MappingErrors else { return false }
            return errors.diagnostics.map(\.headline) == [
                "test.map:5:10: error: link attribute 'position' would be stored in column 'position' of join table 'teams_members', which the list's order already uses",
                "test.map:6:10: error: link attribute 'teamsPk' would be stored in column 'teams_pk' of join table 'teams_members', which the owner's key already uses",
                "test.map:7:10: error: link attribute 'usersPk' would be stored in column 'users_pk' of join table 'teams_members', which the target's key already uses",
                "test.map:9:10: error: link attribute 'a_b' would be stored in column 'a_b' of join table 'teams_members', which 'aB' already uses",
            ]
                && errors.diagnostics.map(\.hint) == [
                    "'position' is a column of every join table; rename the link attribute",
                    "'teams_pk' is a column of every join table; rename the link attribute",
                    "'users_pk' is a column of every join table; rename the link attribute", "rename one of them",
                ]
        }
    }
}
