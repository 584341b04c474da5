import GraphImport
import GraphImportStoreTestSupport
import Testing

/// A to-many over the members of an object (`{*}`) behaves as one over an array (`[*]`): the same
/// elements, rendered either way, store the same graph, with `where`, `each`, `unkeyed` and `link`
/// attributes, on both stores.
@Suite("{*} to-manys behave as arrays")
struct KeyedToManyParityTests {
    /// A relationship line (`ELEMENTS` stands for its path) with the lines below it, and the elements it reads.
    static let cases: [(name: String, relationship: String, elements: [String])] = [
        (
            "where", "members <- ELEMENTS where active = true : [User]",
            [#"{"id": 1, "active": true}"#, #"{"id": 2, "active": false}"#, #"{"id": 3, "active": true}"#]
        ),
        (
            "each with unkeyed skip", "admins <- ELEMENTS : [User] each user unkeyed skip",
            [#"{"user": {"id": 1}}"#, #"{"role": "x"}"#, #"{"user": {"login": "gone"}}"#, #"{"user": {"id": 4}}"#]
        ),
        ("unkeyed skip", "members <- ELEMENTS : [User] unkeyed skip", [#"{"id": 1}"#, "null", #"{"login": "gone"}"#, "5"]),
        (
            "link attributes around the target", "members <- ELEMENTS : [User] each user\n    link role : String\n    link since <- joined : Int?",
            [#"{"role": "admin", "joined": 2020, "user": {"id": 7}}"#, #"{"role": "member", "user": {"id": 8}}"#]
        ),
        (
            "link attributes beside the target", "mentions <- ELEMENTS : [User]\n    link start <- indices[0] : Int",
            [#"{"id": 12, "indices": [0, 4]}"#, #"{"id": 13, "indices": [6, 9]}"#]
        ),
        (
            "where and link attributes", "members <- ELEMENTS where active = true : [User] each user\n    link role : String",
            [#"{"active": true, "role": "a", "user": {"id": 1}}"#, #"{"active": false, "role": "b", "user": {"id": 2}}"#]
        ),
    ]

    static func map(_ relationship: String, path: String) -> String {
        """
        records at teams[*] as Team
        entity Team
          key id
          id : Int
          \(relationship.replacingOccurrences(of: "ELEMENTS", with: path))
        entity User
          key id
          id : Int
        """
    }

    @Test(arguments: StoreKind.testable, cases.indices)
    func theMembersOfAnObjectStoreWhatTheElementsOfAnArrayStore(kind: StoreKind, index: Int) throws {
        let example = Self.cases[index]
        let array = #"{"teams": [{"id": 1, "list": [\#(example.elements.joined(separator: ", "))]}]}"#
        let keyedMembers = example.elements.enumerated().map { #""k\#($0.offset)": \#($0.element)"# }
        let keyed = #"{"teams": [{"id": 1, "list": {\#(keyedMembers.joined(separator: ", "))}}]}"#
        var rows: [[String: [String]]] = []
        for (path, json) in [("list", array), ("list{*}", keyed)] {
            let store = try StoreUnderTest(kind)
            let plan = try ImportPlan.compile(text: Self.map(example.relationship, path: path), fileName: "test.map")
            let result = store.importJSON(json, plan: plan)
            guard case .success = result else {
                Issue.record("\(example.name), \(path): \(result)")
                return
            }
            rows.append(try store.rows(plan: plan))
            // The export imports again to the same graph, unless it names what it cannot write.
            guard GraphExporter(plan: plan).caveats.isEmpty else { continue }
            let exported = try store.export(plan: plan)
            let again = try StoreUnderTest(kind)
            let reimport = again.importJSON(exported, plan: plan)
            guard case .success = reimport else {
                Issue.record("\(example.name), \(path): the export does not import: \(reimport)\n\(exported)")
                continue
            }
            #expect(try again.rows(plan: plan) == rows.last, "\(example.name), \(path): \(exported)")
        }
        #expect(rows[0] == rows[1], "\(example.name)")
        // Each case links something, and leaves something out where it filters or skips.
        #expect(rows[0].contains { $0.key.hasPrefix("teams_") && !$0.value.isEmpty }, "\(example.name)")
    }

    @Test(arguments: StoreKind.testable)
    func anElementWithoutItsKeyRefusesTheRecordEitherWay(kind: StoreKind) throws {
        var messages: [String] = []
        for (path, list) in [("list", #"[{"id": 1}, {"login": "gone"}]"#), ("list{*}", #"{"a": {"id": 1}, "b": {"login": "gone"}}"#)] {
            let store = try StoreUnderTest(kind)
            let plan = try ImportPlan.compile(text: Self.map("members <- ELEMENTS : [User] unkeyed reject", path: path), fileName: "test.map")
            guard case .failure(let failure) = store.importJSON(#"{"teams": [{"id": 1, "list": \#(list)}]}"#, plan: plan) else {
                Issue.record("\(path): the element without a key was accepted")
                continue
            }
            messages.append(failure.text)
        }
        #expect(
            messages == [
                "record 0 (line 1, column 12): User.id: the object has no 'id', the key of User (at $.teams[0].list[1])",
                "record 0 (line 1, column 12): User.id: the object has no 'id', the key of User (at $.teams[0].list.b)",
            ])
    }
}

extension SampleCheckTests {
    @Test func aWhereOverTheMembersOfAnObjectIsFollowed() throws {
        let map = KeyedToManyParityTests.map("members <- ELEMENTS where active = true : [User]", path: "list{*}")
        let sample = #"{"teams": [{"id": 1, "list": {"a": {"active": true, "id": 1}, "b": {"active": false}}}]}"#
        #expect(try check(map, sample: sample).diagnostics.map(\.headline) == [])
        let arrayMap = KeyedToManyParityTests.map("members <- ELEMENTS where active = true : [User]", path: "list")
        #expect(try check(arrayMap, sample: #"{"teams": [{"id": 1, "list": [{"active": true, "id": 1}, {"active": false}]}]}"#).diagnostics.isEmpty)
    }
}
