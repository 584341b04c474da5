import Foundation
import GraphImport
import GraphImportMapping
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// A feed and the map it is imported with, for the round trip: import, export, import the export
/// into an empty store, compare the graphs.
struct RoundTripCase: Sendable, CustomTestStringConvertible {
    let feed: String
    let map: String
    let inCorpus: Bool

    var testDescription: String { "\(feed) with \(map)" }

    func feedPath() throws -> String {
        guard inCorpus else { return repoFile(feed) }
        return try #require(Corpus.file(feed), "the shared corpus was not found").path
    }

    static let samples = [
        RoundTripCase(feed: "Samples/tweets.json", map: "Mappings/tweets.map", inCorpus: false),
        RoundTripCase(feed: "Samples/tweets.jsonl", map: "Mappings/tweets.map", inCorpus: false),
        RoundTripCase(feed: "Samples/questions.json", map: "Mappings/questions.map", inCorpus: false),
        RoundTripCase(feed: "Samples/issues.json", map: "Mappings/issues.map", inCorpus: false),
    ]

    /// Every payload of the corpus, with the project's map for it.
    static let corpus: [RoundTripCase] =
        [
            ("github/octokit-fixtures-paginate-issues.json", "github-fixtures-issues"),
            ("github/octokit-fixtures-search-issues.json", "github-fixtures-issues"),
            ("github/octokit.rb-issues.json", "github-issues"),
            ("github/octokit.rb-public_events.json", "github-events"),
            ("github/octokit.rb-repo_events.json", "github-events"),
            ("jsonapi/complete.json", "jsonapi"),
            ("jsonapi/data_and_included-single_resource.json", "jsonapi"),
            ("mastodon/bigbone-context.json", "mastodon-context"),
            ("mastodon/mastodon4j-context.json", "mastodon-context"),
            ("mastodon/bigbone-public_timeline.json", "mastodon"),
            ("mastodon/mastodon4j-public_timeline.json", "mastodon"),
            ("mastodon/bigbone-tag_timeline.json", "mastodon"),
            ("mastodon/mastodon4j-tag.json", "mastodon"),
            ("mastodon/bigbone-status_with_previewcard.json", "mastodon"),
            ("mastodon/mastodon4j-notifications.json", "mastodon-notifications"),
            ("reddit/comment-more.json", "reddit"),
            ("reddit/listings-posts-comments-subreddits.json", "reddit"),
            ("reddit/post-duplicates.json", "reddit"),
            ("reddit/post-post.json", "reddit"),
            ("reddit/subreddit-list.json", "reddit"),
            ("reddit/subreddit-search-posts.json", "reddit"),
            ("reddit/user-overview.json", "reddit"),
            ("twitter-v1.1/get_followers_0.json", "twitter-v1.1-followers"),
            ("twitter-v1.1/get_home_timeline.json", "twitter-v1.1"),
            ("twitter-v1.1/get_retweets.json", "twitter-v1.1"),
            ("twitter-v1.1/get_user_timeline_count.json", "twitter-v1.1"),
            ("twitter-v1.1/get_search_raw.json", "twitter-v1.1-search"),
            ("twitter-v2/search_tweets_query.json", "twitter-v2"),
            ("twitter-v2/tweet_quote_tweets_resp.json", "twitter-v2"),
            ("usgs/earthquakes.json", "usgs-earthquakes"),
        ].map { RoundTripCase(feed: $0.0, map: "Mappings/\($0.1).map", inCorpus: true) }

    /// The map compiled, with the files it includes read from beside it.
    static func plan(_ map: String) throws -> ImportPlan {
        let includes = IncludeResolver { name, includer in
            let path = IncludeResolver.relativePath(name, from: includer.name)
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return .failure(IncludeFailure("cannot read \(path)")) }
            return .success(MapFile(name: path, text: text))
        }
        return try ImportPlan.compile(text: String(contentsOfFile: repoFile(map), encoding: .utf8), fileName: repoFile(map), includes: includes)
    }

    /// Imports the feed, exports the store, imports the export into an empty store of the same
    /// kind, and expects the same graph.
    func expectSameGraphAfterRoundTrip(on kind: StoreKind = .sqlite) throws {
        let directory = TemporaryDirectory()
        let first = try StoreUnderTest(kind)
        let second = try StoreUnderTest(kind)
        let imported = try EndToEnd.importFeed(try feedPath(), map: map, store: first.location)
        #expect(imported.status == 0, "\(imported.stderr)")
        let exported = try runBinary(["export", "--map", repoFile(map), "--store", first.location])
        #expect(exported.status == 0, "\(exported.stderr)")
        let exportFile = directory.path("export.json")
        directory.write("export.json", exported.stdout)
        let again = try EndToEnd.importFeed(exportFile, map: map, store: second.location)
        #expect(again.status == 0, "\(again.stderr)")
        let plan = try RoundTripCase.plan(map)
        let before = try Self.graph(first, plan: plan)
        let after = try Self.graph(second, plan: plan)
        #expect(before.values.contains { !$0.isEmpty }, "the feed imported nothing")
        let differences = GraphDump.differences(before, after)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    /// The store's graph as text: a SQLite store's with each value's type, either's by keys.
    static func graph(_ store: StoreUnderTest, plan: ImportPlan) throws -> [String: [String]] {
        store.kind == .sqlite ? try GraphDump.tables(store.location, plan: plan) : try store.rows(plan: plan)
    }
}

@Suite("Export: round trip of the samples")
struct ExportRoundTripSampleTests {
    @Test(arguments: StoreKind.testable, RoundTripCase.samples)
    func exportImportsAgainToTheSameGraph(_ kind: StoreKind, _ feed: RoundTripCase) throws {
        try feed.expectSameGraphAfterRoundTrip(on: kind)
    }

    /// The tweets sample imported into each store, read back: the export of the document and of
    /// an entity (by condition, by key, as JSON Lines) is the same text from both.
    @Test(needsPostgres) func aPostgreSQLStorePrintsTheSameExportAsASQLiteOne() throws {
        let stores = [try StoreUnderTest(.sqlite), try StoreUnderTest(.postgresql)]
        for store in stores {
            let imported = try EndToEnd.importFeed(repoFile("Samples/tweets.json"), map: "Mappings/tweets.map", store: store.location)
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        let requests: [[String]] = [
            [], ["Tweet", "--where", #"lang = "en" and retweetCount >= 1"#, "--format", "jsonl"], ["User", "--key", "134217728", "--depth", "0"],
            ["Tweet", "--where", #"text != "x" and author = 134217728"#, "--depth", "1"],
        ]
        for request in requests {
            let outputs = try stores.map { store in
                try runBinary(["export", "--map", repoFile("Mappings/tweets.map"), "--store", store.location, "--quiet"] + request)
            }
            #expect(outputs.allSatisfy { $0.status == 0 }, "\(outputs.map(\.stderr))")
            #expect(outputs[0].stdout.count > 2)
            #expect(outputs[0].stdout == outputs[1].stdout, "export \(request.joined(separator: " ")) differs")
        }
    }
}

extension CorpusSuite {
    @Suite("Export: round trip of the corpus")
    struct ExportRoundTripCorpusTests {
        @Test(arguments: StoreKind.testable, RoundTripCase.corpus)
        func exportImportsAgainToTheSameGraph(_ kind: StoreKind, _ feed: RoundTripCase) throws {
            try feed.expectSameGraphAfterRoundTrip(on: kind)
        }
    }
}
