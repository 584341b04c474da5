@testable import GraphImport
import GraphImportJSON
import GraphImportTestSupport
import Testing

/// `graphimport init`'s drafting, on small shapes: what the draft says, and that it passes the
/// sample check and imports its own sample unchanged.
@Suite("Drafting a map from a sample")
struct MapDraftingTests {
    /// Drafts a map from `json`, then checks it against the sample (no warning) and imports the
    /// sample into a temporary store (every record in): the promise `init` makes.
    /// One store: the draft is what is under test, and SQLite imports it; `DraftReimportTests`
    /// imports drafts into both stores.
    @discardableResult
    static func drafted(
        _ json: String, entity: String? = nil, sampleName: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (draft: MapDraft, fixture: EngineFixture) {
        let draft = try MapDrafter.draft(source: BytesSource(Array(json.utf8)), entity: entity, sampleName: sampleName)
        let fixture = try EngineFixture(map: draft.text)
        let report = try SampleCheck(plan: fixture.plan).run(source: BytesSource(Array(json.utf8)))
        #expect(report.diagnostics.map(\.description) == [], "\(draft.text)", sourceLocation: sourceLocation)
        let summary = try fixture.importJSON(json)
        #expect(summary.records == draft.records, "\(draft.text)", sourceLocation: sourceLocation)
        #expect(summary.skippedRecords == 0, sourceLocation: sourceLocation)
        return (draft, fixture)
    }

    /// The draft's lines without their alignment, so that a test reads `name <- path : Type`.
    static func lines(_ draft: MapDraft) -> [String] {
        draft.text.split(separator: "\n").map { line in
            line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
    }

    @Test func topLevelArrayMergesWhatEveryRecordShows() throws {
        let (draft, _) = try Self.drafted(
            #"[{"id": 1, "name": "a"}, {"id": 2, "name": "b", "done": true}]"#, entity: "Task")
        let lines = Self.lines(draft)
        #expect(lines.contains("records at $[*] as Task"))
        #expect(lines.contains("key id"))
        #expect(lines.contains("id : Int"))
        #expect(lines.contains("name : String"))
        // Only the second record has it: read from every record, optional.
        #expect(lines.contains("done : Bool?"))
        #expect(draft.entities == ["Task"])
    }

    @Test func jsonLinesAreRecordsOneALine() throws {
        let (draft, fixture) = try Self.drafted("{\"id\": \"a\"}\n{\"id\": \"b\", \"score\": 1.5}\n{\"id\": \"c\", \"score\": 2}\n", sampleName: "scores.jsonl")
        let lines = Self.lines(draft)
        #expect(lines.contains("records at $[*] as Score"))
        #expect(lines.contains("score : Double?"))
        #expect(try fixture.value("SELECT group_concat(id) FROM (SELECT id FROM scores ORDER BY id)") == "'a,b,c'")
    }

    @Test func wrappedResponseFindsTheRecordsAndOffersItsScalarsAsMeta() throws {
        let json = #"{"meta": {"next_token": "abc", "result_count": 2}, "statuses": [{"id": 1}, {"id": 2}]}"#
        let (draft, _) = try Self.drafted(json)
        let lines = Self.lines(draft)
        #expect(lines.contains("records at statuses[*] as Status"))
        #expect(lines.contains("# meta nextToken <- meta.next_token : String?"))
        #expect(lines.contains("# meta resultCount <- meta.result_count : Int?"))
        #expect(draft.records == 2)
    }

    @Test func listingsWithoutIdsAreWalkedToTheKeyedObjects() throws {
        let json =
            #"[{"kind": "Listing", "data": {"children": [{"kind": "t3", "data": {"id": "p1"}}]}}, {"kind": "Listing", "data": {"children": [{"kind": "t1", "data": {"id": "c1"}}, {"kind": "t1", "data": {"id": "c2"}}]}}]"#
        let (draft, _) = try Self.drafted(json, entity: "Thing")
        #expect(Self.lines(draft).contains("records at $[*].data.children[*].data as Thing"))
        #expect(draft.records == 3)
    }

    @Test func nestedObjectsBecomeToOneArraysToManyAndStringsValueEntities() throws {
        let json = """
            [{"id": 1, "author": {"id": 10, "login": "x"}, "comments": [{"id": 100, "body": "hi"}, {"id": 101, "body": "yo"}],
              "tags": ["swift", "sqlite"]},
             {"id": 2, "author": {"id": 10, "login": "x"}, "comments": [], "tags": ["swift"]}]
            """
        let (draft, fixture) = try Self.drafted(json, entity: "Post")
        let lines = Self.lines(draft)
        #expect(lines.contains("author : Author"))
        #expect(lines.contains("comments : [Comment]"))
        #expect(lines.contains("tags : [Tag] # strings: one Tag per value"))
        #expect(lines.contains("entity Tag table tags"))
        #expect(lines.contains("value <- $ : String"))
        #expect(draft.entities == ["Post", "Author", "Comment", "Tag"])
        #expect(try fixture.value("SELECT count(*) FROM authors") == "1")
        #expect(try fixture.value("SELECT group_concat(value) FROM (SELECT value FROM tags ORDER BY value)") == "'sqlite,swift'")
        #expect(try fixture.value("SELECT count(*) FROM posts_comments") == "2")
    }

    @Test func theSameShapeMetInTwoPlacesIsOneEntity() throws {
        let json = """
            [{"id": 1, "text": "hi", "user": {"id": 7, "screen_name": "ann", "name": "Ann", "followers": 3},
              "entities": {"user_mentions": [{"id": 8, "screen_name": "bob", "name": "Bob"}]},
              "retweeted_status": {"id": 2, "text": "yo", "user": {"id": 8, "screen_name": "bob", "name": "Bob", "followers": 1},
                                   "entities": {"user_mentions": []}}}]
            """
        let (draft, fixture) = try Self.drafted(json, entity: "Tweet")
        let lines = Self.lines(draft)
        #expect(draft.entities == ["Tweet", "User"])
        #expect(lines.contains("retweetedStatus <- retweeted_status : Tweet?"))
        #expect(lines.contains("userMentions <- entities.user_mentions : [User]"))
        #expect(lines.contains("user : User"))
        #expect(try fixture.value("SELECT count(*) FROM tweets") == "2")
        #expect(try fixture.value("SELECT group_concat(screen_name) FROM (SELECT screen_name FROM users ORDER BY id)") == "'ann,bob'")
    }

    @Test func integersBeyondTwoToThe53StayIntAndExact() throws {
        let (draft, fixture) = try Self.drafted(#"[{"id": 1234567890123456789}, {"id": 9007199254740993}]"#, entity: "Item")
        #expect(Self.lines(draft).contains("id : Int # beyond 2^53: Int keeps every digit"))
        #expect(try fixture.value("SELECT max(id) FROM items") == "1234567890123456789")
        #expect(try fixture.value("SELECT min(id) FROM items") == "9007199254740993")
    }

    @Test func stringsThatAreAllDatesOfOneFormatBecomeDates() throws {
        let json = """
            [{"id": 1, "created_at": "2011-04-22T13:33:48Z", "posted": "Sat Jan 23 20:19:45 +0000 2016", "mixed": "2011-04-22", "seen": "Sun, 06 Nov 1994 08:49:37 GMT"},
             {"id": 2, "created_at": "2011-04-23", "posted": "Sun Jan 24 20:19:45 +0000 2016", "mixed": "Sat Jan 23 20:19:45 +0000 2016", "seen": null}]
            """
        let (draft, fixture) = try Self.drafted(json, entity: "Item")
        let lines = Self.lines(draft)
        #expect(lines.contains("createdAt <- created_at : Date | iso8601 # guess: every value is a date in ISO 8601 format"))
        #expect(lines.contains(#"posted : Date | date("EEE MMM dd HH:mm:ss Z yyyy") # guess: every value is a date in Twitter's format"#))
        #expect(lines.contains("seen : Date? | rfc1123 # guess: every value is a date in RFC 1123 format"))
        // Two formats: no converter reads both, so it stays text.
        #expect(lines.contains("mixed : String"))
        #expect(try fixture.value("SELECT posted FROM items WHERE id = 2") == "'2016-01-24T20:19:45.000Z'")
    }

    @Test func epochNumbersAreFlaggedNotConverted() throws {
        let json =
            #"[{"id": 1, "created_utc": 1600000000, "time": 1517966773840, "count": 1600000000}, {"id": 2, "created_utc": 1600000001.5, "time": 1517966773841, "count": 3}]"#
        let lines = Self.lines(try Self.drafted(json, entity: "Item").draft)
        #expect(lines.contains("createdUtc <- created_utc : Double # epoch seconds? `Date | epochSeconds` stores a date"))
        #expect(lines.contains("time : Int # epoch milliseconds? `Date | epochMillis` stores a date"))
        // A count is no time, whatever its size.
        #expect(lines.contains("count : Int"))
    }

    @Test func aKeyAbsentOrNullSomewhereIsOptional() throws {
        let json = #"[{"id": 1, "a": "x", "b": "y", "c": "z"}, {"id": 2, "a": "x", "b": null}]"#
        let lines = Self.lines(try Self.drafted(json, entity: "Item").draft)
        #expect(lines.contains("a : String"))
        #expect(lines.contains("b : String?"))
        #expect(lines.contains("c : String?"))
    }

    @Test func snakeCaseKeysBecomeSwiftNamesAndOddKeysAreQuoted() throws {
        let json = #"[{"id": 1, "screen_name": "ann", "first name": "Ann", "URL": "u", "2fa": true, "$oid": "x"}]"#
        let lines = Self.lines(try Self.drafted(json, entity: "User").draft)
        #expect(lines.contains("screenName <- screen_name : String"))
        #expect(lines.contains(#"firstName <- $["first name"] : String"#))
        #expect(lines.contains("url <- URL : String"))
        #expect(lines.contains("_2fa <- 2fa : Bool"))
        #expect(lines.contains(#"oid <- $["$oid"] : String"#))
    }

    @Test func withoutAnIdLikeKeyAFieldUniqueAcrossTheSampleIsTheKey() throws {
        let json = #"[{"size": 1, "sku": "a-1", "price": 3}, {"size": 1, "sku": "b-2", "price": 3}, {"size": 2, "sku": "c-3", "price": 4}]"#
        let lines = Self.lines(try Self.drafted(json, entity: "Product").draft)
        #expect(lines.contains("key sku"))
        #expect(lines.contains("# guess: keyed by `sku`, unique across the sample; it has no id"))
    }

    @Test func nestedObjectsWithoutAnIdAreInlined() throws {
        let json = #"[{"id": "q1", "geometry": {"type": "Point", "coordinates": [1.5, 2]}, "properties": {"mag": 2.5}}]"#
        let lines = Self.lines(try Self.drafted(json, entity: "Quake").draft)
        #expect(lines.contains("geometryType <- geometry.type : String"))
        #expect(lines.contains("geometryCoordinates <- geometry.coordinates : JSON # a list of values, kept whole"))
        #expect(lines.contains("mag <- properties.mag : Double"))
    }

    @Test func objectsThatLackTheirKeyInSomePlacesAreNotLinked() throws {
        let json = """
            [{"id": "e1", "actor": {"id": 1, "login": "ann", "url": "u1"}},
             {"id": "e2", "actor": {"url": "u0"}},
             {"type": "anonymous"}]
            """
        let (draft, fixture) = try Self.drafted(json, entity: "Event")
        let lines = Self.lines(draft)
        #expect(lines.contains("records at $[*] where id is present as Event # records without id are passed over"))
        #expect(lines.contains("actor <- actor where id is present : Actor? # 1 of 2 objects here have no id: not linked"))
        #expect(try fixture.value("SELECT count(*) FROM events WHERE actor_pk IS NOT NULL") == "1")
    }

    @Test func aSampleWithoutAnyKeyIsKeyedByItsFirstFieldAndSaysSo() throws {
        let json = #"[{"kind": "a", "n": 1}, {"kind": "a", "n": 1}]"#
        let (draft, fixture) = try Self.drafted(json, entity: "Row")
        #expect(Self.lines(draft).contains("key kind"))
        #expect(draft.text.contains("# guess: no field identifies these objects"))
        #expect(try fixture.value("SELECT count(*) FROM rows") == "1")
    }

    @Test func anIdBySuffixUniqueToEachObjectIsTheKey() throws {
        let json =
            #"{"has_more": false, "items": [{"question_id": 7, "title": "a", "owner": {"user_id": 1}}, {"question_id": 8, "title": "a", "owner": {"user_id": 1}}]}"#
        let (draft, _) = try Self.drafted(json)
        let lines = Self.lines(draft)
        #expect(lines.contains("records at items[*] as Record"))
        #expect(lines.contains("key questionId"))
        #expect(lines.contains("# keyed by `question_id`: an id by its name, unique to each object of the sample"))
        // A nested object is no record of its own: its `…_id` is a field of its parent.
        #expect(lines.contains("ownerUserId <- owner.user_id : Int"))
        #expect(lines.contains("# meta hasMore <- has_more : Bool?"))
    }

    @Test func theMembersOfAnObjectKeyedByIdsAreOneEntityKeyedByTheirNames() throws {
        let members = (1...60).map { #""u\#($0)": {"name": "n\#($0)"}"# }.joined(separator: ", ")
        let json = #"[{"id": 1, "users": {"# + members + "}}]"
        let (draft, fixture) = try Self.drafted(json, entity: "Room")
        let lines = Self.lines(draft)
        #expect(lines.contains("users <- users{*} : [User] # an object keyed by data: one User per member"))
        #expect(lines.contains("# keyed by the member names of users{*}"))
        #expect(lines.contains("id <- $key : String"))
        #expect(lines.contains("name : String"))
        #expect(try fixture.value("SELECT count(*) FROM users") == "60")
        #expect(try fixture.value("SELECT name FROM users WHERE id = 'u42'") == "'n42'")
    }

    @Test func anObjectKeyedByIdsOfObjectsWithIdsLinksThoseObjects() throws {
        let members = (1...60).map { #""\#($0)": {"id": \#($0), "login": "l\#($0)"}"# }.joined(separator: ", ")
        let json = #"[{"id": 1, "members": {"# + members + "}}]"
        let (draft, fixture) = try Self.drafted(json, entity: "Team")
        #expect(Self.lines(draft).contains("members <- members{*} : [Member] # an object keyed by data: one Member per member"))
        #expect(try fixture.value("SELECT count(*) FROM teams_members") == "60")
    }

    @Test func repeatsAreFoundWithinABoundedSetOfDigests() {
        var distinct = DistinctValues()
        for value in 0..<(DistinctValues.capacity + 10) { distinct.insert(.number(JSONNumber(integer: Int64(value)))) }
        #expect(distinct.count == DistinctValues.capacity)
        #expect(!distinct.isComplete)
        #expect(!distinct.repeats)
        distinct.insert(.string("x"))
        #expect(!distinct.repeats)
        distinct.insert(.number(JSONNumber(integer: 5)))
        #expect(distinct.repeats)
    }

    @Test func bareStringsAreRecordsKeyedByThemselves() throws {
        let (draft, fixture) = try Self.drafted(#"["1699", "1455", "1699"]"#, entity: "Story")
        let lines = Self.lines(draft)
        #expect(lines.contains("records at $[*] as Story"))
        #expect(lines.contains("value <- $ : String"))
        #expect(try fixture.value("SELECT count(*) FROM stories") == "2")
    }

    @Test func recordsWithNothingToKeyThemAreRefusedWithAReason() {
        #expect(throws: MapDraftFailure.self) {
            try MapDrafter.draft(source: BytesSource(Array(#"[[1, 2], {"a": {"b": 1}}]"#.utf8)))
        }
        do {
            _ = try MapDrafter.draft(source: BytesSource(Array(#"[{"a": {"b": [1]}}]"#.utf8)))
        } catch {
            #expect(error.message == "cannot draft a map: the sample holds records with no field that could identify them")
            #expect(error.json == nil)
        }
    }
}
