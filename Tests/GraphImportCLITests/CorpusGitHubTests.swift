import Foundation
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

extension CorpusSuite {
    /// GitHub REST v3 events (polymorphic payloads, anonymous actors, compact and full repos) and the
    /// octokit/fixtures recordings of issue pages and an issue search, imported by the binary. Every
    /// expected value was read from the JSON with python3. (octokit.rb-issues.json is in
    /// EndToEndCorpusTests.)
    @Suite("GitHub")
    struct GitHubTests {
        static let eventTables = ["events", "users", "repos", "orgs", "issues", "comments", "pull_requests", "commits", "events_commits"]

        static func eventCounts(_ values: [Int]) -> [String: Int] { Dictionary(uniqueKeysWithValues: zip(eventTables, values)) }

        static let feeds: [FeedCase] = [
            FeedCase(
                source: .corpus("github/octokit.rb-repo_events.json"), map: "Mappings/github-events.map",
                counts: eventCounts([30, 9, 5, 0, 4, 7, 2, 3, 3]),
                rows: [
                    // A string event id read as an integer; the issue of an IssuesEvent payload.
                    (
                        "SELECT e.kind, e.created_at, i.number, i.title, u.login FROM events e JOIN issues i ON i.pk = e.issue_pk"
                            + " JOIN users u ON u.pk = e.actor_pk WHERE e.id = 1513284402",
                        "IssuesEvent|2012-01-21T10:27:24.000Z|938|NoMethodError in Rails_admin/main#edit |wildDAlex"
                    ),
                    ("SELECT count(*) FROM events e JOIN users u ON u.pk = e.actor_pk WHERE u.login = 'bbenezech'", "18"),
                    // The compact repo at the top of every event and the full one in pull request payloads merge;
                    // the full copies say 2722, 2722, then 2724 watchers: the last one read stays.
                    ("SELECT id, watchers, language FROM repos WHERE url = 'https://api.github.com/repos/sferik/rails_admin'", "810796|2724|Ruby"),
                    ("SELECT count(*) FROM events e JOIN repos r ON r.pk = e.repo_pk WHERE r.id = 810796", "30"),
                    (
                        "SELECT p.number, h.url FROM events e JOIN pull_requests p ON p.pk = e.pull_request_pk JOIN repos h ON h.pk = p.head_pk"
                            + " WHERE e.id = 1513221979",
                        "937|https://api.github.com/repos/reinkcar/rails_admin"
                    ),
                    (
                        "SELECT c.commit_id, u.login FROM events e JOIN comments c ON c.pk = e.comment_pk JOIN users u ON u.pk = c.user_pk WHERE e.id = 1513194035",
                        "135a4693fa231dd0fa0438a20bf4835be75f2772|sferik"
                    ),
                ]),
            FeedCase(
                source: .corpus("github/octokit.rb-public_events.json"), map: "Mappings/github-events.map",
                counts: eventCounts([30, 27, 26, 5, 1, 0, 0, 21, 22]),
                rows: [
                    // `public` is 0 in the one FollowEvent.
                    (
                        "SELECT e.public, a.login, f.login FROM events e JOIN users a ON a.pk = e.actor_pk JOIN users f ON f.pk = e.followed_pk"
                            + " WHERE e.id = 1513284725",
                        "0|gaqzi|dafoe"
                    ),
                    ("SELECT count(*) FROM events WHERE public = 1", "29"),
                    // The two gist events' anonymous actors and placeholder repos have no id: `unkeyed skip`
                    // leaves the links null (and no row is made for them).
                    ("SELECT count(*) FROM events WHERE kind = 'GistEvent' AND actor_pk IS NULL AND repo_pk IS NULL AND org_pk IS NULL", "2"),
                    // 7 events name one of 5 orgs by id; the other 23 carry {"url": ".../orgs/"}.
                    (
                        "SELECT group_concat(login || ':' || n, ',') FROM (SELECT o.login, count(*) AS n FROM events e JOIN orgs o ON o.pk = e.org_pk"
                            + " GROUP BY o.pk ORDER BY o.login)",
                        "LaFeuille:1,chyrp:2,frogatto:1,mate-desktop:1,pchtrakt:2"
                    ),
                    ("SELECT r.url FROM events e JOIN repos r ON r.pk = e.fork_pk WHERE e.id = 1513284739", "https://api.github.com/repos/gibbonweb/chyrp"),
                    ("SELECT id, created_at FROM events ORDER BY id DESC LIMIT 1", "1513284759|2012-01-21T10:33:50.000Z"),
                ]),
            FeedCase(
                source: .corpus("github/octokit-fixtures-paginate-issues.json"), map: "Mappings/github-fixtures-issues.map",
                counts: ["issues": 13, "users": 1],
                rows: [
                    ("SELECT number, title, created_at, comments FROM issues ORDER BY number DESC LIMIT 1", "13|Test issue 13|2017-10-10T16:00:00.000Z|42"),
                    ("SELECT count(*) FROM issues i JOIN users u ON u.pk = i.author_pk WHERE u.login = 'octokit-fixture-user-a'", "13"),
                ]),
            FeedCase(
                source: .corpus("github/octokit-fixtures-search-issues.json"), map: "Mappings/github-fixtures-issues.map",
                counts: ["issues": 2, "users": 2],
                rows: [
                    (
                        "SELECT i.number, u.login, i.score, hex(i.body) FROM issues i JOIN users u ON u.pk = i.author_pk WHERE i.number = 2",
                        "2|octokit-fixture-user-b|42|\(EndToEnd.hex("I\u{2019}ve waited all year long, but there was no pop 😭"))"
                    ),
                    ("SELECT i.title FROM users u JOIN issues i ON i.author_pk = u.pk WHERE u.login = 'octokit-fixture-user-a'", "The doors don\u{2019}t open"),
                ]),
        ]

        @Test(arguments: feeds)
        func importsExactRows(_ feed: FeedCase) throws { try feed.expectImportsExactRows() }

        @Test(arguments: feeds)
        func reimportChangesNothing(_ feed: FeedCase) throws { try feed.expectReimportChangesNothing() }

        @Test(needsPostgres, arguments: feeds)
        func postgresHoldsTheGraphSQLiteHolds(_ feed: FeedCase) throws { try feed.expectTheSameGraphOnBothStores() }

        /// Both event files into one store: users, repos and commits they share are one row each.
        @Test func bothEventListsGiveOneGraph() throws {
            let dir = TemporaryDirectory()
            let store = dir.path("events.sqlite")
            for name in ["octokit.rb-repo_events.json", "octokit.rb-public_events.json"] {
                let feed = try #require(Corpus.file("github/" + name)).path
                let result = try EndToEnd.importFeed(feed, map: "Mappings/github-events.map", store: store)
                #expect(result.status == 0, "\(result.stderr)")
            }
            #expect(try EndToEnd.counts(store, Self.eventTables) == Self.eventCounts([60, 36, 31, 5, 5, 7, 2, 24, 25]))
        }

        /// The events `unkeyed skip` left out are counted with their paths, in the text summary and
        /// with `--json`; the run still exits 0.
        @Test func anonymousActorsAndOrgsWithoutIdsAreCountedAsSkipped() throws {
            let dir = TemporaryDirectory()
            let feed = try #require(Corpus.file("github/octokit.rb-public_events.json")).path
            let text = try EndToEnd.importFeed(feed, map: "Mappings/github-events.map", store: dir.path("text.sqlite"))
            #expect(text.status == 0)
            #expect(
                text.stderr.contains(
                    "  skipped 2 elements of Event.actor (unkeyed skip): an object without its key 'id' at $[9].actor, $[29].actor\n"))
            let json = try EndToEnd.importFeed(feed, map: "Mappings/github-events.map", store: dir.path("json.sqlite"), ["--json"])
            #expect(json.status == 0)
            let skipped = try #require(try EndToEnd.summary(json)["skipped_elements"] as? [String: [String: Any]])
            #expect(skipped.keys.sorted() == ["Event.actor", "Event.org", "Event.repo"])
            #expect(skipped["Event.org"]?["count"] as? Int == 23)
            #expect(skipped["Event.repo"]?["paths"] as? [String] == ["$[9].repo", "$[21].repo", "$[29].repo"])
            #expect(skipped["Event.actor"]?["reason"] as? String == "an object without its key 'id'")
        }

        @Test func searchKeepsTotalCountAndDate() throws {
            let dir = TemporaryDirectory()
            let store = dir.path("search.sqlite")
            let feed = try #require(Corpus.file("github/octokit-fixtures-search-issues.json")).path
            #expect(try EndToEnd.importFeed(feed, map: "Mappings/github-fixtures-issues.map", store: store).status == 0)
            #expect(try FeedCase.meta(store, "totalCount") == "2")
            #expect(try FeedCase.meta(store, "fetchedAt") == "2017-10-10T16:00:00.000Z")
        }
    }
}
