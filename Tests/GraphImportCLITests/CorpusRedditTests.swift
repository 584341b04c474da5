import Foundation
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

extension CorpusSuite {
    /// Reddit Listings (one, two in an array, or a /api/morechildren response) of posts, comments and
    /// subreddits chosen by `kind`, imported by the binary. Every expected value was read from the
    /// JSON with python3. A comment's `replies` is a Listing or "": the files holding a "" need the
    /// engine to read "" as "no replies" (see the report of issue 5).
    @Suite("Reddit")
    struct RedditTests {
        static let map = "Mappings/reddit.map"
        static let tables = ["posts", "comments", "subreddits"]

        static func counts(_ values: [Int]) -> [String: Int] { Dictionary(uniqueKeysWithValues: zip(tables, values)) }

        static let feeds: [FeedCase] = [
            FeedCase(
                source: .corpus("reddit/subreddit-search-posts.json"), map: map, counts: counts([2, 0, 2]),
                rows: [
                    // Integer epoch seconds here.
                    ("SELECT title, created_at, score FROM posts WHERE name = 't3_hybow9'", "Pregnancy test|2020-07-26T18:14:24.000Z|103829"),
                    ("SELECT s.name, s.title IS NULL FROM posts p JOIN subreddits s ON s.pk = p.subreddit_pk WHERE p.id = 'hmwhd7'", "t5_2qh13|1"),
                ]),
            FeedCase(
                source: .corpus("reddit/subreddit-list.json"), map: map, counts: counts([0, 0, 3]),
                rows: [
                    // Float epoch seconds here.
                    ("SELECT display_name, created_at, subscribers FROM subreddits WHERE name = 't5_2qh1i'", "AskReddit|2008-01-25T03:52:15.000Z|28449174"),
                    ("SELECT json_extract(raw, '$.display_name_prefixed') FROM subreddits WHERE id = '2qs0k'", "r/Home"),
                ]),
            FeedCase(
                source: .corpus("reddit/post-duplicates.json"), map: map, counts: counts([3, 0, 1]),
                rows: [
                    ("SELECT name, created_at FROM posts ORDER BY created_at LIMIT 1", "t3_le1tc|2011-10-16T13:26:40.000Z"),
                    ("SELECT count(*) FROM posts WHERE edited IS NULL", "3"),
                ]),
            FeedCase(
                source: .corpus("reddit/post-post.json"), map: map, counts: counts([1, 2, 1]),
                rows: [
                    ("SELECT title, created_at FROM posts WHERE name = 't3_testpost'", "Test|2020-07-18T10:26:07.000Z"),
                    // The reply tree, both ways.
                    (
                        "SELECT c.name FROM comments p JOIN comments_replies r ON r.comments_pk = p.pk JOIN comments c ON c.pk = r.replies_pk WHERE p.name = 't1_testc1'",
                        "t1_testc2"
                    ),
                    (
                        "SELECT p.body FROM comments c JOIN comments_replies r ON r.replies_pk = c.pk JOIN comments p ON p.pk = r.comments_pk WHERE c.id = 'testc2'",
                        "Hi"
                    ),
                    ("SELECT count(*) FROM posts p JOIN comments c ON c.post_pk = p.pk WHERE p.id = 'testpost'", "2"),
                    // `parent_id`: a post for the top-level comment, a comment for the reply, the
                    // other column NULL; one query for both, naming the entity chosen.
                    (
                        "SELECT c.name, CASE WHEN c.parent_post_pk IS NOT NULL THEN 'Post' ELSE 'Comment' END, coalesce(pp.name, pc.name) FROM comments c LEFT JOIN posts pp ON pp.pk = c.parent_post_pk LEFT JOIN comments pc ON pc.pk = c.parent_comment_pk ORDER BY c.name",
                        "t1_testc1|Post|t3_testpost\nt1_testc2|Comment|t1_testc1"
                    ),
                    // `"edited": false` (never edited) stored as NULL by `nullIfFalse`.
                    ("SELECT created_at, edited IS NULL FROM comments WHERE name = 't1_testc2'", "2020-07-18T10:32:28.000Z|1"),
                ]),
            FeedCase(
                source: .corpus("reddit/listings-posts-comments-subreddits.json"), map: map, counts: counts([1, 1, 1]),
                rows: [
                    (
                        "SELECT c.name, p.name, s.name FROM comments c JOIN posts p ON p.pk = c.post_pk JOIN subreddits s ON s.pk = p.subreddit_pk",
                        "t1_g05v931|t3_i2gvg4|t5_2qh23"
                    )
                ]),
            FeedCase(
                source: .corpus("reddit/user-overview.json"), map: map, counts: counts([2, 1, 2]),
                rows: [
                    // The comment's post is not in the file: a stub keyed by its fullname.
                    ("SELECT p.name, p.title IS NULL FROM comments c JOIN posts p ON p.pk = c.post_pk WHERE c.name = 't1_f0zsa37'", "t3_d7ejpn|1")
                ]),
            FeedCase(
                source: .corpus("reddit/comment-more.json"), map: map, counts: counts([1, 4, 1]),
                rows: [
                    // `parent_id` is a comment here ("t1_…"): t1_abc is not in the file, so a stub.
                    (
                        "SELECT c.name, p.name, p.body IS NULL, c.parent_post_pk IS NULL FROM comments c JOIN comments p ON p.pk = c.parent_comment_pk ORDER BY c.name",
                        "t1_def|t1_abc|1|1\nt1_ghi|t1_abc|1|1\nt1_jkl|t1_def|0|1"
                    ),
                    ("SELECT count(*) FROM posts p JOIN comments c ON c.post_pk = p.pk WHERE p.name = 't3_123'", "3"),
                ]),
        ]

        @Test(arguments: feeds)
        func importsExactRows(_ feed: FeedCase) throws { try feed.expectImportsExactRows() }

        @Test(arguments: feeds)
        func reimportChangesNothing(_ feed: FeedCase) throws { try feed.expectReimportChangesNothing() }

        @Test(needsPostgres, arguments: feeds)
        func postgresHoldsTheGraphSQLiteHolds(_ feed: FeedCase) throws { try feed.expectTheSameGraphOnBothStores() }

        @Test func listingKeepsItsAfterCursor() throws {
            let dir = TemporaryDirectory()
            let store = dir.path("reddit.sqlite")
            let feed = try #require(Corpus.file("reddit/subreddit-search-posts.json")).path
            #expect(try EndToEnd.importFeed(feed, map: Self.map, store: store).status == 0)
            #expect(try FeedCase.meta(store, "after") == "t3_hmwhd7")
        }
    }
}
