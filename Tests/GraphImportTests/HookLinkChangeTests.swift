import GraphImport
import GraphImportSchema
import GraphImportStoreTestSupport
import Synchronization
import Testing

/// Items with an `onchange` mark, an owner and tags: the feed gives the mark only on insert, so
/// the mark moves only when the engine sees a change.
private let itemsMap = """
    records at $[*] as Item
    entity Item
      key id
      id : Int
      mark <- mark : String onchange "changed"
      owner : Person?
      tags : [Tag]
      labels : [Tag] merge
    entity Person
      key id
      id : Int
    entity Tag
      key id
      id : Int
    """

/// What `beforeSave` saw, call by call: each item's id and mark.
private final class SeenMarks: Sendable {
    private let calls = Mutex<[String]>([])

    var hook: @Sendable (ObjectValues) throws(HookFailure) -> Void {
        { item throws(HookFailure) in
            guard case .integer(let id)? = item["id"], case .text(let mark)? = item["mark"] else {
                throw HookFailure("an item without its id or mark")
            }
            self.calls.withLock { $0.append("\(id) \(mark)") }
        }
    }

    /// The calls since the last time they were taken.
    func take() -> [String] {
        calls.withLock { calls in
            let taken = calls
            calls = []
            return taken
        }
    }
}

/// Refuses action 11 once its `onchange` mark says it changed.
private func refusesElevenChanged(_ action: ObjectValues) throws(HookFailure) {
    if action["id"] == .integer(11) && action["mark"] == .text("changed") { throw HookFailure("action 11 stays") }
}

private func item(_ id: Int, owner: Int, tags: [Int], labels: [Int] = [], mark: String? = nil) -> String {
    let objects = { (ids: [Int]) in ids.map { #"{"id":\#($0)}"# }.joined(separator: ",") }
    let given = mark.map { #","mark":"\#($0)""# } ?? ""
    return #"{"id":\#(id)\#(given),"owner":{"id":\#(owner)},"tags":[\#(objects(tags))],"labels":[\#(objects(labels))]}"#
}

@Suite("beforeSave and a change of links alone")
struct HookLinkChangeTests {
    /// A change of a to-one alone or of a list alone (a `merge` one too) is a change, on both
    /// stores as on SQLite: `beforeSave` sees `onchange` moved, and the store keeps it moved. A
    /// feed that gives the same links (a `merge` list's targets already held among them) is no
    /// change, and a re-import of it calls the hook with the stored values again. PostgreSQL
    /// compares the links before its batch is written (`PostgresRecordCompletion.links`).
    @Test(arguments: StoreKind.testable, [5000, 1])
    func aChangeOfLinksAloneMovesOnchangeForBeforeSave(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: itemsMap, batchSize: batchSize)
        let seen = SeenMarks()
        var hooks = ImportHooks()
        hooks.beforeSave["Item"] = seen.hook
        let first = [
            item(1, owner: 1, tags: [1], mark: "fresh"), item(2, owner: 1, tags: [1], mark: "fresh"),
            item(3, owner: 1, tags: [1], labels: [1], mark: "fresh"), item(4, owner: 1, tags: [1], labels: [1], mark: "fresh"),
        ]
        try store.run("[\(first.joined(separator: ","))]", hooks: hooks)
        #expect(seen.take() == ["1 fresh", "2 fresh", "3 fresh", "4 fresh"])

        // The same links: nothing changes, and the hook sees the stored marks.
        let same = [item(1, owner: 1, tags: [1]), item(2, owner: 1, tags: [1]), item(3, owner: 1, tags: [1], labels: [1])]
        try store.run("[\(same.joined(separator: ","))]", hooks: hooks)
        #expect(seen.take() == ["1 fresh", "2 fresh", "3 fresh"])

        // Item 1: its list alone; item 2: its to-one alone; item 3: a `merge` list gains a tag;
        // item 4: a `merge` list given a tag it holds, which is no change.
        let changed = [
            item(1, owner: 1, tags: [1, 2]), item(2, owner: 2, tags: [1]), item(3, owner: 1, tags: [1], labels: [2]),
            item(4, owner: 1, tags: [1], labels: [1]),
        ]
        try store.run("[\(changed.joined(separator: ","))]", hooks: hooks)
        #expect(seen.take() == ["1 changed", "2 changed", "3 changed", "4 fresh"])
        #expect(
            try store.select("SELECT id, mark FROM items ORDER BY id") == [["1", "changed"], ["2", "changed"], ["3", "changed"], ["4", "fresh"]])

        // A re-import of what is stored now calls the hook with what is stored, changing nothing.
        try store.run("[\(changed.joined(separator: ","))]", hooks: hooks)
        #expect(seen.take() == ["1 changed", "2 changed", "3 changed", "4 fresh"])
        #expect(
            try store.select("SELECT id, mark FROM items ORDER BY id") == [["1", "changed"], ["2", "changed"], ["3", "changed"], ["4", "fresh"]])
    }

    /// A `link existing` key links only an object stored or written earlier in the run, on both
    /// stores: an unknown one is no link (no change), one an earlier record of the run wrote is.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func aLinkExistingKeyChangesOnlyWhatItLinks(kind: StoreKind, batchSize: Int) throws {
        let map = """
            records at $[*] as Item
            entity Item
              key id
              id : Int
              mark <- mark : String onchange "changed"
              tags : [Tag]
              refs <- ref_ids : [Tag] link existing
              lead <- lead_id : Tag? link existing
            entity Tag
              key id
              id : Int
            """
        let store = try MappedStore(kind, map: map, batchSize: batchSize)
        let seen = SeenMarks()
        var hooks = ImportHooks()
        hooks.beforeSave["Item"] = seen.hook
        try store.run(#"[{"id":1,"mark":"fresh","tags":[{"id":1}],"ref_ids":[1],"lead_id":1}]"#, hooks: hooks)
        #expect(seen.take() == ["1 fresh"])
        // Tag 9 is nowhere: the list and the to-one stay as they are.
        try store.run(#"[{"id":1,"tags":[{"id":1}],"ref_ids":[1,9],"lead_id":9}]"#, hooks: hooks)
        #expect(seen.take() == ["1 fresh"])
        #expect(try store.select("SELECT id, mark FROM items") == [["1", "fresh"]])
        // Tag 2 is written by an earlier record of the run: item 1's list gains it.
        try store.run(#"[{"id":2,"mark":"fresh","tags":[{"id":2}]},{"id":1,"tags":[{"id":1}],"ref_ids":[1,2],"lead_id":1}]"#, hooks: hooks)
        #expect(seen.take() == ["2 fresh", "1 changed"])
        #expect(try store.select("SELECT id, mark FROM items ORDER BY id") == [["1", "changed"], ["2", "fresh"]])
    }
    /// An object a run changed holds its `onchange` values for the rest of the run: a later
    /// occurrence that changes nothing more shows `beforeSave` the moved mark, on both stores and
    /// whatever the batch size (PostgreSQL, which writes `onchange` at the run's end, remembers
    /// per object which ones the run changed). The filler items put the last occurrence in
    /// another batch of records than the first.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func aLaterOccurrenceSeesTheOnchangeAnEarlierOneMoved(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: itemsMap, batchSize: batchSize)
        let seen = SeenMarks()
        var hooks = ImportHooks()
        hooks.beforeSave["Item"] = seen.hook
        try store.run("[\(item(1, owner: 1, tags: [1], mark: "fresh")),\(item(2, owner: 1, tags: [1], mark: "fresh"))]", hooks: hooks)
        _ = seen.take()

        let fillers = (100..<240).map { item($0, owner: 1, tags: [], mark: "filler") }
        // Item 1 changes its list, item 2 its to-one; each comes again unchanged, at once and
        // after the fillers.
        let records =
            [item(1, owner: 1, tags: [1, 2]), item(2, owner: 2, tags: [1]), item(1, owner: 1, tags: [1, 2]), item(2, owner: 2, tags: [1])]
            + fillers + [item(1, owner: 1, tags: [1, 2]), item(2, owner: 2, tags: [1])]
        try store.run("[\(records.joined(separator: ","))]", hooks: hooks)
        #expect(seen.take().filter { !$0.hasSuffix("filler") } == ["1 changed", "2 changed", "1 changed", "2 changed", "1 changed", "2 changed"])
        #expect(try store.select("SELECT id, mark FROM items WHERE id < 3 ORDER BY id") == [["1", "changed"], ["2", "changed"]])
    }
    /// A board and its actions, a pair stored once (`actions.board_pk`), each with a mark.
    private static let boardsMap = """
        records at boards[*] as Board
        records at actions[*] as Action
        entity Board
          key id
          id : Int
          mark <- mark : String onchange "changed"
          actions : [Action] inverse board
        entity Action
          key id
          id : Int
          mark <- mark : String onchange "changed"
          board <- idBoard : Board? inverse actions
        """

    /// An action a board's list lets go gets its `beforeSave` call, with its mark moved (its
    /// to-one changed), on both stores: a let-go is an update of the action. Also when an
    /// earlier record of the run linked it, within one PostgreSQL batch or across batches.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func anObjectAListStoredOnceLetsGoGetsItsBeforeSave(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: Self.boardsMap, batchSize: batchSize)
        let seen = SeenMarks()
        var hooks = ImportHooks()
        hooks.beforeSave["Action"] = seen.hook
        let actions = [10, 11, 12, 13].map { #"{"id":\#($0),"mark":"fresh"}"# }.joined(separator: ",")
        try store.run(#"{"boards":[{"id":1,"mark":"fresh","actions":[\#(actions)]}]}"#, hooks: hooks)
        #expect(seen.take() == ["10 fresh", "11 fresh", "12 fresh", "13 fresh"])

        try store.run(#"{"boards":[{"id":1,"actions":[11,12,13]}]}"#, hooks: hooks)
        #expect(seen.take() == ["11 fresh", "12 fresh", "13 fresh", "10 changed"])
        // Action 10 comes back to board 1 by its own record; the board's list then lets it go
        // again, with action 11.
        try store.run(#"{"actions":[{"id":10,"idBoard":1}],"boards":[{"id":1,"actions":[12,13]}]}"#, hooks: hooks)
        #expect(seen.take() == ["10 changed", "12 fresh", "13 fresh", "10 changed", "11 changed"])
        let stored = try store.select("SELECT a.id, a.mark, b.id FROM actions a LEFT JOIN boards b ON b.pk = a.board_pk ORDER BY a.id")
        #expect(stored == [["10", "changed", "NULL"], ["11", "changed", "NULL"], ["12", "fresh", "1"], ["13", "fresh", "1"]])
    }

    /// A let-go action's `beforeSave` refusal refuses its board's record, on both stores: under
    /// `skipInvalid` the record is skipped and nothing of it is written.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func aLetGoObjectsRefusalRefusesItsOwnersRecord(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: Self.boardsMap, batchSize: batchSize)
        var hooks = ImportHooks()
        hooks.beforeSave["Action"] = refusesElevenChanged
        try store.run(#"{"boards":[{"id":1,"mark":"fresh","actions":[{"id":10,"mark":"fresh"},{"id":11,"mark":"fresh"}]}]}"#, hooks: hooks)
        var skipped: [RecordError] = []
        try store.run(
            #"{"boards":[{"id":1,"mark":"new","actions":[10]},{"id":2,"mark":"fresh"}]}"#, hooks: hooks, options: ImportOptions(skipInvalid: true),
            onSkip: { skipped.append($0) })
        #expect(skipped.map(\.recordIndex) == [0])
        #expect(skipped.first?.message.contains("action 11 stays") == true)
        let stored = try store.select("SELECT a.id, a.mark, b.id FROM actions a LEFT JOIN boards b ON b.pk = a.board_pk ORDER BY a.id")
        #expect(stored == [["10", "fresh", "1"], ["11", "fresh", "1"]])
        #expect(try store.select("SELECT id, mark FROM boards ORDER BY id") == [["1", "fresh"], ["2", "fresh"]])
    }

    /// A board's list stored once is its actions' to-one, written after the board: a new board's
    /// list makes no stub of it (no hook call for one), and a change of the list alone changes
    /// the actions, not the board, whose `beforeSave` sees its mark as it was, on both stores.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func aListStoredOnceIsNoChangeOfItsOwner(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: Self.boardsMap, batchSize: batchSize)
        let seen = SeenMarks()
        var hooks = ImportHooks()
        hooks.beforeSave["Board"] = seen.hook
        hooks.onInsert["Board"] = { board in board["mark"] = .text("inserted") }
        let first = try store.run(
            #"{"boards":[{"id":1,"mark":"fresh","actions":[{"id":10,"mark":"fresh"},{"id":11,"mark":"fresh"}]}]}"#, hooks: hooks)
        #expect(seen.take() == ["1 inserted"])
        #expect(first.entities.allSatisfy { $0.counts.stubs == 0 && $0.counts.stubsCompleted == 0 })
        #expect(try store.select("SELECT id, mark FROM boards") == [["1", "inserted"]])
        try store.execute("UPDATE boards SET mark = 'fresh'")
        try store.run(#"{"boards":[{"id":1,"actions":[10]}]}"#, hooks: hooks)
        #expect(seen.take() == ["1 fresh"])
        try store.run(#"{"boards":[{"id":1,"actions":[10,11]}]}"#, hooks: hooks)
        #expect(seen.take() == ["1 fresh"])
        #expect(try store.select("SELECT id, mark FROM boards") == [["1", "fresh"]])
    }
}
