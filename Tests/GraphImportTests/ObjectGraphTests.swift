import Foundation
@testable import GraphImport
import GraphImportJSON
import GraphImportSchema
import GraphImportStoreTestSupport
import Testing

/// A small social graph: tweets by users, with hashtags, both relationships named from the other side.
let graphMap = """
    records at $[*] as Tweet
    entity Tweet
      key id
      id : Int
      text : String
      lang : String?
      createdAt <- created_at : Date | iso8601
      sensitive : Bool?
      score : Double?
      author <- user : User inverse tweets
      hashtags <- tags : [Hashtag] inverse tweets
    entity User
      key id
      id : Int
      handle : String
    entity Hashtag
      key text
      text : String
    """

let graphFeed = """
    [{"id": 1, "text": "hello", "lang": "en", "created_at": "2024-05-01T10:00:00Z", "sensitive": false, "score": 1.5,
      "user": {"id": 7, "handle": "ann"}, "tags": ["swift", "sqlite"]},
     {"id": 2, "text": "bonjour", "lang": "fr", "created_at": "2024-05-02T10:00:00Z", "user": {"id": 7, "handle": "ann"}, "tags": ["swift"]},
     {"id": 3, "text": "hi again", "lang": "en", "created_at": "2024-05-03T10:00:00Z", "user": {"id": 8, "handle": "bob"}, "tags": []}]
    """

/// Runs `body` on a store of `kind` imported from `feed`, opened as a graph; the store lives
/// until `body` returns.
func withGraph(on kind: StoreKind, map: String = graphMap, feed: String = graphFeed, _ body: (ObjectGraph) throws -> Void) throws {
    let plan = try ImportPlan.compile(text: map, fileName: "test.map")
    let store = try StoreUnderTest(kind)
    _ = try store.importJSON(feed, plan: plan).get()
    try withExtendedLifetime(store) { try body(try ObjectGraph(store: store.location, plan: plan)) }
}

@Suite("Read API: fetching and attributes")
struct ObjectGraphFetchTests {
    @Test(arguments: StoreKind.testable) func fetchesOneObjectByKeyAndReadsItsAttributesByName(_ kind: StoreKind) throws {
        try withGraph(on: kind) { graph throws in
            let tweet = try #require(try graph.object("Tweet", key: 1))
            #expect(tweet.entity == "Tweet")
            #expect(try tweet["text"] == .text("hello"))
            #expect(try tweet.string("text") == "hello")
            #expect(try tweet.int("id") == 1)
            #expect(try tweet.bool("sensitive") == false)
            #expect(try tweet.double("score") == 1.5)
            #expect(try tweet.date("createdAt") == Date(timeIntervalSince1970: 1_714_557_600))
            #expect(tweet.key == [.integer(1)])
            #expect(tweet.insertedRun == 1 && tweet.changedRun == 1)
            #expect(try graph.object("Tweet", key: 99) == nil)
            #expect(try graph.object("Hashtag", key: "swift")?.string("text") == "swift")
        }
    }

    @Test(arguments: StoreKind.testable) func anAbsentValueIsNilAndAnotherTypeIsAnError(_ kind: StoreKind) throws {
        try withGraph(on: kind) { graph throws in
            let tweet = try #require(try graph.object("Tweet", key: 2))
            #expect(try tweet.bool("sensitive") == nil)
            #expect(try tweet["sensitive"] == .null)
            #expect(throws: GraphError(.misuse, "Tweet.text is String, not an Int")) { try tweet.int("text") }
        }
    }

    @Test(arguments: StoreKind.testable) func fetchesManyByAConditionSortedAndLimited(_ kind: StoreKind) throws {
        try withGraph(on: kind) { graph throws in
            let english = try graph.objects("Tweet", where: .equals("lang", "en"), sortedBy: [.descending("createdAt")])
            #expect(english.map(\.key) == [[.integer(3)], [.integer(1)]])
            let first = try graph.objects("Tweet", sortedBy: [.ascending("createdAt")], limit: 2)
            #expect(try first.map { try $0.int("id") } == [1, 2])
            let either = try graph.objects("Tweet", where: .or([.hasPrefix("text", "hi"), .in("lang", ["fr"])]))
            #expect(try either.map { try $0.int("id") } == [2, 3])
            let after = try graph.objects("Tweet", where: .and([.greaterThan("createdAt", Date(timeIntervalSince1970: 1_714_600_000)), .not(.isNull("lang"))]))
            #expect(try after.map { try $0.int("id") } == [2, 3])
            #expect(try graph.objects("Tweet", where: .contains("text", "again")).count == 1)
            #expect(try graph.objects("Tweet", where: .equals("sensitive", false)).count == 1)
        }
    }

    /// One dialect: the SQL text a condition compiles to for SQLite, no store.
    @Test func conditionsCompileToSQLWithBoundValues() throws {
        let condition = Condition.and([.equals("lang", "en"), .or([.hasPrefix("text", "Hi"), .isNull("lang")]), .in("id", [Int]())])
        let compiled = try CompiledCondition(condition, dialect: .sqlite) { name throws(GraphError) in ConditionTerm(column: "\"\(name)\"", described: name) }
        #expect(compiled.sql == #"("lang" = ? AND (substr("text", 1, CAST(? AS INTEGER)) = ? OR "lang" IS NULL) AND 1 = 0)"#)
        #expect(compiled.values == [.text("en"), .integer(2), .text("Hi")])
    }

    @Test(arguments: StoreKind.testable) func hostileTextInAConditionIsBoundNeverExecuted(_ kind: StoreKind) throws {
        try withGraph(on: kind) { graph throws in
            for hostile in ["'; DROP TABLE tweet; --", "en' OR '1'='1", "\"); DELETE FROM user; --"] {
                #expect(try graph.objects("Tweet", where: .equals("lang", hostile)).isEmpty)
                #expect(try graph.objects("Tweet", where: .hasPrefix("text", hostile)).isEmpty)
            }
            #expect(try graph.objects("Tweet").count == 3)
            #expect(try graph.objects("User").count == 2)
            // A hostile name is not a column: it is refused before any SQL is made.
            #expect(throws: GraphError.self) { try graph.objects("Tweet", where: .equals("lang\" = 'en' OR 1 = 1; --", "x")) }
        }
    }

    @Test(arguments: StoreKind.testable) func hostileTextStoredAsAValueIsFoundByEqualityAndDropsNothing(_ kind: StoreKind) throws {
        let hostile = "'; DROP TABLE tweet; --"
        let feed = #"[{"id": 9, "text": "\#(hostile)", "created_at": "2024-05-01T10:00:00Z", "user": {"id": 7, "handle": "ann"}}]"#
        try withGraph(on: kind, feed: feed) { graph throws in
            #expect(try graph.objects("Tweet", where: .equals("text", hostile)).map(\.key) == [[.integer(9)]])
            #expect(try graph.objects("Tweet", where: .contains("text", "DROP TABLE")).count == 1)
            #expect(try graph.objects("Tweet").count == 1)
        }
    }

    /// One store: a SQLite file opened by its URL, and a file that is not there.
    @Test func opensAStoreWithTheMapFileBesideIt() throws {
        let fixture = try EngineFixture(map: graphMap)
        try fixture.importJSON(graphFeed)
        let map = fixture.directory.write("tweets.map", graphMap)
        let graph = try ObjectGraph(store: URL(fileURLWithPath: fixture.storePath), map: URL(fileURLWithPath: map))
        #expect(try graph.objects("User").count == 2)
        #expect(throws: GraphError.self) { try ObjectGraph(store: fixture.directory.path("none.sqlite"), plan: fixture.plan) }
    }

    @Test(arguments: StoreKind.testable)
    func aMapAheadOfTheStoreReadsWhatTheStoreHasYet(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: graphMap)
        try fixture.importJSON(graphFeed)
        // The map gained an attribute, a to-many and an entity that no import has stored yet.
        let newer =
            graphMap.replacingOccurrences(of: "  handle : String\n", with: "  handle : String\n  bio : String?\n  pinned : [Tweet]\n")
            + "\nentity Place\n  key id\n  id : Int\n"
        let graph = try ObjectGraph(store: fixture.store.location, plan: try ImportPlan.compile(text: newer, fileName: "newer.map"))
        let ann = try #require(try graph.object("User", key: 7))
        #expect(try ann["bio"] == .null)
        #expect(try ann.related("pinned").isEmpty)
        #expect(try ann.related("tweets").count == 2)
        #expect(try graph.objects("User", where: .equals("bio", "x")).isEmpty)
        #expect(try graph.objects("Place").isEmpty)
        var count = 0
        try graph.changes(since: 0) { _ in count += 1 }
        #expect(count == 3 + 2 + 2)
    }

    @Test(arguments: StoreKind.testable) func unknownNamesAreErrorsThatSuggestTheClosest(_ kind: StoreKind) throws {
        try withGraph(on: kind) { graph throws in
            #expect(throws: GraphError(.unknownName, "the map test.map has no entity 'Tweets'", hint: "did you mean 'Tweet'?")) {
                try graph.objects("Tweets")
            }
            #expect(throws: GraphError(.unknownName, "Tweet has no attribute or to-one relationship 'lamg'", hint: "did you mean 'lang'?")) {
                try graph.objects("Tweet", where: .equals("lamg", "en"))
            }
            #expect(throws: GraphError(.unknownName, "Tweet has no attribute 'createdOn'", hint: "did you mean 'createdAt'?")) {
                try graph.objects("Tweet", sortedBy: [.ascending("createdOn")])
            }
            let tweet = try #require(try graph.object("Tweet", key: 1))
            #expect(throws: GraphError(.unknownName, "Tweet has no relationship 'autor'", hint: "did you mean 'author'?")) { try tweet.related("autor") }
            #expect(throws: GraphError(.unknownName, "Tweet has no attribute 'txt'", hint: "did you mean 'text'?")) { try tweet["txt"] }
            #expect(throws: GraphError(.misuse, "Tweet.author is a relationship, not an attribute", hint: "follow it with related(\"author\")")) {
                try tweet.value("author")
            }
            #expect(throws: GraphError(.misuse, "Tweet is keyed by 1 value (id); 2 given")) { try graph.object("Tweet", key: 1, 2) }
        }
    }
}

@Suite("Read API: relationships and decoding")
struct ObjectGraphRelationshipTests {
    @Test(arguments: StoreKind.testable) func followsToOneToManyInOrderAndInverseNames(_ kind: StoreKind) throws {
        try withGraph(on: kind) { graph throws in
            let tweet = try #require(try graph.object("Tweet", key: 1))
            let author = try #require(try tweet.relatedObject("author"))
            #expect(try author.string("handle") == "ann")
            #expect(try tweet.related("hashtags").map { try $0.string("text") } == ["swift", "sqlite"])
            // The inverse names: a user's tweets, a hashtag's tweets.
            #expect(try author.related("tweets").map { try $0.int("id") } == [1, 2])
            let swift = try #require(try graph.object("Hashtag", key: "swift"))
            #expect(try swift.related("tweets").map { try $0.int("id") } == [1, 2])
            #expect(try graph.object("Hashtag", key: "sqlite")?.related("tweets").count == 1)
            #expect(throws: GraphError(.misuse, "Tweet.hashtags leads to many objects, not one", hint: "follow it with related(\"hashtags\")")) {
                try tweet.relatedObject("hashtags")
            }
        }
    }

    struct TweetView: Decodable {
        var id: Int
        var text: String
        var createdAt: Date
        var sensitive: Bool?
        var author: UserView?
        var hashtags: [TagView]?
    }

    struct UserView: Decodable {
        var handle: String
        var tweets: [TweetView]?
    }

    struct TagView: Decodable, Equatable {
        var text: String
    }

    @Test(arguments: StoreKind.testable) func decodesIntoSwiftTypesToADepthThroughCycles(_ kind: StoreKind) throws {
        try withGraph(on: kind) { graph throws in
            let tweet = try #require(try graph.object("Tweet", key: 1))
            let flat = try tweet.decode(TweetView.self)
            #expect(flat.id == 1 && flat.text == "hello" && flat.sensitive == false && flat.author == nil)
            #expect(flat.createdAt == Date(timeIntervalSince1970: 1_714_557_600))
            // Tweet -> author -> tweets -> (author left out at the depth): the cycle ends.
            let deep = try tweet.decode(TweetView.self, depth: 2)
            #expect(deep.hashtags == [TagView(text: "swift"), TagView(text: "sqlite")])
            #expect(deep.author?.handle == "ann")
            #expect(deep.author?.tweets?.map(\.id) == [1, 2])
            #expect(deep.author?.tweets?.first?.author == nil)
        }
    }

    @Test(arguments: StoreKind.testable) func aTypeTheObjectDoesNotFitIsADecodingError(_ kind: StoreKind) throws {
        struct Wrong: Decodable { var id: String }
        try withGraph(on: kind) { graph throws in
            let tweet = try #require(try graph.object("Tweet", key: 1))
            let error = try #require(throws: GraphError.self) { try tweet.decode(Wrong.self) }
            #expect(error.kind == .decoding)
            #expect(error.message.hasPrefix("Tweet 1 does not decode as Wrong: "))
        }
    }
}
