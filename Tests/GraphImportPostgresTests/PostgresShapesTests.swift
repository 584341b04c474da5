import Foundation
import GraphImport
import GraphImportSchema
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// Polymorphic relationships and owned entities: the same feeds give the same rows, counts and
/// deletions in both stores, whatever the batch size (a batch of 1 splits every record).
@Suite("PostgreSQL: polymorphic relationships and owned entities as in SQLite", needsPostgres)
struct PostgresShapesTests {
    /// What a run of feeds leaves in each store, and what each import said.
    struct Outcome: Equatable {
        var rows: [String: [String]]
        var counts: [[String: [Int]]]
        var deletions: [[Deletions]]
    }

    static func outcome(_ kind: StoreKind, map: String, feeds: [String], batchSize: Int, options: ImportOptions = .init()) throws -> Outcome {
        let plan = try ImportPlan.compile(text: map, fileName: "test.map")
        let store = try StoreUnderTest(kind, batchSize: batchSize)
        var result = Outcome(rows: [:], counts: [], deletions: [])
        for feed in feeds {
            let summary = try store.importJSON(feed, plan: plan, options: options).get()
            result.counts.append(countsByEntity(summary))
            result.deletions.append(summary.deletions)
        }
        result.rows = try store.rows(plan: plan)
        return result
    }

    static let contactsMap = """
        records at people[*] as Person
        entity Person
          key id
          id : Int
          name : String
          addresses : [Address]
          phones <- phone_numbers : [Phone]
          home : Home?
        entity Address owned
          street : String
          city : String
        entity Phone owned
          number : String
          label : String?
        entity Home owned table homes
          city : String
        """

    /// Lists that grow, shrink, change in the middle, empty, go absent; a lone object that moves
    /// and is cleared; an owner twice in one feed (its last list holds).
    static let contactsFeeds = [
        #"""
        {"people": [
          {"id": 1, "name": "Ann", "addresses": [{"street": "1 Main St", "city": "Oslo"}, {"street": "2 Side St", "city": "Bergen"},
                                                 {"street": "3 Back St", "city": "Bergen"}],
           "phone_numbers": [{"number": "+47 1"}], "home": {"city": "Oslo"}},
          {"id": 2, "name": "Bob", "addresses": [{"street": "1 Main St", "city": "Oslo"}], "phone_numbers": [], "home": {"city": "Rome"}},
          {"id": 3, "name": "Cy", "addresses": [{"street": "9 End St", "city": "Oslo"}], "phone_numbers": [{"number": "+1"}, {"number": "+2"}]}
        ]}
        """#,
        #"""
        {"people": [
          {"id": 1, "name": "Ann", "addresses": [{"street": "1 Main St", "city": "Oslo"}, {"street": "2 Side St", "city": "Trondheim"}],
           "home": null},
          {"id": 2, "name": "Bob", "addresses": [], "phone_numbers": [{"number": "+46 1", "label": "work"}], "home": {"city": "Paris"}},
          {"id": 3, "name": "Cy", "phone_numbers": [{"number": "+1"}, {"number": "+2"}, {"number": "+3"}]},
          {"id": 3, "name": "Cy", "phone_numbers": [{"number": "+1"}]},
          {"id": 4, "name": "Di", "addresses": null, "home": {"city": "Oslo"}}
        ]}
        """#,
    ]

    @Test(arguments: [5000, 3, 1])
    func ownedObjectsGiveTheSameRowsCountsAndDeletionsInBothStores(batchSize: Int) throws {
        let feeds = Self.contactsFeeds + [Self.contactsFeeds[0], Self.contactsFeeds[0]]
        let sqlite = try Self.outcome(.sqlite, map: Self.contactsMap, feeds: feeds, batchSize: batchSize)
        let postgres = try Self.outcome(.postgresql, map: Self.contactsMap, feeds: feeds, batchSize: batchSize)
        #expect(postgres.rows == sqlite.rows)
        #expect(postgres.counts == sqlite.counts)
        #expect(postgres.deletions == sqlite.deletions)
        // The feeds do delete: a shorter list, an emptied one, a cleared lone object; Cy's third
        // phone, written by his first occurrence, goes with his last, and counts as deleted only.
        #expect(
            sqlite.deletions[1] == [
                Deletions(entity: "Address", count: 2, sampleKeys: ["(1, 2)", "(2, 0)"]),
                Deletions(entity: "Phone", count: 2, sampleKeys: ["(3, 1)", "(3, 2)"]), Deletions(entity: "Home", count: 1, sampleKeys: ["(1, 0)"]),
            ])
        #expect(sqlite.counts[1]["Phone"] == [1, 0, 1, 0])
        #expect(sqlite.deletions[3].isEmpty)
    }

    /// An owner keyed by two attributes: its owned rows carry both parts, and are matched by both.
    @Test func ownedObjectsOfAnOwnerWithATwoPartKeyGiveTheSameRowsInBothStores() throws {
        let map = """
            records at $[*] as Repo
            entity Repo
              key owner, name
              owner : String
              name : String
              labels : [Label]
              license : License?
            entity Label owned
              text : String
            entity License owned
              spdx : String
            """
        let feeds = [
            #"[{"owner": "a", "name": "x", "labels": [{"text": "bug"}, {"text": "ui"}], "license": {"spdx": "MIT"}}, {"owner": "x", "name": "a", "labels": [{"text": "ui"}]}]"#,
            #"[{"owner": "a", "name": "x", "labels": [{"text": "ui"}], "license": null}, {"owner": "x", "name": "a", "labels": [{"text": "ui"}, {"text": "new"}]}]"#,
        ]
        let sqlite = try Self.outcome(.sqlite, map: map, feeds: feeds, batchSize: 5000)
        let postgres = try Self.outcome(.postgresql, map: map, feeds: feeds, batchSize: 5000)
        #expect(postgres.rows == sqlite.rows)
        #expect(postgres.counts == sqlite.counts)
        #expect(postgres.deletions == sqlite.deletions)
        #expect(
            sqlite.deletions[1] == [
                Deletions(entity: "Label", count: 1, sampleKeys: ["('a', 'x', 1)"]), Deletions(entity: "License", count: 1, sampleKeys: ["('a', 'x', 0)"]),
            ])
    }

    /// A dry run says what it would delete, and deletes nothing.
    @Test func aDryRunReportsTheOwnedObjectsItWouldDeleteInBothStores() throws {
        var dryRun = ImportOptions()
        dryRun.dryRun = true
        let plan = try ImportPlan.compile(text: Self.contactsMap, fileName: "test.map")
        var outcomes: [StoreKind: [Deletions]] = [:]
        for kind in StoreKind.allCases {
            let store = try StoreUnderTest(kind)
            _ = try store.importJSON(Self.contactsFeeds[0], plan: plan).get()
            let before = try store.rows(plan: plan)
            outcomes[kind] = try store.importJSON(Self.contactsFeeds[1], plan: plan, options: dryRun).get().deletions
            #expect(try store.rows(plan: plan) == before)
        }
        #expect(outcomes[.postgresql] == outcomes[.sqlite])
        #expect(outcomes[.sqlite]?.map(\.count) == [2, 2, 1])
    }

    static let threadMap = """
        records at posts[*] as Post
        records at comments[*] as Comment
        entity Post
          key name
          name : String
          title : String
        entity Comment
          key name
          name : String
          body : String
          parent <- parent_id : (Post | Comment)? by $
            has prefix "t3_" -> Post
            has prefix "t1_" -> Comment
            else -> ignore
          media <- items : [Photo | Video] by type
            "photo" -> Photo
            "video" -> Video
        entity Photo
          key id
          id : Int
          width : Int?
        entity Video
          key id
          id : Int
        """

    /// Parents that change entity, stubs of either entity, an ignored parent; media that move
    /// between the join tables, and an element whose id names a photo and a video.
    static let threadFeeds = [
        #"""
        {"posts": [{"name": "t3_a", "title": "A"}],
         "comments": [{"name": "t1_b", "body": "b", "parent_id": "t3_a", "items": [{"type": "photo", "id": 1, "width": 3}, {"type": "video", "id": 1}]},
                      {"name": "t1_c", "body": "c", "parent_id": "t1_b", "items": []},
                      {"name": "t1_d", "body": "d", "parent_id": "t3_zz"}]}
        """#,
        #"""
        {"posts": [],
         "comments": [{"name": "t1_b", "body": "b", "parent_id": "t1_zz", "items": [{"type": "video", "id": 1}, {"type": "video", "id": 2}]},
                      {"name": "t1_c", "body": "c", "parent_id": "t3_a", "items": [{"type": "photo", "id": 1}]},
                      {"name": "t1_d", "body": "d", "parent_id": "x_other"}]}
        """#,
    ]

    @Test(arguments: [5000, 2, 1])
    func polymorphicRelationshipsGiveTheSameRowsAndCountsInBothStores(batchSize: Int) throws {
        let feeds = Self.threadFeeds + [Self.threadFeeds[1]]
        let sqlite = try Self.outcome(.sqlite, map: Self.threadMap, feeds: feeds, batchSize: batchSize)
        let postgres = try Self.outcome(.postgresql, map: Self.threadMap, feeds: feeds, batchSize: batchSize)
        #expect(postgres.rows == sqlite.rows)
        #expect(postgres.counts == sqlite.counts)
        #expect(sqlite.rows["comments"]?.count == 4)
        #expect(sqlite.rows["comments_media_video"]?.count == 2)
    }

    /// Reddit's listings: things chosen by `kind`, a comment's parent a post or a comment.
    @Test(
        .enabled(if: Corpus.isPresent, Comment(rawValue: Corpus.skipReason)),
        arguments: [
            "reddit/listings-posts-comments-subreddits.json", "reddit/post-post.json", "reddit/comment-more.json", "reddit/user-overview.json",
        ])
    func redditListingsGiveTheSameRowsAndCountsInBothStores(file: String) throws {
        try Self.expectCorpusParity(file, map: "reddit.map")
    }

    /// GitHub's events: records chosen by `type`, the anonymous actors left out by `unkeyed skip`.
    @Test(
        .enabled(if: Corpus.isPresent, Comment(rawValue: Corpus.skipReason)),
        arguments: ["github/octokit.rb-public_events.json", "github/octokit.rb-repo_events.json"])
    func githubEventsGiveTheSameRowsAndCountsInBothStores(file: String) throws {
        try Self.expectCorpusParity(file, map: "github-events.map")
    }

    /// A corpus file imported twice into each store.
    static func expectCorpusParity(_ file: String, map name: String) throws {
        let map = try String(contentsOf: repositoryRoot.appendingPathComponent("Mappings/\(name)"), encoding: .utf8)
        let feed = try String(contentsOf: try #require(Corpus.file(file)), encoding: .utf8)
        let sqlite = try Self.outcome(.sqlite, map: map, feeds: [feed, feed], batchSize: 5000)
        let postgres = try Self.outcome(.postgresql, map: map, feeds: [feed, feed], batchSize: 5000)
        #expect(postgres.rows == sqlite.rows)
        #expect(postgres.counts == sqlite.counts)
        #expect(sqlite.rows.values.contains { !$0.isEmpty })
    }
}
