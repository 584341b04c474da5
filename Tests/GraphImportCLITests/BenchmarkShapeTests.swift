import Foundation
import GraphImportTestSupport
import Testing

/// The benchmark's second feed shape: `Samples/generate_activity.py` (JSON Lines, the tweet at
/// `object.status` of a wide event) read with `Benchmarks/activity.map` builds the graph the
/// timeline generator's feed builds with `Mappings/tweets.map`, but for the longer texts. The
/// benchmark compares its references with graphimport on that claim. One store: the feeds' shapes
/// are the subject.
@Suite("Benchmark shapes")
struct BenchmarkShapeTests {
    /// Every row but the tweets' texts, by key (pk values left out).
    static let graphQueries = [
        """
        SELECT t.id, t.created_at, t.sent_at, t.source, t.lang, t.retweet_count, t.favorite_count, a.id, r.id, p.id,
               t.text IS NULL
        FROM tweets t LEFT JOIN users a ON a.pk = t.author_pk LEFT JOIN tweets r ON r.pk = t.retweet_of_pk
        LEFT JOIN tweets p ON p.pk = t.reply_to_pk ORDER BY t.id
        """,
        "SELECT id, handle, name, hex(description), url, followers, created_at FROM users ORDER BY id",
        "SELECT text FROM hashtags ORDER BY text",
        """
        SELECT t.id, h.text, j.position FROM tweets_hashtags j JOIN tweets t ON t.pk = j.tweets_pk
        JOIN hashtags h ON h.pk = j.hashtags_pk ORDER BY t.id, j.position
        """,
        """
        SELECT t.id, u.id, j.position FROM tweets_mentions j JOIN tweets t ON t.pk = j.tweets_pk
        JOIN users u ON u.pk = j.users_pk ORDER BY t.id, j.position
        """,
    ]

    @Test func activityShapeBuildsTheTimelinesGraph() throws {
        let dir = TemporaryDirectory()
        let timelineStore = dir.path("timeline.sqlite")
        let activityStore = dir.path("activity.sqlite")
        let timeline = try EndToEnd.generateTimeline(["--tweets", "300", "--seed", "4"], into: dir.path("timeline.json"))
        let activity = try Self.generateActivity(["--tweets", "300", "--seed", "4"], into: dir.path("activity.jsonl"))
        let imported = try EndToEnd.importFeed(timeline, map: "Mappings/tweets.map", store: timelineStore)
        #expect(imported.status == 0, "\(imported.stderr)")
        let arguments = [activity, "--map", repoFile("Benchmarks/activity.map"), "--store", activityStore]
        let result = try runBinary(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("graphimport: imported 300 records"), "\(result.stderr)")

        for query in Self.graphQueries {
            let expected = try sqlite(timelineStore, query)
            #expect(!expected.isEmpty)
            #expect(try sqlite(activityStore, query) == expected, "\(query)")
        }
        // Each text is the timeline's, then a blank line and paragraphs the map reads too.
        let texts = "SELECT id || ' ' || hex(text) FROM tweets WHERE text IS NOT NULL ORDER BY id"
        let short = try sqlite(timelineStore, texts).split(separator: "\n")
        let long = try sqlite(activityStore, texts).split(separator: "\n")
        #expect(short.count == long.count && short.count > 300)
        for (base, wide) in zip(short, long) {
            #expect(wide.hasPrefix(base + EndToEnd.hex("\n\n")) && wide.count > base.count + 100, "\(base.prefix(40))")
        }
        try EndToEnd.expectReimportChangesNothing(arguments)
    }

    /// Revision 1 of the activity stream changes the objects revision 1 of the timeline changes.
    @Test func activityRevisionUpdatesWhatTheTimelinesRevisionUpdates() throws {
        let dir = TemporaryDirectory()
        var updated: [[String: [String: Int]]] = []
        let shapes: [(generate: ([String], String) throws -> String, map: String, name: String)] = [
            (EndToEnd.generateTimeline, "Mappings/tweets.map", "timeline.json"),
            (Self.generateActivity, "Benchmarks/activity.map", "activity.jsonl"),
        ]
        for (generate, map, name) in shapes {
            let store = dir.path(name + ".sqlite")
            let base = try generate(["--tweets", "200", "--seed", "2"], dir.path("r0-" + name))
            let revised = try generate(["--tweets", "200", "--seed", "2", "--revision", "1"], dir.path("r1-" + name))
            #expect(try EndToEnd.importFeed(base, map: map, store: store).status == 0)
            let result = try EndToEnd.importFeed(revised, map: map, store: store, ["--json"])
            #expect(result.status == 0, "\(result.stderr)")
            updated.append(try #require(EndToEnd.summary(result)["entities"] as? [String: [String: Int]]))
        }
        #expect((updated[0]["Tweet"]?["updated"] ?? 0) > 0)
        #expect(updated[1] == updated[0])
    }

    /// The benchmark checks every reference's store against graphimport's with `digest.py` before
    /// it reports a time: the stdlib Python reference and graphimport must digest alike, schema
    /// line included, so a column the engine adds (a bookkeeping column the references do not
    /// keep) is either in the digest's `BOOKKEEPING_COLUMNS` or fails here, not in the next run.
    @Test func pythonReferenceAndGraphimportDigestAlike() throws {
        let dir = TemporaryDirectory()
        let feed = try EndToEnd.generateTimeline(["--tweets", "200", "--seed", "3"], into: dir.path("feed.json"))
        let ours = dir.path("graphimport.sqlite")
        let reference = dir.path("reference.sqlite")
        let imported = try EndToEnd.importFeed(feed, map: "Mappings/tweets.map", store: ours)
        #expect(imported.status == 0, "\(imported.stderr)")
        _ = try Self.python(["Benchmarks/reference.py", feed, reference])
        let digest = try Self.python(["Benchmarks/digest.py", ours])
        #expect(digest.contains("schema") && digest.contains("tweets"), "\(digest)")
        #expect(digest == (try Self.python(["Benchmarks/digest.py", reference])))
    }

    /// The standard output of `python3 SCRIPT ARGUMENTS` (the script's path from the repository).
    static func python(_ arguments: [String]) throws -> String {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repoFile(arguments[0])] + arguments.dropFirst()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(arguments[0]) failed")
        return text
    }

    /// Writes the output of `Samples/generate_activity.py ARGUMENTS` to `path` and returns it.
    static func generateActivity(_ arguments: [String], into path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repoFile("Samples/generate_activity.py")] + arguments + ["--out", path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "generate_activity.py failed")
        return path
    }
}
