import Foundation
import GraphImport
import GraphImportSchema
import GraphImportStoreTestSupport
import Testing

/// A map with every value the engine sets: constants, the import's time and its run id.
private let defaultsMap = """
    records at $[*] as Item
    entity Item
      key id
      id : Int
      title : String
      status : String default "new"
      firstSeenAt : Date default now
      importRun : Int default run
      stars <- stargazers : Int default 0
    """

/// `always` and `onchange` values beside one ordinary attribute.
private let markersMap = """
    records at $[*] as Item
    entity Item
      key id
      id : Int
      title : String
      lastSeenAt : Date always now
      updatedAt : Date onchange now
    """

/// Counts of `entity` as `[inserted, updated, unchanged, skipped]`.
private func counts(_ summary: ImportSummary, _ entity: String = "Item") -> [Int] { countsByEntity(summary)[entity] ?? [] }

/// Each test runs against both stores, and on PostgreSQL with batches of one object and of
/// 5000, so that what a run sets holds across batch boundaries (SQLite has no batches).
@Suite("Lifecycle: default, always, onchange and the run columns")
struct LifecycleTests {
    @Test(arguments: StoreKind.testable)
    func defaultsAreSetWhenTheObjectIsInserted(_ kind: StoreKind) throws {
        let store = try MappedStore(kind, map: defaultsMap)
        let summary = try store.importJSON(#"[{"id":1,"title":"a"}]"#)
        #expect(try store.select("SELECT status, import_run, stars FROM items") == [["new", String(summary.runID), "0"]])
        // `now` is the import's time as stored dates are: UTC text that both stores' date functions read.
        #expect(try store.value("SELECT count(*) FROM items WHERE first_seen_at LIKE '____-__-__T__:__:__.___Z'") == "1")
        #expect(try store.value("SELECT count(*) FROM items WHERE first_seen_at > '\(longAgo)'") == "1")
    }

    @Test(arguments: StoreKind.testable)
    func defaultsAreNeverResetByLaterImports(_ kind: StoreKind) throws {
        let store = try MappedStore(kind, map: defaultsMap)
        let first = try store.importJSON(#"[{"id":1,"title":"a","stargazers":7}]"#)
        // Someone changed the values the defaults set; a later run that changes the object keeps them.
        try store.execute("UPDATE items SET status = 'done', first_seen_at = '\(longAgo)'")
        let second = try store.importJSON(#"[{"id":1,"title":"b"}]"#)
        #expect(second.runID != first.runID)
        #expect(counts(second) == [0, 1, 0, 0])
        #expect(
            try store.select("SELECT title, status, first_seen_at, import_run, stars FROM items") == [
                ["b", "done", longAgo, String(first.runID), "7"]
            ])
    }

    /// An attribute with `<-` and `default` reads the JSON whenever the key is there; the default
    /// only fills a new object whose record lacks the key. A later absent key keeps the stored value.
    @Test(arguments: StoreKind.testable)
    func defaultWithSourceTakesTheJSONValueWhenPresent(_ kind: StoreKind) throws {
        let store = try MappedStore(kind, map: defaultsMap)
        try store.importJSON(#"[{"id":1,"title":"a","stargazers":5},{"id":2,"title":"b"}]"#)
        #expect(try store.select("SELECT id, stars FROM items ORDER BY id") == [["1", "5"], ["2", "0"]])
        let summary = try store.importJSON(#"[{"id":1,"title":"a"},{"id":2,"title":"b","stargazers":9}]"#)
        #expect(counts(summary) == [0, 1, 1, 0])
        #expect(try store.select("SELECT id, stars FROM items ORDER BY id") == [["1", "5"], ["2", "9"]])
    }

    /// Without `<-`, an attribute with `default` has no JSON source: a key of its name is ignored.
    @Test(arguments: StoreKind.testable)
    func defaultWithoutSourceIgnoresAKeyOfTheSameName(_ kind: StoreKind) throws {
        let store = try MappedStore(kind, map: defaultsMap)
        try store.importJSON(#"[{"id":1,"title":"a","status":"closed","importRun":99}]"#)
        #expect(try store.select("SELECT status FROM items WHERE import_run <> 99") == [["new"]])
    }

    /// `replyTo`-style links create a stub holding only the key; the object is inserted all the same,
    /// so once its own record fills it in it must carry the defaults like any other.
    @Test(arguments: StoreKind.testable, [1, 5000])
    func defaultsAreSetOnAnObjectFirstMetAsAStub(_ kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: defaultsMap + "\n  parent <- parent_id : Item?", batchSize: batchSize)
        try store.importJSON(#"[{"id":2,"title":"child","parent_id":1}]"#)
        try store.importJSON(#"[{"id":1,"title":"parent"}]"#)
        let rows = try store.select(
            "SELECT id, status, stars FROM items WHERE first_seen_at IS NOT NULL AND import_run IS NOT NULL ORDER BY id")
        #expect(rows == [["1", "new", "0"], ["2", "new", "0"]])
    }

    @Test(arguments: StoreKind.testable, [1, 5000])
    func alwaysIsSetOnEveryImportButIsNotAChange(_ kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: markersMap, batchSize: batchSize)
        let first = try store.importJSON(#"[{"id":1,"title":"a"},{"id":2,"title":"b"}]"#)
        #expect(counts(first) == [2, 0, 0, 0])
        #expect(try store.value("SELECT count(*) FROM items WHERE last_seen_at IS NOT NULL AND updated_at = last_seen_at") == "2")
        try store.execute("UPDATE items SET last_seen_at = '\(longAgo)', updated_at = '\(longAgo)'")
        let second = try store.importJSON(#"[{"id":1,"title":"a"},{"id":2,"title":"b"}]"#)
        #expect(counts(second) == [0, 0, 2, 0])
        #expect(!second.changed)
        // Touched: last seen now. Not changed: updatedAt and changed_run as they were.
        #expect(try store.value("SELECT count(*) FROM items WHERE last_seen_at > '\(longAgo)'") == "2")
        #expect(try store.value("SELECT count(*) FROM items WHERE updated_at = '\(longAgo)'") == "2")
        #expect(try store.value("SELECT count(*) FROM items WHERE changed_run = \(first.runID)") == "2")
        // A third run moves `always` again, and still changes nothing else.
        let stamp = try store.value("SELECT last_seen_at FROM items WHERE id = 1")
        try store.execute("UPDATE items SET last_seen_at = '\(longAgo)' WHERE id = 1")
        let third = try store.importJSON(#"[{"id":1,"title":"a"},{"id":2,"title":"b"}]"#)
        #expect(counts(third) == [0, 0, 2, 0])
        #expect(try store.value("SELECT count(*) FROM items WHERE last_seen_at >= '\(stamp ?? "")'") == "2")
        #expect(try store.value("SELECT count(*) FROM items WHERE changed_run = \(first.runID) AND updated_at = '\(longAgo)'") == "2")
    }

    @Test(arguments: StoreKind.testable, [1, 5000])
    func alwaysLeavesObjectsTheFeedDoesNotTouchAlone(_ kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: markersMap, batchSize: batchSize)
        try store.importJSON(#"[{"id":1,"title":"a"},{"id":2,"title":"b"}]"#)
        try store.execute("UPDATE items SET last_seen_at = '\(longAgo)'")
        try store.importJSON(#"[{"id":1,"title":"a"}]"#)
        #expect(try store.select("SELECT id FROM items WHERE last_seen_at = '\(longAgo)'") == [["2"]])
    }

    /// A link by key to a stored object does not touch it; a key not stored yet makes a stub,
    /// which is new and so gets both values.
    @Test(arguments: StoreKind.testable, [1, 5000])
    func aLinkToAStoredObjectDoesNotTouchItAndAStubGetsTheValues(_ kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: markersMap + "\n  parent <- parent_id : Item?", batchSize: batchSize)
        let first = try store.importJSON(#"[{"id":1,"title":"a"}]"#)
        try store.execute("UPDATE items SET last_seen_at = '\(longAgo)', updated_at = '\(longAgo)'")
        let second = try store.importJSON(#"[{"id":2,"title":"b","parent_id":1},{"id":3,"title":"c","parent_id":4}]"#)
        #expect(counts(second) == [3, 0, 0, 0])
        #expect(
            try store.select("SELECT id, changed_run FROM items WHERE last_seen_at = '\(longAgo)' AND updated_at = '\(longAgo)'") == [
                ["1", String(first.runID)]
            ])
        #expect(
            try store.select("SELECT id FROM items WHERE last_seen_at > '\(longAgo)' AND updated_at = last_seen_at ORDER BY id") == [
                ["2"], ["3"], ["4"],
            ])
    }

    @Test(arguments: StoreKind.testable, [1, 5000])
    func onchangeIsSetOnlyWhenAValueChanges(_ kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: markersMap, batchSize: batchSize)
        let first = try store.importJSON(#"[{"id":1,"title":"a"},{"id":2,"title":"b"}]"#)
        try store.execute("UPDATE items SET updated_at = '\(longAgo)'")
        let summary = try store.importJSON(#"[{"id":1,"title":"edited"},{"id":2,"title":"b"}]"#)
        #expect(counts(summary) == [0, 1, 1, 0])
        // The changed object gets the run's one instant, the same as its `always` value.
        #expect(
            try store.select("SELECT id, changed_run FROM items WHERE updated_at > '\(longAgo)' AND updated_at = last_seen_at") == [
                ["1", String(summary.runID)]
            ])
        #expect(try store.select("SELECT id FROM items WHERE updated_at = '\(longAgo)'") == [["2"]])
        // Importing the same feed again changes nothing: `onchange` stays where the change put it.
        let stamp = try store.value("SELECT updated_at FROM items WHERE id = 1")
        let again = try store.importJSON(#"[{"id":1,"title":"edited"},{"id":2,"title":"b"}]"#)
        #expect(counts(again) == [0, 0, 2, 0])
        #expect(
            try store.select("SELECT id, updated_at, changed_run FROM items ORDER BY id") == [
                ["1", stamp ?? "", String(summary.runID)], ["2", longAgo, String(first.runID)],
            ])
    }

    /// A to-one or a list that changes is a change of its owner, as a value is: `onchange` moves.
    @Test(arguments: StoreKind.testable, [1, 5000])
    func onchangeIsSetWhenAToOneOrAListChanges(_ kind: StoreKind, batchSize: Int) throws {
        let map = markersMap + "\n  parent <- parent_id : Item?\n  tags : [Tag]\nentity Tag\n  key name\n  name : String"
        let store = try MappedStore(kind, map: map, batchSize: batchSize)
        let feed = #"[{"id":1,"title":"a","parent_id":9,"tags":[{"name":"x"}]},{"id":2,"title":"b","parent_id":9,"tags":[{"name":"x"}]},"#
        try store.importJSON(feed + #"{"id":3,"title":"c","parent_id":9,"tags":[{"name":"x"}]}]"#)
        try store.execute("UPDATE items SET updated_at = '\(longAgo)'")
        let summary = try store.importJSON(
            #"[{"id":1,"title":"a","parent_id":8,"tags":[{"name":"x"}]},{"id":2,"title":"b","parent_id":9,"tags":[{"name":"y"}]},"#
                + #"{"id":3,"title":"c","parent_id":9,"tags":[{"name":"x"}]}]"#)
        #expect(counts(summary) == [1, 2, 1, 0])
        #expect(try store.select("SELECT id FROM items WHERE updated_at = '\(longAgo)' ORDER BY id") == [["3"], ["9"]])
        #expect(try store.select("SELECT id FROM items WHERE changed_run = \(summary.runID) ORDER BY id") == [["1"], ["2"], ["8"]])
        #expect(try store.value("SELECT count(*) FROM items WHERE id IN (1, 2, 8) AND updated_at = last_seen_at") == "3")
    }

    /// Two occurrences in one feed that change and then restore a value are no change in the end:
    /// `onchange` and `changed_run` are put back. On PostgreSQL the occurrences of one batch are
    /// merged before they are written, so the same holds there; two batches each write theirs, and
    /// the object counts as updated (the difference the README names).
    @Test(arguments: StoreKind.testable, [1, 5000])
    func onchangeAndChangedRunAreRestoredWhenChangesCancelOut(_ kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: markersMap, batchSize: batchSize)
        let first = try store.importJSON(#"[{"id":1,"title":"a"}]"#)
        try store.execute("UPDATE items SET updated_at = '\(longAgo)'")
        let summary = try store.importJSON(#"[{"id":1,"title":"x"},{"id":1,"title":"a"}]"#)
        if kind == .postgresql && batchSize == 1 {
            #expect(counts(summary) == [0, 1, 0, 0])
            #expect(try store.select("SELECT title, changed_run FROM items WHERE updated_at > '\(longAgo)'") == [["a", String(summary.runID)]])
        } else {
            #expect(counts(summary) == [0, 0, 1, 0])
            #expect(try store.select("SELECT title, updated_at, changed_run FROM items") == [["a", longAgo, String(first.runID)]])
        }
    }

    @Test(arguments: StoreKind.testable, [1, 5000])
    func runColumnsListExactlyWhatEachRunInsertedAndChanged(_ kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: markersMap, batchSize: batchSize)
        let first = try store.importJSON(#"[{"id":1,"title":"a"},{"id":2,"title":"b"},{"id":3,"title":"c"}]"#)
        let second = try store.importJSON(#"[{"id":1,"title":"a"},{"id":2,"title":"B"},{"id":3,"title":"c"},{"id":4,"title":"d"}]"#)
        #expect(first.runID != second.runID)
        #expect(counts(second) == [1, 1, 2, 0])
        #expect(try store.select("SELECT id FROM items WHERE changed_run = \(second.runID) ORDER BY id") == [["2"], ["4"]])
        #expect(try store.select("SELECT id FROM items WHERE inserted_run = \(second.runID) ORDER BY id") == [["4"]])
        #expect(try store.select("SELECT id FROM items WHERE changed_run = \(first.runID) ORDER BY id") == [["1"], ["3"]])
        #expect(try store.select("SELECT id FROM items WHERE inserted_run = \(first.runID) ORDER BY id") == [["1"], ["2"], ["3"]])
        // A third run that changes nothing names no object.
        let third = try store.importJSON(#"[{"id":1,"title":"a"},{"id":4,"title":"d"}]"#)
        #expect(try store.value("SELECT count(*) FROM items WHERE changed_run = \(third.runID)") == "0")
    }

    /// `always` replaces what the feed gives for the attribute, so a different feed value is no
    /// change; `onchange` with `<-` takes the feed's value on insert, and its own on a change.
    @Test(arguments: StoreKind.testable, [1, 5000])
    func alwaysOverridesTheFeedAndOnchangeWithAPathTakesTheFeedOnInsert(_ kind: StoreKind, batchSize: Int) throws {
        let map = """
            records at $[*] as Item
            entity Item
              key id
              id : Int
              title : String
              seen <- seen : Int always 7
              mark <- mark : Int onchange 0
            """
        let store = try MappedStore(kind, map: map, batchSize: batchSize)
        try store.importJSON(#"[{"id":1,"title":"a","seen":1,"mark":5}]"#)
        #expect(try store.select("SELECT seen, mark FROM items") == [["7", "5"]])
        let same = try store.importJSON(#"[{"id":1,"title":"a","seen":2,"mark":5}]"#)
        #expect(counts(same) == [0, 0, 1, 0])
        #expect(try store.select("SELECT seen, mark FROM items") == [["7", "5"]])
        let changed = try store.importJSON(#"[{"id":1,"title":"b","seen":3,"mark":5}]"#)
        #expect(counts(changed) == [0, 1, 0, 0])
        #expect(try store.select("SELECT title, seen, mark FROM items") == [["b", "7", "0"]])
    }

    /// A dry run says what it would do and leaves every value as it was, `always` included.
    @Test(arguments: StoreKind.testable)
    func aDryRunSetsNothing(_ kind: StoreKind) throws {
        let store = try MappedStore(kind, map: markersMap)
        try store.importJSON(#"[{"id":1,"title":"a"}]"#)
        try store.execute("UPDATE items SET last_seen_at = '\(longAgo)', updated_at = '\(longAgo)'")
        var options = ImportOptions()
        options.dryRun = true
        let summary = try store.importJSON(#"[{"id":1,"title":"b"},{"id":2,"title":"c"}]"#, options: options)
        #expect(counts(summary) == [1, 1, 0, 0])
        #expect(try store.select("SELECT id, title, last_seen_at, updated_at FROM items") == [["1", "a", longAgo, longAgo]])
    }

    /// A run that deletes what the feed lacks still sets the values of what it holds.
    @Test(arguments: StoreKind.testable, [1, 5000])
    func aRunThatDeletesSetsTheValuesOfTheObjectsItKeeps(_ kind: StoreKind, batchSize: Int) throws {
        let map = markersMap.replacingOccurrences(of: "  key id\n", with: "  key id\n  delete missing\n")
        let store = try MappedStore(kind, map: map, batchSize: batchSize)
        try store.importJSON(#"[{"id":1,"title":"a"},{"id":2,"title":"b"},{"id":3,"title":"c"}]"#)
        try store.execute("UPDATE items SET last_seen_at = '\(longAgo)', updated_at = '\(longAgo)'")
        let summary = try store.importJSON(#"[{"id":1,"title":"a"},{"id":3,"title":"C"}]"#)
        #expect(summary.deletions.map(\.count) == [1])
        #expect(counts(summary) == [0, 1, 1, 0])
        #expect(
            try store.select(
                "SELECT id, CASE WHEN last_seen_at > '\(longAgo)' THEN 'now' ELSE 'before' END, "
                    + "CASE WHEN updated_at > '\(longAgo)' THEN 'now' ELSE 'before' END FROM items ORDER BY id") == [
                    ["1", "now", "before"], ["3", "now", "now"],
                ])
    }

    /// A key attribute's value is its key: `onchange` (or `always`) never moves it, on insert or
    /// on a change (`ObjectDecisions`). SQLite's writer once set it on a change, so the next
    /// import of the same object made a second one.
    @Test(arguments: StoreKind.testable, ["onchange 5", "always 5"])
    func theEngineNeverSetsAKeyAttribute(_ kind: StoreKind, clause: String) throws {
        let map = """
            records at $[*] as Item
            entity Item
              key id
              id <- id : Int \(clause)
              title : String
            """
        let store = try MappedStore(kind, map: map)
        try store.importJSON(#"[{"id":1,"title":"a"}]"#)
        try store.importJSON(#"[{"id":1,"title":"b"}]"#)
        let third = try store.importJSON(#"[{"id":1,"title":"c"}]"#)
        #expect(counts(third) == [0, 1, 0, 0])
        #expect(try store.select("SELECT id, title FROM items") == [["1", "c"]])
    }

    /// A stored object its mode does not update is left as it is: its `always` value too.
    @Test(arguments: StoreKind.testable, ["insert", "upsert"])
    func alwaysLeavesAnObjectItsModeDoesNotUpdateAlone(_ kind: StoreKind, mode: String) throws {
        let store = try MappedStore(kind, map: markersMap + "\n  mode \(mode)")
        try store.importJSON(#"[{"id":1,"title":"a"}]"#)
        try store.execute("UPDATE items SET last_seen_at = '\(longAgo)'")
        let again = try store.importJSON(#"[{"id":1,"title":"b"},{"id":2,"title":"c"}]"#)
        #expect(counts(again) == (mode == "insert" ? [1, 0, 1, 0] : [1, 1, 0, 0]))
        let touched = try store.value("SELECT count(*) FROM items WHERE id = 1 AND last_seen_at > '\(longAgo)'")
        #expect(touched == (mode == "insert" ? "0" : "1"))
        #expect(try store.value("SELECT count(*) FROM items WHERE id = 2 AND last_seen_at > '\(longAgo)'") == "1")
    }

    /// The engine's values, a derived value and a `beforeSave` hook on one entity: the hook sees the
    /// whole object, and a re-import is still no change (`always` moves, `onchange` stays), on
    /// PostgreSQL too, where the hook's object is read before the batch and the markers are set after it.
    @Test(arguments: StoreKind.testable, [1, 5000])
    func markersDerivedValuesAndAHookTogether(_ kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: markersMap + "\n  label : String derived \"{title}!\"", batchSize: batchSize)
        let seen = SeenTitles()
        var hooks = ImportHooks()
        hooks.beforeSave["Item"] = seen.check
        let feed = #"[{"id":1,"title":"a"},{"id":2,"title":"b"}]"#
        #expect(counts(try store.run(feed, hooks: hooks)) == [2, 0, 0, 0])
        try store.execute("UPDATE items SET last_seen_at = '\(longAgo)', updated_at = '\(longAgo)'")
        let again = try store.run(feed, hooks: hooks)
        #expect(counts(again) == [0, 0, 2, 0])
        #expect(
            try store.select("SELECT id, label, updated_at FROM items WHERE last_seen_at > '\(longAgo)' ORDER BY id") == [
                ["1", "a!", longAgo], ["2", "b!", longAgo],
            ])
        let changed = try store.run(#"[{"id":1,"title":"c"}]"#, hooks: hooks)
        #expect(counts(changed) == [0, 1, 0, 0])
        #expect(try store.select("SELECT label, updated_at > '\(longAgo)' FROM items WHERE id = 1").map { $0[0] } == ["c!"])
        #expect(try store.value("SELECT count(*) FROM items WHERE id = 1 AND updated_at > '\(longAgo)'") == "1")
        #expect(seen.titles == ["a", "b", "a", "b", "c"])
    }
}

/// Every `null` and `missing` rule on one entity. Most posts below leave `ups` out: `missing keep`
/// lets a new one start without the required `score`.
private let rulesMap = """
    records at $[*] as Post
    entity Post
      key id
      id : Int
      score <- ups : Int null 0 missing keep
      bio : String? null keep
      name : String null reject
      nick : String? null reject
      note : String? null store
      lang : String? missing null
      tier : String missing "free"
      plain : String?
    """

@Suite("Lifecycle: null and missing rules")
struct NullAndMissingRuleTests {
    private func post(_ members: String) -> String { #"{"id":1,"name":"n""# + (members.isEmpty ? "" : "," + members) + "}" }

    @Test(arguments: StoreKind.testable)
    func nullWithLiteralStoresTheLiteral(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: rulesMap)
        try fixture.importJSON("[\(post(#""ups":5"#))]")
        #expect(try fixture.value("SELECT score FROM posts") == "5")
        let summary = try fixture.importJSON("[\(post(#""ups":null"#))]")
        #expect(counts(summary, "Post") == [0, 1, 0, 0])
        #expect(try fixture.value("SELECT score FROM posts") == "0")
    }

    @Test(arguments: StoreKind.testable)
    func nullKeepLeavesTheStoredValue(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: rulesMap)
        try fixture.importJSON("[\(post(#""bio":"hi""#))]")
        let summary = try fixture.importJSON("[\(post(#""bio":null"#))]")
        #expect(counts(summary, "Post") == [0, 0, 1, 0])
        #expect(try fixture.value("SELECT bio FROM posts") == "hi")
        let changed = try fixture.importJSON("[\(post(#""bio":"bye""#))]")
        #expect(counts(changed, "Post") == [0, 1, 0, 0])
        #expect(try fixture.value("SELECT bio FROM posts") == "bye")
    }

    @Test(arguments: StoreKind.testable)
    func nullKeepOnANewObjectLeavesItNull(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: rulesMap)
        try fixture.importJSON("[\(post(#""bio":null"#))]")
        #expect(try fixture.value("SELECT bio FROM posts") == "NULL")
    }

    @Test(arguments: StoreKind.testable, ["name", "nick"])
    func nullRejectIsAnErrorNamingTheRecordAndTheKey(_ kind: StoreKind, attribute: String) throws {
        let fixture = try MappedStore(kind, map: rulesMap)
        try fixture.importJSON("[\(post(#""nick":"x""#))]")
        let before = try fixture.rows()
        let bad = attribute == "name" ? #"{"id":2,"name":null}"# : #"{"id":2,"name":"m","nick":null}"#
        let error = fixture.recordFailure("[\(post(#""ups":1"#)),\n\(bad)]")
        #expect(error?.recordIndex == 1)
        #expect(error?.position.line == 2)
        #expect(error?.member == "Post.\(attribute)")
        #expect(error?.path == "$[1].\(attribute)")
        #expect(error?.message == "is required but the value is null")
        #expect(try fixture.rows() == before)
    }

    @Test(arguments: StoreKind.testable)
    func nullStoreErasesTheStoredValue(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: rulesMap)
        try fixture.importJSON("[\(post(#""note":"x","plain":"y""#))]")
        let summary = try fixture.importJSON("[\(post(#""note":null,"plain":null"#))]")
        #expect(counts(summary, "Post") == [0, 1, 0, 0])
        #expect(try fixture.select("SELECT note, plain FROM posts") == [["NULL", "NULL"]])
    }

    @Test(arguments: StoreKind.testable)
    func missingNullErasesTheStoredValueWhenTheKeyIsAbsent(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: rulesMap)
        try fixture.importJSON("[\(post(#""lang":"en""#))]")
        #expect(try fixture.value("SELECT lang FROM posts") == "en")
        let summary = try fixture.importJSON("[\(post(""))]")
        #expect(counts(summary, "Post") == [0, 1, 0, 0])
        #expect(try fixture.value("SELECT lang FROM posts") == "NULL")
    }

    @Test(arguments: StoreKind.testable)
    func missingLiteralStoresTheLiteralWhenTheKeyIsAbsent(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: rulesMap)
        try fixture.importJSON("[\(post(""))]")
        #expect(try fixture.value("SELECT tier FROM posts") == "free")
        try fixture.importJSON("[\(post(#""tier":"pro""#))]")
        #expect(try fixture.value("SELECT tier FROM posts") == "pro")
        let summary = try fixture.importJSON("[\(post(""))]")
        #expect(counts(summary, "Post") == [0, 1, 0, 0])
        #expect(try fixture.value("SELECT tier FROM posts") == "free")
    }

    @Test(arguments: StoreKind.testable)
    func missingKeyKeepsTheStoredValueByDefault(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: rulesMap)
        try fixture.importJSON("[\(post(#""plain":"x","bio":"b","note":"n","nick":"k","ups":3"#))]")
        let summary = try fixture.importJSON("[\(post(""))]")
        // Only `lang` (missing null, already NULL) and `tier` (missing "free", already free) have rules
        // that store a value (`score`'s `missing keep` keeps it); nothing changes.
        #expect(counts(summary, "Post") == [0, 0, 1, 0])
        #expect(try fixture.select("SELECT plain, bio, note, nick, score FROM posts") == [["x", "b", "n", "k", "3"]])
    }
}

/// A `beforeSave` hook that refuses an item whose label is not derived from its title, and keeps
/// the titles it saw, in order (hooks are `@Sendable`).
private final class SeenTitles: @unchecked Sendable {
    private var seen: [String] = []
    private let lock = NSLock()
    var titles: [String] { lock.withLock { seen } }

    func check(_ item: ObjectValues) throws(HookFailure) {
        guard case .text(let title)? = item["title"], item["label"] == .text(title + "!") else { throw HookFailure("label not derived") }
        lock.withLock { seen.append(title) }
    }
}
