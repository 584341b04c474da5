import GraphImport
import GraphImportStoreTestSupport
import Testing

/// A polymorphic to-many over an object's members (`members{*} : [User | Org] by kind`): each
/// member's value is an element, chosen, linked and written back as an array's element is.
@Suite("Polymorphic to-manys over {*}")
struct PolymorphicMembersTests {
    static func map(each: Bool = false) -> String {
        """
        records at teams[*] as Team
        entity Team
          key id
          id : Int
          members <- members{*} : [User | Org] by kind\(each ? " each ref" : "")
            "user" -> User
            "org" -> Org
            "bot" -> ignore
        entity User
          key id
          id <- $key : String
          name : String
        entity Org
          key id
          id <- $key : String
          title : String
        """
    }

    static let feed = """
        {"teams": [{"id": 1, "members": {"alice": {"kind": "user", "name": "Alice"}, "acme": {"kind": "org", "title": "Acme"},
                                          "r2": {"kind": "bot"}, "bob": {"kind": "user", "name": "Bob"}}}]}
        """

    static let wrapped = """
        {"teams": [{"id": 1, "members": {"alice": {"kind": "user", "ref": {"name": "Alice"}}, "acme": {"kind": "org", "ref": {"title": "Acme"}},
                                          "r2": {"kind": "bot"}, "bob": {"kind": "user", "ref": {"name": "Bob"}}}}]}
        """

    @Test(arguments: StoreKind.testable, [false, true])
    func eachMemberIsChosenLinkedAndWrittenBackAsAnElement(kind: StoreKind, each: Bool) throws {
        let plan = try ImportPlan.compile(text: Self.map(each: each), fileName: "test.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(each ? Self.wrapped : Self.feed, plan: plan).get()
        #expect(try store.select("SELECT id, name FROM users ORDER BY id") == [["alice", "Alice"], ["bob", "Bob"]])
        #expect(try store.select("SELECT id, title FROM orgs") == [["acme", "Acme"]])
        let exported = try ExportRoundTripShapeTests.expectRoundTrip(Self.map(each: each), each ? Self.wrapped : Self.feed, kind: kind)
        #expect(
            exported.contains(
                each
                    ? #""members":{"alice":{"kind":"user","ref":{"name":"Alice"}},"bob":{"kind":"user","ref":{"name":"Bob"}},"acme":{"kind":"org","ref":{"title":"Acme"}}}"#
                    : #""members":{"alice":{"name":"Alice","kind":"user"},"bob":{"name":"Bob","kind":"user"},"acme":{"title":"Acme","kind":"org"}}"#))
    }

    @Test(arguments: StoreKind.testable)
    func elementsOfTwoEntitiesUnderOneNameAreWrittenOnceAndNamed(kind: StoreKind) throws {
        let plan = try ImportPlan.compile(text: Self.map(), fileName: "test.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(Self.feed, plan: plan).get()
        // A user and an organization both named alice: one object's members hold the name once.
        try store.execute("UPDATE orgs SET id = 'alice'")
        let (exported, limits) = try ExportRoundTripShapeTests.export(store, plan: plan)
        #expect(exported.contains(#""members":{"alice":{"name":"Alice","kind":"user"},"bob":{"name":"Bob","kind":"user"}}"#))
        #expect(
            limits == [
                "Team.members: 1 links not written: the member name is another entity's element's in the same object, which JSON holds once (first: alice)"
            ])
    }

    @Test(arguments: StoreKind.testable)
    func aMemberNoCaseTakesFailsTheRecordAtItsName(kind: StoreKind) throws {
        let plan = try ImportPlan.compile(text: Self.map(), fileName: "test.map")
        let store = try StoreUnderTest(kind)
        let result = store.importJSON(#"{"teams": [{"id": 1, "members": {"alice": {"kind": "user", "name": "A"}, "x": {"kind": "robot"}}}]}"#, plan: plan)
        guard case .failure(let failure) = result else {
            Issue.record("a member no case takes was linked to nothing, and the import went on")
            return
        }
        #expect(failure.text.contains("Team.members: no case of the map for kind = 'robot'"))
        #expect(failure.text.contains("$.teams[0].members.x"))
    }
}

extension SampleCheckTests {
    @Test func aPolymorphicToManyOverMembersIsCheckedMemberByMember() throws {
        let sample = #"{"teams": [{"id": 1, "members": {"alice": {"kind": "user", "name": "A"}, "x": {"kind": "robot"}}}]}"#
        let headlines = try check(PolymorphicMembersTests.map(), sample: sample).diagnostics.map(\.headline)
        #expect(headlines.count == 1)
        #expect(headlines.first?.contains("robot") == true)
        #expect(try check(PolymorphicMembersTests.map(), sample: PolymorphicMembersTests.feed).diagnostics.map(\.headline) == [])
    }
}
