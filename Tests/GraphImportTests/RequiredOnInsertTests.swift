import GraphImport
import GraphImportStoreTestSupport
import Testing

/// A required attribute (`: Type`, no `?`) whose key a new object lacks: a record error, as Core
/// Data refuses a nil non-optional at save; a stored object keeps its value. The same on both
/// stores: each store says what it holds (`StoredObjectsView`) and the check is
/// `RequiredValuesCheck`, so every case runs against both.
@Suite("Required attributes of new objects")
struct RequiredOnInsertTests {
    static func map(followers: String = "Int") -> String {
        """
        records at $[*] as Tweet
        entity Tweet
          key id
          id : Int
          text : String
          author <- user : User
          mentions <- mentioned : [User]
          tags : [Tag]
          replyTo <- in_reply_to : Tweet?
        entity User
          key id
          id : Int
          handle : String
          followers <- followers_count : \(followers)
        entity Tag
          key name
          name : String
        """
    }

    static let hint =
        "add it to the feed, make the attribute optional (`: Int?`), or give it a `default` or a `missing` rule "
        + "(`missing keep` lets a new object start without it)"

    @Test(arguments: StoreKind.testable)
    func newObjectWithoutTheKeyIsARecordErrorWithItsPath(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.map())
        let feed = """
            [{"id":1,"text":"a","user":{"id":7,"handle":"a","followers_count":3}},
             {"id":2,"text":"b","user":{"id":8,"handle":"b"}}]
            """
        let error = fixture.recordFailure(feed)
        #expect(error?.recordIndex == 1)
        #expect(error?.position.line == 2)
        #expect(error?.position.column == 2)
        #expect(error?.member == "User.followers")
        #expect(error?.message == "is required, and this new User has no 'followers_count'")
        #expect(error?.path == "$[1].user.followers_count")
        #expect(error?.hint == Self.hint)
        #expect(try fixture.holdsNoData())
    }

    @Test(arguments: StoreKind.testable)
    func refusedImportLeavesTheStoreAsItWas(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.map())
        try fixture.importJSON(#"[{"id":1,"text":"a","user":{"id":7,"handle":"a","followers_count":3}}]"#)
        let before = try fixture.rows()
        let error = fixture.recordFailure(#"[{"id":2,"text":"b","user":{"id":7,"handle":"a2"}},{"id":3,"text":"c","user":{"id":8,"handle":"b"}}]"#)
        #expect(error?.member == "User.followers")
        #expect(try fixture.rows() == before)
    }

    @Test(arguments: StoreKind.testable)
    func storedObjectWithoutTheKeyKeepsItsValue(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.map())
        try fixture.importJSON(#"[{"id":1,"text":"a","user":{"id":7,"handle":"a","followers_count":3}}]"#)
        let summary = try fixture.importJSON(#"[{"id":2,"text":"b","user":{"id":7,"handle":"a2"}}]"#)
        #expect(countsByEntity(summary)["User"] == [0, 1, 0, 0])
        #expect(try fixture.select(#"SELECT handle, followers FROM "users""#) == [["a2", "3"]])
    }

    /// In batches of one on PostgreSQL, the object met earlier is in the table, not the batch.
    @Test(arguments: StoreKind.testable, [1, 5000])
    func objectMetEarlierInTheRunKeepsItsValue(_ kind: StoreKind, batchSize: Int) throws {
        let fixture = try MappedStore(kind, map: Self.map(), batchSize: batchSize)
        try fixture.importJSON(
            #"[{"id":1,"text":"a","user":{"id":7,"handle":"a","followers_count":3}},{"id":2,"text":"b","mentioned":[{"id":7,"handle":"a"}]}]"#)
        #expect(try fixture.select(#"SELECT id, followers FROM "users""#) == [["7", "3"]])
        #expect(try fixture.value("SELECT count(*) FROM tweets") == "2")
    }

    @Test(arguments: StoreKind.testable)
    func secondOccurrenceInOneRecordMayLackWhatTheFirstGave(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.map())
        // The author is written before the mentions: the mention of the same user finds it.
        try fixture.importJSON(#"[{"id":1,"text":"a","user":{"id":7,"handle":"a","followers_count":3},"mentioned":[{"id":7,"handle":"a"}]}]"#)
        #expect(try fixture.select(#"SELECT id, followers FROM "users""#) == [["7", "3"]])
    }

    /// The record is written as a whole: a value a later occurrence gives is there at its end.
    @Test(arguments: StoreKind.testable)
    func aLaterOccurrenceInTheRecordMayGiveTheValue(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.map())
        try fixture.importJSON(#"[{"id":1,"text":"a","user":{"id":7,"handle":"a"},"mentioned":[{"id":7,"handle":"a","followers_count":3}]}]"#)
        #expect(try fixture.select(#"SELECT id, followers FROM "users""#) == [["7", "3"]])
    }

    @Test(arguments: StoreKind.testable)
    func nestedNewObjectRefusesItsWholeRecord(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.map())
        let error = fixture.recordFailure(
            #"[{"id":1,"text":"a","user":{"id":7,"handle":"a","followers_count":3},"mentioned":[{"id":9,"handle":"m"}]}]"#)
        #expect(error?.member == "User.followers")
        #expect(error?.path == "$[0].mentioned[0].followers_count")
        #expect(try fixture.holdsNoData())
    }

    @Test(arguments: StoreKind.testable)
    func skipInvalidSkipsTheRecordAndWritesNothingOfIt(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.map())
        let feed = """
            [{"id":1,"text":"a","user":{"id":7,"handle":"a","followers_count":3}},
             {"id":2,"text":"b","user":{"id":8,"handle":"b","followers_count":1},"tags":[{"name":"t"}],"in_reply_to":99,
              "mentioned":[{"id":9,"handle":"m"}]},
             {"id":3,"text":"c","user":{"id":7,"handle":"a"}}]
            """
        var skipped: [RecordError] = []
        let summary = try fixture.importJSON(feed, options: ImportOptions(skipInvalid: true), onSkip: { skipped.append($0) })
        #expect(skipped.map(\.member) == ["User.followers"])
        #expect(skipped.map(\.path) == ["$[1].mentioned[0].followers_count"])
        #expect(countsByEntity(summary)["Tweet"] == [2, 0, 0, 1])
        // Neither the record's author, its tag, nor the stub of the tweet it replies to.
        #expect(try fixture.select("SELECT id FROM tweets ORDER BY id") == [["1"], ["3"]])
        #expect(try fixture.select(#"SELECT id, followers FROM "users" ORDER BY id"#) == [["7", "3"]])
        #expect(try fixture.value("SELECT count(*) FROM tags") == "0")
    }

    @Test(
        arguments: StoreKind.testable,
        [
            ("Int default 0", "0"), ("Int missing keep", "NULL"), ("Int missing 5", "5"), ("Int?", "NULL"), ("Int? missing null", "NULL"),
            ("Int null keep", "NULL"),
        ])
    func aRuleOrAnOptionalTypeLetsANewObjectStartWithout(_ kind: StoreKind, rule: (type: String, stored: String)) throws {
        let fixture = try MappedStore(kind, map: Self.map(followers: rule.type))
        try fixture.importJSON(#"[{"id":1,"text":"a","user":{"id":7,"handle":"a"}}]"#)
        #expect(try fixture.select("SELECT id, followers FROM users") == [["7", rule.stored]])
    }

    @Test(arguments: StoreKind.testable)
    func aReferenceStillMakesAStub(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.map())
        let summary = try fixture.importJSON(#"[{"id":1,"text":"a","user":7,"in_reply_to":99}]"#)
        #expect(countsByEntity(summary)["Tweet"] == [2, 0, 0, 0])
        #expect(try fixture.select("SELECT id, text FROM tweets ORDER BY id") == [["1", "a"], ["99", "NULL"]])
        #expect(try fixture.select(#"SELECT id, handle, followers FROM "users""#) == [["7", "NULL", "NULL"]])
    }

    /// A stub made earlier in the record is the object a later occurrence updates.
    @Test(arguments: StoreKind.testable)
    func anObjectTheRecordStubbedEarlierIsNotNew(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.map())
        try fixture.importJSON(#"[{"id":1,"text":"a","user":7,"mentioned":[{"id":7,"handle":"a"}]}]"#)
        #expect(try fixture.select(#"SELECT id, handle, followers FROM "users""#) == [["7", "a", "NULL"]])
    }

    /// The hook may set the value, as `awakeFromInsert` may in Core Data.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func anOnInsertHookMayGiveTheValue(_ kind: StoreKind, batchSize: Int) throws {
        let fixture = try MappedStore(kind, map: Self.map(), batchSize: batchSize)
        var hooks = ImportHooks()
        hooks.onInsert["User"] = { user in user["followers"] = .integer(0) }
        try fixture.run(#"[{"id":1,"text":"a","user":{"id":7,"handle":"a"}}]"#, hooks: hooks)
        #expect(try fixture.select(#"SELECT id, followers FROM "users""#) == [["7", "0"]])
    }

    /// A record a `beforeSave` hook refuses is skipped whole under `--skip-invalid` (SQLite writes
    /// it inside a savepoint, PostgreSQL decides before gathering it): a stub it made goes too.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func skipInvalidWithHooksSkipsTheRecord(_ kind: StoreKind, batchSize: Int) throws {
        let fixture = try MappedStore(kind, map: Self.map(), batchSize: batchSize)
        var hooks = ImportHooks()
        hooks.beforeSave["Tweet"] = refusesEmptyText
        let feed = #"[{"id":1,"text":"a","user":{"id":8,"handle":"b","followers_count":1},"mentioned":[{"id":9,"handle":"m"}]},{"id":2,"text":"b","user":8}]"#
        let summary = try fixture.run(feed, hooks: hooks, options: ImportOptions(skipInvalid: true))
        #expect(countsByEntity(summary)["Tweet"] == [1, 0, 0, 1])
        #expect(try fixture.select(#"SELECT id, handle, followers FROM "users""#) == [["8", "NULL", "NULL"]])
    }
}

/// A `beforeSave` hook: none of the feeds above has an empty text.
private let refusesEmptyText: @Sendable (ObjectValues) throws(HookFailure) -> Void = { tweet throws(HookFailure) in
    if tweet["text"] == .text("") { throw HookFailure("empty text") }
}
