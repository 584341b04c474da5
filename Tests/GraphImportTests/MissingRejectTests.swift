import GraphImport
import GraphImportStoreTestSupport
import Testing

/// `missing reject`: a key the map says every object must have.
@Suite("missing reject")
struct MissingRejectTests {
    static let map = """
        records at $[*] as Post
        entity Post
          key id
          id : Int
          lang : String? missing reject
          author <- user : User
        entity User
          key id
          id : Int
          handle : String missing reject
        """

    @Test(arguments: StoreKind.testable)
    func anObjectWithoutTheKeyIsARecordErrorNamingItsPath(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.map)
        let error = fixture.recordFailure(#"[{"id":1,"lang":"en","user":{"id":7,"handle":"a"}},{"id":2,"lang":null,"user":{"id":8}}]"#)
        #expect(error?.recordIndex == 1)
        #expect(error?.member == "User.handle")
        #expect(error?.message == "the object has no 'handle'")
        #expect(error?.path == "$[1].user.handle")
        #expect(error?.hint == "the map's `missing reject` requires the key in every object: add it to the feed, or change the rule")
        #expect(try fixture.holdsNoData())
    }

    /// Stored objects are no exception: the rule is about the feed, not about what the store holds.
    @Test(arguments: StoreKind.testable)
    func appliesToAnUpdateAndAnOptionalAttributeToo(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.map)
        try fixture.importJSON(#"[{"id":1,"lang":"en","user":{"id":7,"handle":"a"}}]"#)
        let error = fixture.recordFailure(#"[{"id":1,"user":{"id":7,"handle":"a"}}]"#)
        #expect(error?.member == "Post.lang")
        #expect(try fixture.value("SELECT lang FROM posts") == "en")
    }

    @Test(arguments: StoreKind.testable)
    func isSkippedUnderSkipInvalid(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.map)
        let feed = #"[{"id":1,"lang":"en","user":{"id":7,"handle":"a"}},{"id":2,"user":{"id":8,"handle":"b"}}]"#
        var skipped: [RecordError] = []
        let summary = try fixture.importJSON(feed, options: ImportOptions(skipInvalid: true), onSkip: { skipped.append($0) })
        #expect(skipped.map(\.member) == ["Post.lang"])
        #expect(countsByEntity(summary)["Post"] == [1, 0, 0, 1])
        #expect(try fixture.select("SELECT id FROM \"users\"") == [["7"]])
    }
}
