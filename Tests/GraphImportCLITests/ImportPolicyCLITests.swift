import GraphImportSchema
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// `--mode`, `--verbose` and the summary lines of `link existing`, as the command line shows them.
@Suite("Command line: import modes, unlinked keys and the changes of a dry run")
struct ImportPolicyCLITests {
    static let map = """
        records at $[*] as Post
        entity Post
          key id
          id : Int
          title : String
          tags <- tag_ids : [Tag] link existing
          comments : [Comment] merge
        entity Tag
          key id
          id : Int
        entity Comment
          key id
          id : Int
          body : String
        """

    static let first = #"[{"id": 1, "title": "A", "comments": [{"id": 10, "body": "x"}]}, {"id": 2, "title": "B"}]"#
    static let second = #"[{"id": 1, "title": "A2", "tag_ids": [7, 8], "comments": [{"id": 11, "body": "y"}]}]"#

    @Test(arguments: StoreKind.testable)
    func aVerboseDryRunListsEachChangeWithOldAndNewValuesAndWritesNothing(kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("posts.map", Self.map)
        let storeUnderTest = try StoreUnderTest(kind)
        let store = storeUnderTest.location
        #expect(runInProcess([dir.write("first.json", Self.first), "--map", map, "--store", store]).status == 0)
        let result = runInProcess([dir.write("second.json", Self.second), "--map", map, "--store", store, "--dry-run", "-v"])
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            Array(lines.drop { !$0.hasPrefix("  not linked") }) == [
                "  not linked Post.tags: 2 keys of no stored Tag (7 at $[0].tag_ids[0], 8 at $[0].tag_ids[1])",
                "graphimport: Post: would change 1 object",
                "  ~ 1",
                "      title: 'A' -> 'A2'",
                "      comments: 1 linked -> 2 linked",
                "graphimport: Comment: would change 1 object",
                "  + 11 (new)",
                "",
            ])
        #expect(try storeUnderTest.select("SELECT title FROM posts WHERE id = 1") == [["A"]])
    }

    @Test(arguments: StoreKind.testable)
    func verboseShowsTenObjectsPerEntityThenACount(kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("posts.map", Self.map)
        let feed = "[" + (1...12).map { #"{"id": \#($0), "title": "t"}"# }.joined(separator: ", ") + "]"
        let store = try StoreUnderTest(kind)
        let result = runInProcess([dir.write("many.json", feed), "--map", map, "--store", store.location, "--verbose"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("graphimport: Post: changed 12 objects\n  + 1 (new)\n"))
        #expect(result.stderr.contains("  + 10 (new)\n  and 2 more\n"))
        #expect(!result.stderr.contains("  + 11 (new)"))
    }

    @Test(arguments: StoreKind.testable)
    func updateModeCountsNewObjectsAsNotInserted(kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("posts.map", Self.map)
        let storeUnderTest = try StoreUnderTest(kind)
        let store = storeUnderTest.location
        #expect(runInProcess([dir.write("first.json", Self.first), "--map", map, "--store", store]).status == 0)
        let feed = dir.write("third.json", #"[{"id": 2, "title": "B2"}, {"id": 3, "title": "C"}]"#)
        let result = runInProcess([feed, "--map", map, "--store", store, "--mode", "update", "--json"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(#""Post":{"inserted":0,"updated":1,"unchanged":0,"skipped":0,"deleted":0,"not_inserted":1}"#))
        #expect(
            result.stderr.contains(
                "  entity   inserted  updated  unchanged  skipped  not inserted\n  Post            0        1          0        0             1\n"))
        #expect(try storeUnderTest.select("SELECT id, title FROM posts ORDER BY id") == [["1", "A"], ["2", "B2"]])
    }

    @Test(arguments: StoreKind.testable)
    func occurrenceFirstCountsTheOccurrencesItPassesOver(kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write(
            "posts.map",
            """
            records at $[*] as Post
            entity Post
              key id
              occurrence first
              id : Int
              title : String
            """)
        let feed = dir.write("newest-first.json", #"[{"id": 1, "title": "new"}, {"id": 1, "title": "old"}, {"id": 2, "title": "B"}]"#)
        let store = try StoreUnderTest(kind)
        let result = runInProcess([feed, "--map", map, "--store", store.location, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""Post":{"inserted":2,"updated":0,"unchanged":0,"skipped":0,"deleted":0,"passed_over":1}"#))
        #expect(
            result.stderr.contains(
                "  entity  inserted  updated  unchanged  skipped  passed over\n  Post           2        0          0        0            1\n"))
        #expect(try store.select("SELECT id, title FROM posts ORDER BY id") == [["1", "new"], ["2", "B"]])
    }

    @Test(arguments: StoreKind.testable)
    func theJSONSummaryNamesTheUnlinkedKeys(kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("posts.map", Self.map)
        let store = try StoreUnderTest(kind)
        let result = runInProcess([dir.write("second.json", Self.second), "--map", map, "--store", store.location, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                #""unlinked":{"Post.tags":{"target":"Tag","count":2,"first":[{"key":"7","path":"$[0].tag_ids[0]"},{"key":"8","path":"$[0].tag_ids[1]"}]}}"#
            ), "\(result.stdout)")
    }

    /// The summary names the keys that linked nothing; a merged page adds to the stored list.
    @Test(arguments: StoreKind.testable)
    func theSummaryNamesTheUnlinkedKeysAndAMergedPageAddsToTheList(kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("posts.map", Self.map)
        let store = try StoreUnderTest(kind)
        #expect(runInProcess([dir.write("first.json", Self.first), "--map", map, "--store", store.location]).status == 0)
        let result = runInProcess([dir.write("second.json", Self.second), "--map", map, "--store", store.location])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("  not linked Post.tags: 2 keys of no stored Tag (7 at $[0].tag_ids[0], 8 at $[0].tag_ids[1])\n"), "\(result.stderr)")
        #expect(
            try store.select("SELECT c.id, j.position FROM posts_comments j JOIN comments c ON c.pk = j.comments_pk ORDER BY j.position") == [
                ["10", "0"], ["11", "1"],
            ])
    }

    @Test func anUnknownModeIsAUsageError() {
        let result = runInProcess(["feed.json", "--map", "posts.map", "--mode", "merge"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: The value 'merge' is invalid for '--mode'\nGive insert, update or upsert.\n"))
    }

    /// The stubs a run made and completed are columns of the summary and members of `--json`,
    /// shown only when there are any.
    @Test(arguments: StoreKind.testable)
    func stubsAreCountedInTheSummaryAndTheJSON(kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write(
            "replies.map",
            """
            records at $[*] as Note
            entity Note
              key id
              id : Int
              text : String?
              replyTo <- in_reply_to : Note?
            """)
        let storeUnderTest = try StoreUnderTest(kind)
        let feed = dir.write("notes.json", #"[{"id": 1, "text": "a", "in_reply_to": 2}, {"id": 3, "in_reply_to": 4}, {"id": 2, "text": "b"}]"#)
        let result = runInProcess([feed, "--map", map, "--store", storeUnderTest.location, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""Note":{"inserted":4,"updated":0,"unchanged":0,"skipped":0,"deleted":0,"stubs":1,"stubs_completed":1}"#))
        #expect(
            result.stderr.contains(
                "  entity  inserted  updated  unchanged  skipped  stubs  stubs completed\n"
                    + "  Note           4        0          0        0      1                1\n"))
        let again = runInProcess([feed, "--map", map, "--store", storeUnderTest.location, "--json"])
        #expect(again.stdout.contains(#""Note":{"inserted":0,"updated":0,"unchanged":3,"skipped":0,"deleted":0}"#))
        #expect(!again.stderr.contains("stubs"))
    }
}
