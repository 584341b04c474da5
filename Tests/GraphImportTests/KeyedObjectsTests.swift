import GraphImport
import GraphImportStoreTestSupport
import GraphImportJSON
import GraphImportSchema
import Testing

/// Objects keyed by id (`{*}` and `$key`) and bare values as records (`$`), end to end.
@Suite("Keyed objects and bare values")
struct KeyedObjectsTests {
    static let map = """
        records at users{*} as User
        records at teams{*} as Team
        entity User
          key id
          id <- $key : String
          name : String
        entity Team
          key slug
          slug <- $key : String
          title : String
          members <- members{*} : [User] inverse teams
        """

    /// Firebase's export shape: collections keyed by id, memberships as `{"id": true}`.
    static let firebase = """
        {"users": {"alice": {"name": "Alice"}, "bob": {"name": "Bob"}},
         "teams": {"core": {"title": "Core", "members": {"bob": true, "alice": true}},
                   "docs": {"title": "Docs", "members": {}}}}
        """

    @Test(arguments: StoreKind.testable)
    func membersOfAnObjectAreRecordsKeyedByTheirNames(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.map)
        try fixture.importJSON(Self.firebase)
        #expect(try fixture.select("SELECT id, name FROM \"users\" ORDER BY pk") == [["alice", "Alice"], ["bob", "Bob"]])
        #expect(try fixture.select("SELECT slug, title FROM teams ORDER BY pk") == [["core", "Core"], ["docs", "Docs"]])
        // In document order: bob, then alice.
        #expect(
            try fixture.select(
                "SELECT u.id FROM teams_members j JOIN \"users\" u ON u.pk = j.users_pk JOIN teams t ON t.pk = j.teams_pk WHERE t.slug = 'core' ORDER BY j.position"
            ) == [["bob"], ["alice"]])
    }

    @Test(arguments: StoreKind.testable)
    func membersOfAKeyedToManyAreKeysWhenTheTargetDoesNotReadTheName(_ kind: StoreKind) throws {
        let map =
            "records at $[*] as Team\nentity Team\n  key id\n  id : Int\n  leads <- leads{*} : [User]\n"
            + "entity User\n  key id\n  id : Int\n"
        let fixture = try MappedStore(kind, map: map)
        try fixture.importJSON(#"[{"id": 1, "leads": {"backend": 7, "frontend": 9}}]"#)
        #expect(try fixture.select("SELECT u.id FROM teams_leads j JOIN \"users\" u ON u.pk = j.users_pk ORDER BY j.position") == [["7"], ["9"]])
    }

    @Test(arguments: StoreKind.testable)
    func aKeyedToManyMeetingAnArrayFailsWithItsPath(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.map)
        let error = fixture.failure(#"{"users": {}, "teams": {"core": {"title": "Core", "members": ["alice"]}}}"#)
        guard case .record(let record)? = error else {
            Issue.record("expected a record error, got \(String(describing: error))")
            return
        }
        #expect(record.path == "$.teams.core.members")
        #expect(record.message == "expected an object whose members are the elements ('members{*}'), found an array")
        #expect(record.hint == "`{*}` takes the members of an object; for an array, drop `{*}` from the path")
    }

    @Test(arguments: StoreKind.testable)
    func aRecordErrorNamesTheMemberInItsPath(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.map)
        let error = fixture.failure(#"{"users": {"alice": {"name": 7}}, "teams": {}}"#)
        guard case .record(let record)? = error else {
            Issue.record("expected a record error, got \(String(describing: error))")
            return
        }
        #expect(record.path == "$.users.alice.name")
    }

    @Test(arguments: StoreKind.testable)
    func anyIndexOnAnObjectOfObjectsSuggestsTheKeyedStep(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: "records at users[*] as User\nentity User\n  key name\n  name : String\n")
        let error = fixture.failure(Self.firebase)
        guard case .noRecords(_, let message, let hint, _)? = error else {
            Issue.record("expected noRecords, got \(String(describing: error))")
            return
        }
        #expect(message == "the records path `users[*]` matches nothing: `users` is an object with keys alice, bob, not an array")
        #expect(hint?.hasPrefix("did you mean `users{*}`? ") == true)
    }

    @Test(arguments: StoreKind.testable)
    func keyedStepOnAnArraySuggestsTheIndexStep(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: "records at users{*} as User\nentity User\n  key id\n  id <- $key : String\n")
        let error = fixture.failure(#"{"users": [{"name": "Alice"}]}"#)
        guard case .noRecords(_, let message, let hint, _)? = error else {
            Issue.record("expected noRecords, got \(String(describing: error))")
            return
        }
        #expect(message == "the records path `users{*}` matches nothing: `users` is an array of 1 element, not an object")
        #expect(hint?.hasPrefix("did you mean `users[*]`? ") == true)
    }

    @Test(arguments: StoreKind.testable)
    func bareValuesAreRecordsReadThroughTheWholeRecordPath(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: "records at $[*] as Item\nentity Item\n  key id\n  id <- $ : String\n  note : String?\n")
        try fixture.importJSON(#"["1699", "1455"]"#)
        #expect(try fixture.select("SELECT id, note FROM items ORDER BY pk") == [["1699", "NULL"], ["1455", "NULL"]])
    }

    @Test(arguments: StoreKind.testable)
    func aBareValueForAnEntityThatDoesNotReadItSaysHow(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: "records at $[*] as Item\nentity Item\n  key id\n  id : String\n")
        guard case .record(let record)? = fixture.failure(#"["1699"]"#) else {
            Issue.record("expected a record error")
            return
        }
        #expect(record.message == "expected an object for Item, found a string")
        #expect(record.hint == "a record that is a bare value is read with `$`: `id <- $ : String` as Item's key")
    }

    @Test(arguments: StoreKind.testable)
    func keyedBareValuesTakeTheNameAndTheValue(_ kind: StoreKind) throws {
        let map = "records at roles{*} as Role\nentity Role\n  key name\n  name <- $key : String\n  level <- $ : Int\n"
        let fixture = try MappedStore(kind, map: map)
        try fixture.importJSON(#"{"roles": {"admin": 3, "guest": 1}}"#)
        #expect(try fixture.select("SELECT name, level FROM roles ORDER BY pk") == [["admin", "3"], ["guest", "1"]])
    }
}
