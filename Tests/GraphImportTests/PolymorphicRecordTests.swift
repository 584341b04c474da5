import GraphImport
import GraphImportStoreTestSupport
import GraphImportSchema
import Testing

/// Reddit's listing: each child says what it is; a comment's replies wrap each comment in `data`.
private let redditMap = """
    records at data.children[*] by kind
      "t3" -> Post at data
      "t1" -> Comment at data
      "more" -> ignore
    entity Post
      key id
      id : String
      title : String
    entity Comment
      key id
      id : String
      body : String
      post <- link_id : Post inverse comments
      replies <- replies.data.children : [Comment] each data inverse parent
    """

private func listing(_ children: [String]) -> String {
    #"{"kind":"Listing","data":{"after":null,"children":["# + children.joined(separator: ",") + "]}}"
}

private let post = #"{"kind":"t3","data":{"id":"p1","title":"Hello"}}"#
private let more = #"{"kind":"more","data":{"count":12,"children":["x","y"]}}"#

private func comment(_ id: String, body: String = "hi", replies: [String] = []) -> String {
    let wrapped = replies.map { #"{"kind":"t1","data":{"id":"\#($0)","body":"re","link_id":"p1"}}"# }.joined(separator: ",")
    return #"{"kind":"t1","data":{"id":"\#(id)","body":"\#(body)","link_id":"p1","replies":{"data":{"children":[\#(wrapped)]}}}}"#
}

@Suite("Polymorphic records")
struct PolymorphicRecordTests {
    @Test(arguments: StoreKind.testable)
    func eachRecordBecomesTheEntityItsKindNames(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: redditMap)
        let summary = try fixture.importJSON(listing([post, comment("c1"), more]))
        #expect(summary.records == 3)
        #expect(summary.ignoredRecords == 1)
        #expect(countsByEntity(summary)["Post"] == [1, 0, 0, 0])
        #expect(countsByEntity(summary)["Comment"] == [1, 0, 0, 0])
        #expect(try fixture.select("SELECT id, title FROM posts") == [["p1", "Hello"]])
        #expect(try fixture.select("SELECT comments.id, posts.title FROM comments JOIN posts ON posts.pk = comments.post_pk") == [["c1", "Hello"]])
    }

    @Test(arguments: StoreKind.testable)
    func ignoredRecordsWriteNothing(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: redditMap)
        let summary = try fixture.importJSON(listing([more, more]))
        #expect(summary.records == 2)
        #expect(summary.ignoredRecords == 2)
        #expect(!summary.changed)
        #expect(try fixture.select("SELECT (SELECT count(*) FROM posts), (SELECT count(*) FROM comments)") == [["0", "0"]])
    }

    @Test(arguments: StoreKind.testable)
    func eachElementPathFindsTheObjectsOfAToMany(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: redditMap)
        let summary = try fixture.importJSON(listing([post, comment("c1", replies: ["c2", "c3"])]))
        #expect(countsByEntity(summary)["Comment"] == [3, 0, 0, 0])
        #expect(
            try fixture.select(
                """
                SELECT reply.id, reply.body FROM comments
                JOIN comments_replies ON comments_replies.comments_pk = comments.pk
                JOIN comments reply ON reply.pk = comments_replies.replies_pk
                WHERE comments.id = 'c1' ORDER BY position
                """) == [["c2", "re"], ["c3", "re"]])
    }

    @Test(arguments: StoreKind.testable)
    func elementWithoutTheEachPathIsAnError(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: redditMap)
        let bad = #"{"kind":"t1","data":{"id":"c1","body":"b","link_id":"p1","replies":{"data":{"children":[{"id":"c2"}]}}}}"#
        let error = fixture.recordFailure(listing([bad]))
        #expect(error?.member == "Comment.replies")
        #expect(error?.message == "expected an object with 'data' in each element, found an object")
        #expect(error?.path == "$.data.children[0].data.replies.data.children[0]")
    }

    @Test(arguments: StoreKind.testable)
    func kindWithoutACaseIsAnErrorNamingTheValueAndTheKnownCases(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: redditMap)
        let error = fixture.recordFailure(listing([post, #"{"kind":"t5","data":{"id":"s1"}}"#]))
        #expect(error?.recordIndex == 1)
        #expect(error?.path == "$.data.children[1].kind")
        #expect(error?.member == nil)
        #expect(error?.message == "no rule of the map for kind = 't5'")
        #expect(
            error?.hint
                == #"the map knows "t3", "t1", "more"; add a case line for it, or `else -> ignore` to skip every record whose value no case names"#
        )
        #expect(try fixture.holdsNoData())
    }

    @Test(arguments: StoreKind.testable)
    func recordWithoutTheDiscriminatorIsAnError(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: redditMap)
        let error = fixture.recordFailure(listing([#"{"data":{"id":"p1","title":"x"}}"#]))
        #expect(error?.message == "the record has no 'kind' to choose its entity by")
    }

    /// `else -> ignore` says in the map what the docs once promised by default: other kinds are passed over.
    @Test(arguments: StoreKind.testable)
    func elseIgnoreCasePassesOverEveryKindNoCaseNames(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: redditMap.replacing("\"more\" -> ignore", with: "else -> ignore"))
        let summary = try fixture.importJSON(listing([#"{"kind":"t5","data":{}}"#, post, more, #"{"kind":null}"#]))
        #expect(summary.records == 4)
        #expect(summary.ignoredRecords == 3)
        #expect(summary.skippedRecords == 0)
        #expect(countsByEntity(summary)["Post"] == [1, 0, 0, 0])
    }

    @Test(arguments: StoreKind.testable)
    func elseCaseCanNameAnEntity(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: redditMap.replacing("\"more\" -> ignore", with: "else -> Post at data"))
        let summary = try fixture.importJSON(listing([#"{"kind":"t9","data":{"id":"p9","title":"x"}}"#]))
        #expect(countsByEntity(summary)["Post"] == [1, 0, 0, 0])
    }

    @Test(arguments: StoreKind.testable)
    func elseCaseDoesNotCoverARecordWithoutTheDiscriminator(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: redditMap.replacing("\"more\" -> ignore", with: "else -> ignore"))
        let error = fixture.recordFailure(listing([#"{"data":{"id":"p1","title":"x"}}"#]))
        #expect(error?.message == "the record has no 'kind' to choose its entity by")
    }

    @Test(arguments: StoreKind.testable)
    func kindWithoutACaseIsSkippedUnderSkipInvalid(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: redditMap)
        var skipped: [RecordError] = []
        let summary = try fixture.importJSON(
            listing([#"{"kind":"t5","data":{}}"#, post, comment("c1")]), options: ImportOptions(skipInvalid: true),
            onSkip: { skipped.append($0) })
        #expect(summary.skippedRecords == 1)
        #expect(skipped.map(\.recordIndex) == [0])
        #expect(try fixture.value("SELECT count(*) FROM comments") == "1")
    }

    /// A record whose kind names Comment is a Comment record, so dropping it counts as a skipped Comment.
    @Test(arguments: StoreKind.testable)
    func skippedRecordOfAKnownKindCountsForItsEntity(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: redditMap)
        let bad = #"{"kind":"t1","data":{"id":"c9","body":5,"link_id":"p1"}}"#
        let summary = try fixture.importJSON(listing([post, bad, comment("c1")]), options: ImportOptions(skipInvalid: true))
        #expect(summary.skippedRecords == 1)
        #expect(countsByEntity(summary)["Comment"] == [1, 0, 0, 1])
        #expect(countsByEntity(summary)["Post"] == [1, 0, 0, 0])
    }

    @Test(arguments: StoreKind.testable)
    func caseWhoseObjectIsAbsentIsAnError(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: redditMap)
        let error = fixture.recordFailure(listing([#"{"kind":"t3"}"#]))
        #expect(error?.message == "the record has nothing at 'data' for Post")
    }

    @Test(arguments: StoreKind.testable)
    func integerAndBooleanCasesAndCasesWithoutSubpath(_ kind: StoreKind) throws {
        let fixture = try MappedStore(
            kind,
            map: """
                records at $[*] by type
                  1 -> Cat
                  2 -> Dog at pet
                  true -> ignore
                entity Cat
                  key name
                  name : String
                entity Dog
                  key name
                  name : String
                """)
        let summary = try fixture.importJSON(#"[{"type":1,"name":"Tom"},{"type":2,"pet":{"name":"Rex"}},{"type":true},{"type":1.0,"name":"Kit"}]"#)
        #expect(summary.ignoredRecords == 1)
        #expect(try fixture.select("SELECT name FROM cats ORDER BY name") == [["Kit"], ["Tom"]])
        #expect(try fixture.select("SELECT name FROM dogs") == [["Rex"]])
        // "1" is text, not the integer 1.
        let error = fixture.recordFailure(#"[{"type":"1","name":"Tom"}]"#)
        #expect(error?.message == "no rule of the map for type = '1'")
    }
}
