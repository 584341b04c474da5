import GraphImport
import GraphImportStore
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

@Suite("Lifecycle: default, always, onchange and the run columns")
struct LifecycleTests {
    @Test func defaultsAreSetWhenTheObjectIsInserted() throws {
        let fixture = try EngineFixture(map: defaultsMap)
        let summary = try fixture.importJSON(#"[{"id":1,"title":"a"}]"#)
        #expect(try fixture.rows("SELECT status, import_run, stars FROM item") == [["'new'", String(summary.runID), "0"]])
        // `now` is the import's time as stored dates are: UTC text that SQLite's date functions read.
        #expect(try fixture.value("SELECT first_seen_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z' FROM item") == "1")
        #expect(try fixture.value("SELECT julianday(first_seen_at) > julianday('\(longAgo)') FROM item") == "1")
    }

    @Test func defaultsAreNeverResetByLaterImports() throws {
        let fixture = try EngineFixture(map: defaultsMap)
        let first = try fixture.importJSON(#"[{"id":1,"title":"a","stargazers":7}]"#)
        // Someone changed the values the defaults set; a later run that changes the object keeps them.
        try fixture.execute("UPDATE item SET status = 'done', first_seen_at = '\(longAgo)'")
        let second = try fixture.importJSON(#"[{"id":1,"title":"b"}]"#)
        #expect(second.runID != first.runID)
        #expect(EngineFixture.counts(second, "Item") == [0, 1, 0, 0])
        #expect(
            try fixture.rows("SELECT title, status, first_seen_at, import_run, stars FROM item") == [
                ["'b'", "'done'", "'\(longAgo)'", String(first.runID), "7"]
            ])
    }

    /// An attribute with `<-` and `default` reads the JSON whenever the key is there; the default
    /// only fills a new object whose record lacks the key. A later absent key keeps the stored value.
    @Test func defaultWithSourceTakesTheJSONValueWhenPresent() throws {
        let fixture = try EngineFixture(map: defaultsMap)
        try fixture.importJSON(#"[{"id":1,"title":"a","stargazers":5},{"id":2,"title":"b"}]"#)
        #expect(try fixture.rows("SELECT id, stars FROM item ORDER BY id") == [["1", "5"], ["2", "0"]])
        let summary = try fixture.importJSON(#"[{"id":1,"title":"a"},{"id":2,"title":"b","stargazers":9}]"#)
        #expect(EngineFixture.counts(summary, "Item") == [0, 1, 1, 0])
        #expect(try fixture.rows("SELECT id, stars FROM item ORDER BY id") == [["1", "5"], ["2", "9"]])
    }

    /// Without `<-`, an attribute with `default` has no JSON source: a key of its name is ignored.
    @Test func defaultWithoutSourceIgnoresAKeyOfTheSameName() throws {
        let fixture = try EngineFixture(map: defaultsMap)
        try fixture.importJSON(#"[{"id":1,"title":"a","status":"closed","importRun":99}]"#)
        #expect(try fixture.rows("SELECT status, import_run = 99 FROM item") == [["'new'", "0"]])
    }

    /// `replyTo`-style links create a stub holding only the key; the object is inserted all the same,
    /// so once its own record fills it in it must carry the defaults like any other.
    @Test func defaultsAreSetOnAnObjectFirstMetAsAStub() throws {
        let fixture = try EngineFixture(map: defaultsMap + "\n  parent <- parent_id : Item?")
        try fixture.importJSON(#"[{"id":2,"title":"child","parent_id":1}]"#)
        try fixture.importJSON(#"[{"id":1,"title":"parent"}]"#)
        let rows = try fixture.rows("SELECT id, status, stars, first_seen_at IS NOT NULL, import_run IS NOT NULL FROM item ORDER BY id")
        #expect(rows == [["1", "'new'", "0", "1", "1"], ["2", "'new'", "0", "1", "1"]])
    }

    @Test func alwaysIsSetOnEveryImportButIsNotAChange() throws {
        let fixture = try EngineFixture(map: markersMap)
        let first = try fixture.importJSON(#"[{"id":1,"title":"a"},{"id":2,"title":"b"}]"#)
        #expect(try fixture.value("SELECT count(*) FROM item WHERE last_seen_at IS NOT NULL AND updated_at = last_seen_at") == "2")
        try fixture.execute("UPDATE item SET last_seen_at = '\(longAgo)', updated_at = '\(longAgo)'")
        let second = try fixture.importJSON(#"[{"id":1,"title":"a"},{"id":2,"title":"b"}]"#)
        #expect(EngineFixture.counts(second, "Item") == [0, 0, 2, 0])
        #expect(!second.changed)
        // Touched: last seen now. Not changed: updatedAt and changed_run as they were.
        #expect(try fixture.value("SELECT count(*) FROM item WHERE last_seen_at > '\(longAgo)'") == "2")
        #expect(try fixture.value("SELECT count(*) FROM item WHERE updated_at = '\(longAgo)'") == "2")
        #expect(try fixture.value("SELECT count(*) FROM item WHERE changed_run = \(first.runID)") == "2")
    }

    @Test func alwaysLeavesObjectsTheFeedDoesNotTouchAlone() throws {
        let fixture = try EngineFixture(map: markersMap)
        try fixture.importJSON(#"[{"id":1,"title":"a"},{"id":2,"title":"b"}]"#)
        try fixture.execute("UPDATE item SET last_seen_at = '\(longAgo)'")
        try fixture.importJSON(#"[{"id":1,"title":"a"}]"#)
        #expect(try fixture.rows("SELECT id FROM item WHERE last_seen_at = '\(longAgo)'") == [["2"]])
    }

    @Test func onchangeIsSetOnlyWhenAValueChanges() throws {
        let fixture = try EngineFixture(map: markersMap)
        try fixture.importJSON(#"[{"id":1,"title":"a"},{"id":2,"title":"b"}]"#)
        try fixture.execute("UPDATE item SET updated_at = '\(longAgo)'")
        let summary = try fixture.importJSON(#"[{"id":1,"title":"edited"},{"id":2,"title":"b"}]"#)
        #expect(EngineFixture.counts(summary, "Item") == [0, 1, 1, 0])
        // The changed object gets the run's one instant, the same as its `always` value.
        #expect(try fixture.rows("SELECT id, updated_at = last_seen_at FROM item WHERE updated_at > '\(longAgo)'") == [["1", "1"]])
        #expect(try fixture.rows("SELECT id FROM item WHERE updated_at = '\(longAgo)'") == [["2"]])
    }

    /// Two occurrences in one feed that change and then restore a value are no change in the end:
    /// `onchange` and `changed_run` are put back.
    @Test func onchangeAndChangedRunAreRestoredWhenChangesCancelOut() throws {
        let fixture = try EngineFixture(map: markersMap)
        let first = try fixture.importJSON(#"[{"id":1,"title":"a"}]"#)
        try fixture.execute("UPDATE item SET updated_at = '\(longAgo)'")
        let summary = try fixture.importJSON(#"[{"id":1,"title":"x"},{"id":1,"title":"a"}]"#)
        #expect(EngineFixture.counts(summary, "Item") == [0, 0, 1, 0])
        #expect(try fixture.rows("SELECT title, updated_at, changed_run FROM item") == [["'a'", "'\(longAgo)'", String(first.runID)]])
    }

    @Test func runColumnsListExactlyWhatEachRunInsertedAndChanged() throws {
        let fixture = try EngineFixture(map: markersMap)
        let first = try fixture.importJSON(#"[{"id":1,"title":"a"},{"id":2,"title":"b"},{"id":3,"title":"c"}]"#)
        let second = try fixture.importJSON(#"[{"id":1,"title":"a"},{"id":2,"title":"B"},{"id":3,"title":"c"},{"id":4,"title":"d"}]"#)
        #expect(first.runID != second.runID)
        #expect(EngineFixture.counts(second, "Item") == [1, 1, 2, 0])
        #expect(try fixture.rows("SELECT id FROM item WHERE changed_run = \(second.runID) ORDER BY id") == [["2"], ["4"]])
        #expect(try fixture.rows("SELECT id FROM item WHERE inserted_run = \(second.runID) ORDER BY id") == [["4"]])
        #expect(try fixture.rows("SELECT id FROM item WHERE changed_run = \(first.runID) ORDER BY id") == [["1"], ["3"]])
        #expect(try fixture.rows("SELECT id FROM item WHERE inserted_run = \(first.runID) ORDER BY id") == [["1"], ["2"], ["3"]])
        // A third run that changes nothing names no object.
        let third = try fixture.importJSON(#"[{"id":1,"title":"a"},{"id":4,"title":"d"}]"#)
        #expect(try fixture.value("SELECT count(*) FROM item WHERE changed_run = \(third.runID)") == "0")
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

    @Test func nullWithLiteralStoresTheLiteral() throws {
        let fixture = try EngineFixture(map: rulesMap)
        try fixture.importJSON("[\(post(#""ups":5"#))]")
        #expect(try fixture.value("SELECT score FROM post") == "5")
        let summary = try fixture.importJSON("[\(post(#""ups":null"#))]")
        #expect(EngineFixture.counts(summary, "Post") == [0, 1, 0, 0])
        #expect(try fixture.value("SELECT score FROM post") == "0")
    }

    @Test func nullKeepLeavesTheStoredValue() throws {
        let fixture = try EngineFixture(map: rulesMap)
        try fixture.importJSON("[\(post(#""bio":"hi""#))]")
        let summary = try fixture.importJSON("[\(post(#""bio":null"#))]")
        #expect(EngineFixture.counts(summary, "Post") == [0, 0, 1, 0])
        #expect(try fixture.value("SELECT bio FROM post") == "'hi'")
        let changed = try fixture.importJSON("[\(post(#""bio":"bye""#))]")
        #expect(EngineFixture.counts(changed, "Post") == [0, 1, 0, 0])
        #expect(try fixture.value("SELECT bio FROM post") == "'bye'")
    }

    @Test func nullKeepOnANewObjectLeavesItNull() throws {
        let fixture = try EngineFixture(map: rulesMap)
        try fixture.importJSON("[\(post(#""bio":null"#))]")
        #expect(try fixture.value("SELECT bio FROM post") == "NULL")
    }

    @Test(arguments: ["name", "nick"])
    func nullRejectIsAnErrorNamingTheRecordAndTheKey(attribute: String) throws {
        let fixture = try EngineFixture(map: rulesMap)
        try fixture.importJSON("[\(post(#""nick":"x""#))]")
        let before = try fixture.rows("SELECT * FROM post")
        let bad = attribute == "name" ? #"{"id":2,"name":null}"# : #"{"id":2,"name":"m","nick":null}"#
        let error = fixture.recordFailure("[\(post(#""ups":1"#)),\n\(bad)]")
        #expect(error?.recordIndex == 1)
        #expect(error?.position.line == 2)
        #expect(error?.member == "Post.\(attribute)")
        #expect(error?.path == "$[1].\(attribute)")
        #expect(error?.message == "is required but the value is null")
        #expect(try fixture.rows("SELECT * FROM post") == before)
    }

    @Test func nullStoreErasesTheStoredValue() throws {
        let fixture = try EngineFixture(map: rulesMap)
        try fixture.importJSON("[\(post(#""note":"x","plain":"y""#))]")
        let summary = try fixture.importJSON("[\(post(#""note":null,"plain":null"#))]")
        #expect(EngineFixture.counts(summary, "Post") == [0, 1, 0, 0])
        #expect(try fixture.rows("SELECT note, plain FROM post") == [["NULL", "NULL"]])
    }

    @Test func missingNullErasesTheStoredValueWhenTheKeyIsAbsent() throws {
        let fixture = try EngineFixture(map: rulesMap)
        try fixture.importJSON("[\(post(#""lang":"en""#))]")
        #expect(try fixture.value("SELECT lang FROM post") == "'en'")
        let summary = try fixture.importJSON("[\(post(""))]")
        #expect(EngineFixture.counts(summary, "Post") == [0, 1, 0, 0])
        #expect(try fixture.value("SELECT lang FROM post") == "NULL")
    }

    @Test func missingLiteralStoresTheLiteralWhenTheKeyIsAbsent() throws {
        let fixture = try EngineFixture(map: rulesMap)
        try fixture.importJSON("[\(post(""))]")
        #expect(try fixture.value("SELECT tier FROM post") == "'free'")
        try fixture.importJSON("[\(post(#""tier":"pro""#))]")
        #expect(try fixture.value("SELECT tier FROM post") == "'pro'")
        let summary = try fixture.importJSON("[\(post(""))]")
        #expect(EngineFixture.counts(summary, "Post") == [0, 1, 0, 0])
        #expect(try fixture.value("SELECT tier FROM post") == "'free'")
    }

    @Test func missingKeyKeepsTheStoredValueByDefault() throws {
        let fixture = try EngineFixture(map: rulesMap)
        try fixture.importJSON("[\(post(#""plain":"x","bio":"b","note":"n","nick":"k","ups":3"#))]")
        let summary = try fixture.importJSON("[\(post(""))]")
        // Only `lang` (missing null, already NULL) and `tier` (missing "free", already free) have rules
        // that store a value (`score`'s `missing keep` keeps it); nothing changes.
        #expect(EngineFixture.counts(summary, "Post") == [0, 0, 1, 0])
        #expect(try fixture.rows("SELECT plain, bio, note, nick, score FROM post") == [["'x'", "'b'", "'n'", "'k'", "3"]])
    }
}
