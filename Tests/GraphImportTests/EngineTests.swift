import GraphImport
import GraphImportSchema
import GraphImportStoreTestSupport
import Testing

/// The upsert engine's core behaviours, each run against both stores (`StoreKind.testable`).
@Suite("Upsert engine")
struct EngineTests {
    @Test(arguments: StoreKind.testable)
    func insertsObjectsAndRelationshipsQueryableFromBothSides(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        let summary = try fixture.importJSON("[\(tweet(1, tags: ["Swift", "json"])),\(tweet(2, user: 2, handle: "bob", tags: ["swift"]))]")
        #expect(summary.records == 2)
        #expect(countsByEntity(summary)["Tweet"] == [2, 0, 0, 0])
        #expect(countsByEntity(summary)["User"] == [2, 0, 0, 0])
        #expect(countsByEntity(summary)["Hashtag"] == [2, 0, 0, 0])
        #expect(
            try fixture.select("SELECT id, text, created_at FROM tweets ORDER BY id") == [
                ["1", "hello", "2015-12-09T19:40:11.000Z"], ["2", "hello", "2015-12-09T19:40:11.000Z"],
            ])
        // From the tweet to its author, and from the user back to the tweets.
        #expect(try fixture.select(#"SELECT u.handle FROM tweets JOIN "users" u ON u.pk = tweets.author_pk WHERE tweets.id = 2"#) == [["bob"]])
        #expect(try fixture.select(#"SELECT tweets.id FROM "users" u JOIN tweets ON tweets.author_pk = u.pk WHERE u.handle = 'alice'"#) == [["1"]])
        // The to-many from both sides, in the feed's order.
        #expect(
            try fixture.select(
                """
                SELECT hashtags.text FROM tweets_hashtags JOIN hashtags ON hashtags.pk = tweets_hashtags.hashtags_pk
                JOIN tweets ON tweets.pk = tweets_hashtags.tweets_pk WHERE tweets.id = 1 ORDER BY position
                """) == [["swift"], ["json"]])
        #expect(
            try fixture.select(
                """
                SELECT tweets.id FROM hashtags JOIN tweets_hashtags ON tweets_hashtags.hashtags_pk = hashtags.pk
                JOIN tweets ON tweets.pk = tweets_hashtags.tweets_pk WHERE hashtags.text = 'swift' ORDER BY tweets.id
                """) == [["1"], ["2"]])
        // The database's own date functions understand the stored dates.
        let year =
            kind == .sqlite
            ? "SELECT strftime('%Y', created_at) FROM tweets WHERE id = 1"
            : "SELECT to_char(created_at::timestamptz AT TIME ZONE 'UTC', 'YYYY') FROM tweets WHERE id = 1"
        #expect(try fixture.value(year) == "2015")
    }

    @Test(arguments: StoreKind.testable)
    func reimportOfTheSameFeedChangesNothing(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        let feed = "[\(tweet(1, tags: ["a", "b"])),\(tweet(2, tags: ["b"]))]"
        try fixture.importJSON(feed)
        let second = try fixture.importJSON(feed)
        #expect(!second.changed)
        #expect(countsByEntity(second)["Tweet"] == [0, 0, 2, 0])
        #expect(countsByEntity(second)["User"] == [0, 0, 1, 0])
        #expect(countsByEntity(second)["Hashtag"] == [0, 0, 2, 0])
    }

    @Test(arguments: StoreKind.testable)
    func objectRepeatedAcrossRecordsIsOneRowCountedOnce(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        let feed = "[" + (1...50).map { tweet(Int64($0), user: 7, handle: "same") }.joined(separator: ",") + "]"
        let summary = try fixture.importJSON(feed)
        #expect(countsByEntity(summary)["User"] == [1, 0, 0, 0])
        #expect(try fixture.value(#"SELECT count(*) FROM "users""#) == "1")
        #expect(try fixture.value("SELECT count(DISTINCT author_pk) FROM tweets") == "1")
    }

    @Test(arguments: StoreKind.testable)
    func changedValueUpdatesOnlyThatObject(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        try fixture.importJSON("[\(tweet(1)),\(tweet(2, user: 2, handle: "bob"))]")
        let summary = try fixture.importJSON("[\(tweet(1, text: "edited")),\(tweet(2, user: 2, handle: "bob"))]")
        #expect(countsByEntity(summary)["Tweet"] == [0, 1, 1, 0])
        #expect(countsByEntity(summary)["User"] == [0, 0, 2, 0])
        #expect(try fixture.value("SELECT text FROM tweets WHERE id = 1") == "edited")
    }

    @Test(arguments: StoreKind.testable)
    func missingKeyKeepsStoredValueAndNullClearsIt(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        try fixture.importJSON("[\(tweet(1, extra: ",\"timestamp_ms\":\"1449690011000\""))]")
        #expect(try fixture.value("SELECT sent_at FROM tweets") == "2015-12-09T19:40:11.000Z")
        try fixture.importJSON("[\(tweet(1))]")  // no timestamp_ms: kept
        #expect(try fixture.value("SELECT sent_at FROM tweets") == "2015-12-09T19:40:11.000Z")
        let summary = try fixture.importJSON("[\(tweet(1, extra: ",\"timestamp_ms\":null"))]")
        #expect(countsByEntity(summary)["Tweet"] == [0, 1, 0, 0])
        #expect(try fixture.value("SELECT sent_at FROM tweets") == "NULL")
    }

    @Test(arguments: StoreKind.testable)
    func nullOnRequiredAttributeIsAnErrorNamingRecordAndKey(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        let feed = "[\(tweet(1)),\n{\"id\":2,\"text\":null,\"created_at\":\"Wed Dec 09 19:40:11 +0000 2015\",\"user\":{\"id\":1,\"screen_name\":\"a\"}}]"
        let record = fixture.recordFailure(feed)
        #expect(record?.recordIndex == 1)
        #expect(record?.member == "Tweet.text")
        #expect(record?.path == "$[1].text")
        #expect(record?.message == "is required but the value is null")
        #expect(record?.position.line == 2)
    }

    /// More records than several of the reading thread's batches (128 records each, whose arrays
    /// are handed back and reused), and than several of PostgreSQL's batches of objects: every
    /// record is written once, and a re-run finds each unchanged.
    @Test(arguments: StoreKind.testable)
    func recordsAcrossReusedBatchesAreEachWrittenOnce(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap, batchSize: 1000)
        // Forty batches: far more than the queue between the threads holds (8), so the reading
        // thread waits for the writer and gets written batches back.
        let count = 5_120
        let feed = "[" + (1...count).map { tweet(Int64($0), text: "t\($0)", tags: ["tag\($0 % 7)"]) }.joined(separator: ",") + "]"
        let first = try fixture.importJSON(feed)
        // Each record handed to the writer once: a record given twice would not change the
        // store or the per-object counts, only this.
        #expect(first.records == count)
        #expect(countsByEntity(first)["Tweet"] == [count, 0, 0, 0])
        #expect(countsByEntity(first)["Hashtag"] == [7, 0, 0, 0])
        #expect(try fixture.select("SELECT count(*), sum(id) FROM tweets") == [["\(count)", "\(count * (count + 1) / 2)"]])
        #expect(try fixture.value("SELECT count(*) FROM tweets WHERE text <> 't' || id") == "0")
        let again = try fixture.importJSON(feed)
        #expect(again.records == count)
        #expect(countsByEntity(again)["Tweet"] == [0, 0, count, 0])
    }

    /// An attribute read at a path of several steps names the whole path when it fails: where a
    /// step meets no object, where the value does not convert, where a check refuses it.
    @Test(arguments: [
        (
            #"{"id":1,"info":"text"}"#, "$[0].info", "Item.size",
            "expected an object with the key 'meta', found a string"
        ),
        (
            #"{"id":1,"info":{"meta":{"size":"big"}}}"#, "$[0].info.meta.size", "Item.size",
            "expected an integer, found a string ('big')"
        ),
        (
            #"{"id":1,"info":{"meta":{"size":-4}}}"#, "$[0].info.meta.size", "Item.size",
            "must be between 0 and 100 (value: -4)"
        ),
        (#"{"id":1,"list":[1]}"#, "$[0].list[0]", "Item.first", "expected an object with the key 'name', found a number"),
    ])
    func nestedAttributeErrorsNameTheFullPath(record: String, path: String, member: String, message: String) throws {
        let map = """
            records at $[*] as Item
            entity Item
              key id
              id : Int
              size <- info.meta.size : Int? check range(0, 100)
              first <- list[0].name : String?
            """
        for kind in StoreKind.testable {
            let fixture = try MappedStore(kind, map: map)
            guard case .record(let failure)? = fixture.failure("[\(record)]") else {
                Issue.record("not a record error on \(kind)")
                continue
            }
            #expect(failure.path == path)
            #expect(failure.member == member)
            #expect(failure.message == message)
            #expect(try fixture.holdsNoData())
        }
    }

    @Test(arguments: StoreKind.testable)
    func failedImportLeavesStoreExactlyAsItWas(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        try fixture.importJSON("[\(tweet(1))]")
        let before = try fixture.rows()
        // The second record is bad; the first (a change) must not be kept.
        #expect(fixture.recordFailure("[\(tweet(1, text: "changed")),{\"id\":\"x\"}]")?.member == "Tweet.id")
        #expect(try fixture.rows() == before)
    }

    @Test(arguments: StoreKind.testable)
    func failedFirstImportLeavesAStoreWithNoDataOnlyItsFailedRun(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        #expect(fixture.recordFailure("[{\"id\":\"1\"}]") != nil)
        #expect(try fixture.holdsNoData())
        #expect(try fixture.value("SELECT outcome FROM graphimport_runs") == "failed")
    }

    @Test(arguments: StoreKind.testable)
    func malformedJSONStopsWithItsPosition(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        guard case .json(let json)? = fixture.store.importError("[\(tweet(1)),\n  {\"id\": 2,}]", plan: fixture.plan) else {
            Issue.record("not a JSON error")
            return
        }
        #expect(json.position.line == 2)
        #expect(try fixture.holdsNoData())
    }

    @Test(arguments: StoreKind.testable)
    func skipInvalidCommitsTheRestAndReportsEachSkippedRecord(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        let feed = "[\(tweet(1)),{\"id\":2,\"text\":5},\(tweet(3))]"
        var skipped: [RecordError] = []
        let summary = try fixture.importJSON(feed, options: ImportOptions(skipInvalid: true), onSkip: { skipped.append($0) })
        #expect(summary.skippedRecords == 1)
        #expect(skipped.map(\.recordIndex) == [1])
        #expect(skipped.first?.member == "Tweet.text")
        #expect(countsByEntity(summary)["Tweet"] == [2, 0, 0, 1])
        #expect(try fixture.select("SELECT id FROM tweets ORDER BY id") == [["1"], ["3"]])
    }

    @Test(arguments: StoreKind.testable)
    func selfRecursionLinksRetweetToTheOriginalTweet(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        let original = tweet(10, text: "original", user: 2, handle: "bob")
        try fixture.importJSON("[\(tweet(11, text: "RT", extra: ",\"retweeted_status\":\(original)")),\(original)]")
        #expect(try fixture.value("SELECT count(*) FROM tweets") == "2")
        #expect(try fixture.select("SELECT o.text FROM tweets r JOIN tweets o ON o.pk = r.retweet_of_pk WHERE r.id = 11") == [["original"]])
    }

    @Test(arguments: StoreKind.testable)
    func idReferenceLinksToExistingObjectOrCreatesAStubFilledLater(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        let summary = try fixture.importJSON("[\(tweet(21, extra: ",\"in_reply_to_status_id\":20"))]")
        #expect(countsByEntity(summary)["Tweet"] == [2, 0, 0, 0])
        #expect(try fixture.select("SELECT id, text FROM tweets ORDER BY id") == [["20", "NULL"], ["21", "hello"]])
        try fixture.importJSON("[\(tweet(20, text: "the question"))]")
        #expect(try fixture.select("SELECT p.text FROM tweets r JOIN tweets p ON p.pk = r.reply_to_pk WHERE r.id = 21") == [["the question"]])
        #expect(try fixture.value("SELECT count(*) FROM tweets") == "2")
    }

    @Test(arguments: StoreKind.testable)
    func toManyIsReplacedByTheFeedsSet(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        try fixture.importJSON("[\(tweet(1, tags: ["a", "b"]))]")
        let summary = try fixture.importJSON("[\(tweet(1, tags: ["c", "a"]))]")
        #expect(countsByEntity(summary)["Tweet"] == [0, 1, 0, 0])
        #expect(
            try fixture.select(
                """
                SELECT hashtags.text FROM tweets_hashtags JOIN hashtags ON hashtags.pk = hashtags_pk ORDER BY position
                """) == [["c"], ["a"]])
        #expect(try fixture.value("SELECT count(*) FROM hashtags") == "3")
    }

    /// A repeated target is kept once, at its first place, in short and long lists alike (the
    /// writer searches a short list and hashes a long one).
    @Test(arguments: StoreKind.testable)
    func repeatedTargetsInAListAreKeptOnceAtTheirFirstPlace(_ kind: StoreKind) throws {
        for length in [3, 40] {
            let fixture = try MappedStore(kind, map: tweetsMap)
            // "Tag" and "tag" are one hashtag (lowercased): repeats by key, not by text.
            let tags = (0..<length).map { "t\($0 % (length / 2))" } + ["T0"]
            try fixture.importJSON("[\(tweet(1, tags: tags))]")
            let stored = try fixture.select("SELECT hashtags.text, position FROM tweets_hashtags JOIN hashtags ON hashtags.pk = hashtags_pk ORDER BY position")
            #expect(stored == (0..<(length / 2)).map { ["t\($0)", "\($0)"] })
        }
    }

    @Test(arguments: StoreKind.testable)
    func bigIdsStayExact(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        try fixture.importJSON("[\(tweet(674674925823787009, user: 9007199254740993))]")
        #expect(try fixture.value("SELECT id FROM tweets") == "674674925823787009")
        #expect(try fixture.value(#"SELECT id FROM "users""#) == "9007199254740993")
    }

    @Test(arguments: StoreKind.testable)
    func keyValuesAreCanonicalSoOneAndOnePointZeroAreOneObject(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        try fixture.importJSON(
            "[\(tweet(1)),\(tweet(1, text: "again", user: 1))]".replacingOccurrences(of: "\"id\":1,\"text\":\"again\"", with: "\"id\":1.0,\"text\":\"again\""))
        #expect(try fixture.value("SELECT count(*) FROM tweets") == "1")
    }

    @Test(arguments: StoreKind.testable)
    func stringWhereIntExpectedIsRejectedWithHint(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        let record = fixture.recordFailure("[{\"id\":\"1\",\"text\":\"x\"}]")
        #expect(record?.member == "Tweet.id")
        #expect(record?.hint?.contains("| int") == true)
    }

    @Test(arguments: StoreKind.testable)
    func dryRunWritesNothing(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        try fixture.importJSON("[\(tweet(1))]")
        let summary = try fixture.importJSON("[\(tweet(1, text: "new")),\(tweet(2))]", options: ImportOptions(dryRun: true))
        #expect(countsByEntity(summary)["Tweet"] == [1, 1, 0, 0])
        #expect(try fixture.select("SELECT id, text FROM tweets") == [["1", "hello"]])
    }

    @Test(arguments: StoreKind.testable)
    func wrappedResponseAndJSONLinesFindTheirRecords(_ kind: StoreKind) throws {
        let wrapped = try MappedStore(kind, map: "records at statuses[*] as Tweet\n" + tweetsMap.split(separator: "\n").dropFirst().joined(separator: "\n"))
        let summary = try wrapped.importJSON("{\"search_metadata\":{\"count\":2},\"statuses\":[\(tweet(1)),\(tweet(2))]}")
        #expect(summary.records == 2)
        let lines = try MappedStore(kind, map: tweetsMap)
        let linesSummary = try lines.importJSON("\(tweet(1))\n\(tweet(2))\n\(tweet(3))\n")
        #expect(linesSummary.records == 3)
        #expect(try lines.value("SELECT count(*) FROM tweets") == "3")
    }

    @Test(arguments: StoreKind.testable)
    func emptyInputIsAnErrorUnlessAllowed(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        let blank = fixture.store.importError("  \n", plan: fixture.plan)
        guard case .emptyInput? = blank else {
            Issue.record("not the empty input's error: \(String(describing: blank))")
            return
        }
        let summary = try fixture.importJSON("", options: ImportOptions(allowEmpty: true))
        #expect(summary.records == 0)
        let emptyArray = try fixture.importJSON("[]")
        #expect(emptyArray.records == 0)
    }
}

@Suite("Objects repeated within one feed")
struct RepeatedObjectTests {
    @Test(arguments: StoreKind.testable)
    func disagreeingOccurrencesKeepTheLastAndAreNotAChangeOnReimport(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        let feed = "[\(tweet(1, user: 5, followers: 10)),\(tweet(2, user: 5, followers: 11))]"
        let first = try fixture.importJSON(feed)
        #expect(countsByEntity(first)["User"] == [1, 0, 0, 0])
        #expect(try fixture.value(#"SELECT followers FROM users"#) == "11")
        let second = try fixture.importJSON(feed)
        #expect(countsByEntity(second)["User"] == [0, 0, 1, 0])
        #expect(!second.changed)
        #expect(try fixture.value(#"SELECT followers FROM users"#) == "11")
        let third = try fixture.importJSON("[\(tweet(1, user: 5, followers: 12))]")
        #expect(countsByEntity(third)["User"] == [0, 1, 0, 0])
    }

    /// Join rows are written many to a statement, after the records that make them; whatever
    /// reads or replaces a list in between (here a tweet given twice in one feed, and a second
    /// import that compares every list) must find every row written.
    @Test(arguments: StoreKind.testable)
    func joinRowsWrittenInBatchesAreTheFeedsListsInOrder(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: tweetsMap)
        let tags: (Int) -> [String] = { id in (0..<(id % 4)).map { "t\(($0 * 7 + id) % 23)" } }
        var records = (1...60).map { tweet(Int64($0), tags: tags($0)) }
        // Tweet 2 again while its first rows still wait to be written; tweet 5 again long after.
        records.insert(tweet(2, tags: ["again"]), at: 2)
        records.insert(tweet(5, tags: ["late", "t1"]), at: 40)
        try fixture.importJSON("[" + records.joined(separator: ",") + "]")
        let stored = try fixture.select(
            """
            SELECT tweets.id, \(kind == .sqlite ? "group_concat(hashtags.text, ' ')" : "string_agg(hashtags.text, ' ' ORDER BY position)") \
            FROM (SELECT * FROM tweets_hashtags ORDER BY tweets_pk, position) j \
            JOIN tweets ON tweets.pk = tweets_pk JOIN hashtags ON hashtags.pk = hashtags_pk GROUP BY tweets.id ORDER BY tweets.id
            """)
        var expected: [[String]] = []
        for id in 1...60 {
            let list = id == 5 ? ["late", "t1"] : id == 2 ? ["again"] : tags(id)
            if !list.isEmpty { expected.append(["\(id)", list.joined(separator: " ")]) }
        }
        #expect(stored == expected)
        #expect(try fixture.value("SELECT count(*) FROM tweets_hashtags") == "\(expected.reduce(0) { $0 + $1[1].split(separator: " ").count })")
        // Read back for comparison, every list is what the store holds.
        let again = try fixture.importJSON("[" + records.joined(separator: ",") + "]")
        // Tweets 2 and 5 go through a list that differs from the stored one and back to it. SQLite
        // writes each occurrence and counts a list rewritten in the run as an update; PostgreSQL
        // merges a batch's occurrences first, so their last lists, the stored ones, change nothing.
        #expect(countsByEntity(again)["Tweet"] == (kind == .sqlite ? [0, 2, 58, 0] : [0, 0, 60, 0]))
        #expect(try fixture.select("SELECT count(*) FROM tweets_hashtags") == [["\(expected.reduce(0) { $0 + $1[1].split(separator: " ").count })"]])
    }
}
