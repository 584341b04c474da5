import GraphImport
import GraphImportStoreTestSupport
import Testing

/// `merge`, `link existing` and link attributes give the same rows, counts and unlinked keys on
/// PostgreSQL as on SQLite, however the run is cut into batches.
@Suite("PostgreSQL: relationship policies as on SQLite", needsPostgres)
struct PostgresLinkPolicyTests {
    static let map = """
        records at tags[*] as Tag missing empty
        records at posts[*] as Post missing empty
        entity Tag
          key id
          id : Int
          name : String?
        entity Post
          key id
          id : Int
          title : String?
          tags <- tag_ids : [Tag] link existing
          editor <- editor_id : User? link existing
          readers : [User] each user merge
            link role : String
            link seen <- seen_at : Int?
          followers <- follower_ids : [User] merge link existing
          mentions : [User]
            link at : Int?
        entity User
          key id
          id : Int
          name : String?
        """

    /// Post 1 names editor 5 before its readers write user 5 (not linked), tag 3 that no feed
    /// gives, and comes again with a second page of readers and followers and an unknown editor.
    static let first = """
        {"tags": [{"id": 1, "name": "a"}, {"id": 2}], "posts": [
          {"id": 1, "title": "one", "tag_ids": [1, 3, 2, 1], "editor_id": 5,
           "readers": [{"user": {"id": 5, "name": "Eve"}, "role": "admin"}, {"user": {"id": 6}, "role": "member", "seen_at": 3}],
           "follower_ids": [5, 9], "mentions": [{"id": 6, "at": 1}, {"id": 7}]},
          {"id": 2, "tag_ids": [4], "editor_id": 6, "follower_ids": [7]},
          {"id": 1, "readers": [{"user": {"id": 8}, "role": "member"}, {"user": {"id": 6}, "role": "member", "seen_at": 3}],
           "editor_id": 99, "follower_ids": [9, 6]}]}
        """

    /// Another page for post 1 (user 9 now exists, a changed role), a new post, and post 2's mentions emptied.
    static let second = """
        {"tags": [{"id": 3, "name": "c"}], "posts": [
          {"id": 1, "tag_ids": [2, 3], "readers": [{"user": {"id": 9}, "role": "member"}, {"user": {"id": 5}, "role": "member"}],
           "follower_ids": [9, 5]},
          {"id": 3, "readers": [{"user": {"id": 6}, "role": "admin"}], "follower_ids": [6, 6, 11], "editor_id": 9},
          {"id": 2, "mentions": []}]}
        """

    struct Outcome: Equatable {
        var rows: [String: [String]]
        var counts: [[String: [Int]]]
        var unlinked: [[String]]
    }

    static func run(_ kind: StoreKind, batchSize: Int) throws -> Outcome {
        let store = try MappedStore(kind, map: map, batchSize: batchSize)
        var outcome = Outcome(rows: [:], counts: [], unlinked: [])
        for feed in [first, first, second, second] {
            let summary = try store.importJSON(feed)
            outcome.counts.append(countsByEntity(summary))
            outcome.unlinked += summary.unlinked.map { [$0.member, $0.target, String($0.count)] + $0.samples.map { "\($0.key) at \($0.path)" } }
            outcome.unlinked.append(["--"])
        }
        outcome.rows = try store.rows()
        return outcome
    }

    @Test(arguments: [5000, 3, 1])
    func theSameFeedsGiveTheSameRowsCountsAndUnlinkedKeysInBothStores(batchSize: Int) throws {
        let sqlite = try Self.run(.sqlite, batchSize: batchSize)
        let postgres = try Self.run(.postgresql, batchSize: batchSize)
        #expect(postgres.rows == sqlite.rows)
        #expect(postgres.counts == sqlite.counts)
        #expect(postgres.unlinked == sqlite.unlinked)
        // What both hold: post 1's readers merged over four runs, with their link values.
        #expect(
            sqlite.rows["posts_readers"]?.filter { $0.hasPrefix("1|") } == ["1|5|0|member|NULL", "1|6|1|member|3", "1|8|2|member|NULL", "1|9|3|member|NULL"])
        #expect(sqlite.rows["posts_followers"]?.filter { $0.hasPrefix("1|") } == ["1|5|0", "1|6|1", "1|9|2"])
        // A post's to-ones are linked before its to-manys: editor 5 is not yet written.
        #expect(
            sqlite.unlinked.prefix(2) == [
                ["Post.editor", "User", "2", "5 at $.posts[0].editor_id", "99 at $.posts[2].editor_id"],
                ["Post.tags", "Tag", "2", "3 at $.posts[0].tag_ids[1]", "4 at $.posts[1].tag_ids[0]"],
            ])
        #expect(sqlite.counts[1]["Post"] == [0, 1, 1, 0] && sqlite.counts[3]["Post"] == [0, 0, 3, 0])
    }

    /// A list whose stored positions have a gap (a join row removed by hand): a page that adds
    /// nothing leaves it as it is; one that adds a target numbers the merged list from 0.
    @Test func aMergedListWithAGapIsNumberedAnewOnlyWhenItChanges() throws {
        let map = """
            records at $ as Repo
            entity Repo
              key id
              id : Int
              stargazers : [User] merge
                link since : Int?
            entity User
              key id
              id : Int
            """
        var outcomes: [StoreKind: [[[String]]]] = [:]
        for kind in StoreKind.allCases {
            let store = try MappedStore(kind, map: map)
            try store.importJSON(#"{"id": 1, "stargazers": [{"id": 1, "since": 1}, {"id": 2}, {"id": 3, "since": 3}]}"#)
            try store.execute(#"DELETE FROM repos_stargazers WHERE users_pk = (SELECT pk FROM "users" WHERE id = 2)"#)
            let rows = #"SELECT u.id, j.position, j.since FROM repos_stargazers j JOIN "users" u ON u.pk = j.users_pk ORDER BY j.position"#
            let same = try store.importJSON(#"{"id": 1, "stargazers": [{"id": 3, "since": 3}]}"#)
            let kept = try store.select(rows)
            let added = try store.importJSON(#"{"id": 1, "stargazers": [{"id": 4}, {"id": 1, "since": 1}]}"#)
            outcomes[kind] = [kept, try store.select(rows), [countsByEntity(same)["Repo"]!.map(String.init), countsByEntity(added)["Repo"]!.map(String.init)]]
        }
        #expect(outcomes[.postgresql] == outcomes[.sqlite])
        #expect(
            outcomes[.sqlite] == [
                [["1", "0", "1"], ["3", "2", "3"]], [["1", "0", "1"], ["3", "1", "3"], ["4", "2", "NULL"]], [["0", "0", "1", "0"], ["0", "1", "0", "0"]],
            ])
    }
}
