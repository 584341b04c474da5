import Foundation
import GraphImport
import GraphImportJSON
import GraphImportMapping
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A to-one and a to-many that name each other as inverses (`Board.actions`, `Action.board`) are
/// one fact, stored once as the to-one's foreign key: either side writes it, a list replaces the
/// objects that point at its owner, and both read it back.
@Suite("Inverse pairs stored once")
struct InverseStoredOnceTests {
    static let map = """
        records at boards[*] as Board
        records at actions[*] as Action
        entity Board
          key id
          id : Int
          actions : [Action] inverse board
        entity Action
          key id
          id : Int
          kind : String?
          board <- idBoard : Board? inverse actions
        """

    /// Each action with its board's id (or NULL), in key order.
    static func links(_ store: StoreUnderTest) throws -> [[String]] {
        try store.select("SELECT a.id, b.id FROM actions a LEFT JOIN boards b ON b.pk = a.board_pk ORDER BY a.id")
            .map { $0.map { $0.isEmpty ? "NULL" : $0 } }
    }

    @Test func thePairHasNoJoinTable() throws {
        let plan = try ImportPlan.compile(text: Self.map, fileName: "test.map")
        #expect(plan.schema.tables.map(\.name) == ["boards", "actions"])
    }

    @Test(arguments: StoreKind.testable)
    func theListSetsEachElementsToOneAndAReimportChangesNothing(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: Self.map, fileName: "test.map")
        let json = #"{"boards": [{"id": 1, "actions": [{"id": 10, "kind": "a"}, 11]}], "actions": [{"id": 11, "kind": "b"}]}"#
        let first = try store.importOrThrow(json, plan: plan)
        #expect(try Self.links(store) == [["10", "1"], ["11", "1"]])
        // The elements' link to their new owner makes no stub of it.
        #expect(first.entities.allSatisfy { $0.counts.stubs == 0 && $0.counts.stubsCompleted == 0 })
        let again = try store.importOrThrow(json, plan: plan)
        #expect(again.entities.allSatisfy { $0.counts.updated == 0 && $0.counts.inserted == 0 })
        #expect(try Self.links(store) == [["10", "1"], ["11", "1"]])
    }

    @Test(arguments: StoreKind.testable)
    func anActionsOwnToOneIsReadFromTheBoardsSide(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: Self.map, fileName: "test.map")
        _ = try store.importOrThrow(#"{"boards": [{"id": 1}, {"id": 2}], "actions": [{"id": 10, "idBoard": 1}, {"id": 11, "idBoard": 2}]}"#, plan: plan)
        let graph = try ObjectGraph(store: store.location, plan: plan, readOnly: true)
        let board = try #require(try graph.object("Board", key: 1))
        #expect(try board.related("actions").map(\.key) == [[.integer(10)]])
        let action = try #require(try graph.object("Action", key: 11))
        #expect(try action.relatedObject("board")?.key == [.integer(2)])
    }

    @Test(arguments: StoreKind.testable)
    func anElementNoLongerListedLosesItsToOne(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: Self.map, fileName: "test.map")
        _ = try store.importOrThrow(
            #"{"boards": [{"id": 1, "actions": [10, 11]}, {"id": 2, "actions": [12]}], "actions": [{"id": 10}, {"id": 11}, {"id": 12}]}"#, plan: plan)
        let summary = try store.importOrThrow(#"{"boards": [{"id": 1, "actions": [11]}]}"#, plan: plan)
        #expect(try Self.links(store) == [["10", "NULL"], ["11", "1"], ["12", "2"]])
        #expect(summary.entities.first { $0.name == "Action" }?.counts.updated == 1)
        // A board given without its list leaves its actions alone.
        _ = try store.importOrThrow(#"{"boards": [{"id": 2}]}"#, plan: plan)
        #expect(try Self.links(store) == [["10", "NULL"], ["11", "1"], ["12", "2"]])
    }

    /// Within one batch of the PostgreSQL writer and across batches (`batchSize` 1) alike.
    @Test(arguments: StoreKind.testable, [1, 5000])
    func theLastOccurrenceWinsWhenBothSidesDisagree(_ kind: StoreKind, batchSize: Int) throws {
        let store = try StoreUnderTest(kind, batchSize: batchSize)
        let plan = try ImportPlan.compile(text: Self.map, fileName: "test.map")
        // The list of board 2 comes after action 10's own record: the list wins.
        _ = try store.importOrThrow(#"{"actions": [{"id": 10, "idBoard": 1}], "boards": [{"id": 1}, {"id": 2, "actions": [10]}]}"#, plan: plan)
        #expect(try Self.links(store) == [["10", "2"]])
        // The action's own record comes after the list of board 2: its to-one wins.
        _ = try store.importOrThrow(#"{"boards": [{"id": 2, "actions": [10]}], "actions": [{"id": 10, "idBoard": 1}]}"#, plan: plan)
        #expect(try Self.links(store) == [["10", "1"]])
        // Action 11 links to board 1 by its own record, then board 1's list leaves it out: it is
        // let go, although the store never held the link.
        let json = #"{"actions": [{"id": 10}, {"id": 11, "idBoard": 1}], "boards": [{"id": 1, "actions": [10]}]}"#
        _ = try store.importOrThrow(json, plan: plan)
        #expect(try Self.links(store) == [["10", "1"], ["11", "NULL"]])
        // The same into an empty store (PostgreSQL's first load reads back only what it wrote).
        let empty = try StoreUnderTest(kind, batchSize: batchSize)
        _ = try empty.importOrThrow(json, plan: plan)
        #expect(try Self.links(empty) == [["10", "1"], ["11", "NULL"]])
    }

    /// A `link existing` key met before its board is in the batch links, as on SQLite, when the
    /// board is stored; the board's later list then lets it go.
    @Test(arguments: StoreKind.testable)
    func aLinkExistingToOneIsLetGoByALaterList(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(
            text: Self.map.replacingOccurrences(of: "Board? inverse actions", with: "Board? inverse actions link existing"), fileName: "test.map")
        _ = try store.importOrThrow(#"{"boards": [{"id": 1}]}"#, plan: plan)
        _ = try store.importOrThrow(#"{"actions": [{"id": 11, "idBoard": 1}, {"id": 12, "idBoard": 1}], "boards": [{"id": 1, "actions": [12]}]}"#, plan: plan)
        #expect(try Self.links(store) == [["11", "NULL"], ["12", "1"]])
        // A board the store did not hold: the key links nothing, and action 11 keeps its board.
        _ = try store.importOrThrow(#"{"boards": [{"id": 3, "actions": [11]}]}"#, plan: plan)
        _ = try store.importOrThrow(#"{"actions": [{"id": 11, "idBoard": 2}], "boards": [{"id": 2, "actions": [12]}]}"#, plan: plan)
        #expect(try Self.links(store) == [["11", "3"], ["12", "2"]])
    }

    @Test(arguments: StoreKind.testable)
    func aBoardsDeletionFollowsTheToOnesRule(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let map = Self.map.replacingOccurrences(of: "Board? inverse actions", with: "Board? inverse actions delete cascade")
        let plan = try ImportPlan.compile(text: map, fileName: "test.map")
        _ = try store.importOrThrow(#"{"boards": [{"id": 1, "actions": [{"id": 10}, {"id": 11}]}, {"id": 2, "actions": [{"id": 12}]}]}"#, plan: plan)
        let graph = try ObjectGraph(store: store.location, plan: plan)
        let board = try #require(try graph.object("Board", key: 1))
        _ = try graph.delete(board)
        #expect(try Self.links(store) == [["12", "2"]])
        let action = try #require(try graph.object("Action", key: 12))
        _ = try graph.delete(action)
        #expect(try store.value("SELECT count(*) FROM boards") == "1")
    }

    @Test(arguments: StoreKind.testable)
    func theExportImportsAgainToTheSameGraph(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: Self.map, fileName: "test.map")
        _ = try store.importOrThrow(
            #"{"boards": [{"id": 1, "actions": [{"id": 10, "kind": "a"}, {"id": 11}]}, {"id": 2}], "actions": [{"id": 12, "idBoard": 2}, {"id": 13}]}"#,
            plan: plan)
        let exported = try store.export(plan: plan)
        let again = try StoreUnderTest(kind)
        _ = try again.importOrThrow(exported, plan: plan)
        #expect(try Self.links(again) == Self.links(store), "\(exported)")
    }

    @Test(arguments: StoreKind.testable)
    func aKeyGivenAloneForANewObjectWithoutItsRequiredValuesIsRefusedAtTheElement(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: Self.map.replacingOccurrences(of: "kind : String?", with: "kind : String"), fileName: "test.map")
        _ = try store.importOrThrow(#"{"actions": [{"id": 10, "kind": "a"}]}"#, plan: plan)
        let error = store.importError(#"{"boards": [{"id": 1, "actions": [10, 11]}]}"#, plan: plan)
        guard case .record(let refusal)? = error else {
            Issue.record("expected a record error, got \(String(describing: error))")
            return
        }
        #expect(refusal.path == "$.boards[0].actions[1].kind", "\(refusal)")
        #expect(try Self.links(store) == [["10", "NULL"]])
        // A stored action given by its key alone takes the link.
        _ = try store.importOrThrow(#"{"boards": [{"id": 1, "actions": [10]}]}"#, plan: plan)
        #expect(try Self.links(store) == [["10", "1"]])
        #expect(try store.value("SELECT kind FROM actions WHERE id = 10") == "a")
    }

    @Test func aSampleWhoseListsSetTheToOneHasNoWarningForIt() throws {
        let directory = TemporaryDirectory("graphimport-sample")
        let path = directory.write("sample.json", #"{"boards": [{"id": 1, "actions": [{"id": 10, "kind": "a"}]}]}"#)
        let plan = try ImportPlan.compile(text: Self.map.replacingOccurrences(of: "records at actions[*] as Action\n", with: ""), fileName: "test.map")
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let report = try SampleCheck(plan: plan).run(source: FileDescriptorSource(fileDescriptor: descriptor), format: .auto)
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
    }

    @Test(arguments: StoreKind.testable)
    func aStoreWithTheFormerJoinTableIsRefusedAndKeepsItsRows(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let before = Self.map.replacingOccurrences(of: "actions : [Action] inverse board", with: "actions : [Action]")
            .replacingOccurrences(of: "Board? inverse actions", with: "Board?")
        _ = try store.importOrThrow(#"{"boards": [{"id": 1, "actions": [{"id": 10}]}]}"#, plan: try ImportPlan.compile(text: before, fileName: "test.map"))
        let plan = try ImportPlan.compile(text: Self.map, fileName: "test.map")
        let error = store.importError(#"{"boards": [{"id": 1, "actions": [{"id": 11}]}]}"#, plan: plan)
        guard case .storeConflict(_, let refusals)? = error else {
            Issue.record("expected a store conflict, got \(String(describing: error))")
            return
        }
        #expect(refusals.map(\.message).joined().contains("table boards_actions holds the links of Board.actions"), "\(refusals)")
        #expect(try store.value("SELECT count(*) FROM boards_actions") == "1")
        #expect(try store.value("SELECT count(*) FROM actions") == "1")
    }
}

@Suite("Inverse pairs stored once: map errors")
struct InverseStoredOnceMapTests {
    static func problems(_ map: String) -> String {
        do {
            _ = try ImportPlan.compile(text: map, fileName: "test.map")
            return ""
        } catch { return "\(error)" }
    }

    static let base = """
        entity Board
          key id
          id : Int
          actions : [Action] inverse board LIST
        entity Action
          key id
          id : Int
          board <- idBoard : Board? inverse actions TOONE
        """

    @Test func aRequiredToOneBesideAReplacingListIsAMapError() {
        let text = Self.problems(
            Self.base.replacingOccurrences(of: " LIST", with: "").replacingOccurrences(of: "Board? inverse actions TOONE", with: "Board inverse actions"))
        #expect(text.contains("a required to-one beside a to-many that replaces its list"), "\(text)")
        let merged = Self.problems(
            Self.base.replacingOccurrences(of: " LIST", with: " merge").replacingOccurrences(of: "Board? inverse actions TOONE", with: "Board inverse actions"))
        #expect(merged.isEmpty, "\(merged)")
    }

    @Test func aDeleteRuleOnTheToManyIsAMapError() {
        let text = Self.problems(Self.base.replacingOccurrences(of: " LIST", with: " delete cascade").replacingOccurrences(of: " TOONE", with: ""))
        #expect(text.contains("a delete rule on the to-many"), "\(text)")
    }

    @Test func linkAttributesAreAMapError() {
        let text = Self.problems(Self.base.replacingOccurrences(of: " LIST", with: "\n    link role : String?").replacingOccurrences(of: " TOONE", with: ""))
        #expect(text.contains("link attributes"), "\(text)")
    }

    @Test func anInverseThatDoesNotNameItBackStillClashes() {
        let text = Self.problems(
            Self.base.replacingOccurrences(of: " LIST", with: "").replacingOccurrences(of: "inverse actions TOONE", with: "inverse others"))
        #expect(text.contains("clashes with relationship 'board'"), "\(text)")
    }
}
