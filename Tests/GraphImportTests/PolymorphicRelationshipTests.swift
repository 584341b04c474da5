import GraphImport
import GraphImportJSON
import GraphImportSchema
import GraphImportStoreTestSupport
import Testing

/// Reddit's things: a comment's `parent_id` is the fullname of a post ("t3_…") or of a comment ("t1_…").
private let threadMap = """
    records at posts[*] as Post
    records at comments[*] as Comment
    entity Post
      key name
      delete missing
      name : String
      title : String
    entity Comment
      key name
      name : String
      body : String
      parent <- parent_id : (Post | Comment) by $ delete cascade
        has prefix "t3_" -> Post
        has prefix "t1_" -> Comment
    """

private func thread(posts: [String] = ["t3_a"], _ comments: [(name: String, parent: String)]) -> String {
    let postJSON = posts.map { #"{"name":"\#($0)","title":"T \#($0)"}"# }.joined(separator: ",")
    let commentJSON = comments.map { #"{"name":"\#($0.name)","body":"b","parent_id":"\#($0.parent)"}"# }.joined(separator: ",")
    return #"{"posts":[\#(postJSON)],"comments":[\#(commentJSON)]}"#
}

/// An album's items say what they are in `type`: one to-many into two entities.
private let albumMap = """
    records at $[*] as Album
    entity Album
      key id
      id : Int
      media <- items : [Photo | Video] by type
        "photo" -> Photo
        "video" -> Video
        "ad" -> ignore
    entity Photo
      key id
      id : Int
      width : Int?
    entity Video
      key id
      id : Int
      seconds : Int?
    """

/// The thread map without `delete missing`.
private let keptThreadMap = threadMap.replacingOccurrences(of: "  delete missing\n", with: "")

/// A store of `kind` and the plan of `map`, for imports into either store.
private func storeAndPlan(_ kind: StoreKind, _ map: String) throws -> (StoreUnderTest, ImportPlan) {
    (try StoreUnderTest(kind), try ImportPlan.compile(text: map, fileName: "test.map"))
}

@Suite("Polymorphic relationships")
struct PolymorphicRelationshipTests {
    @Test(arguments: StoreKind.testable)
    func theFormOfTheKeyChoosesTheEntityOfAToOne(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(kind, keptThreadMap)
        let summary = try store.importJSON(thread([("t1_b", "t3_a"), ("t1_c", "t1_b")]), plan: plan).get()
        #expect(summary.counts(of: "Comment") == [2, 0, 0, 0])
        // One nullable foreign key per entity; the one that is set says which entity was chosen.
        #expect(
            try store.select(
                """
                SELECT c.name, CASE WHEN c.parent_post_pk IS NOT NULL THEN 'Post' ELSE 'Comment' END, coalesce(p.name, pc.name)
                FROM comments c LEFT JOIN posts p ON p.pk = c.parent_post_pk LEFT JOIN comments pc ON pc.pk = c.parent_comment_pk
                ORDER BY c.name
                """) == [["t1_b", "Post", "t3_a"], ["t1_c", "Comment", "t1_b"]])
    }

    /// One store: the text of SQLite's schema, no import.
    @Test func theColumnsAreRealForeignKeysOfEachEntity() throws {
        let fixture = try EngineFixture(map: threadMap)
        #expect(
            fixture.plan.schemaSQL.contains {
                $0.contains(#""parent_post_pk" INTEGER REFERENCES "posts"("pk") ON DELETE CASCADE"#)
                    && $0.contains(#""parent_comment_pk" INTEGER REFERENCES "comments"("pk") ON DELETE CASCADE"#)
            })
    }

    @Test(arguments: StoreKind.testable)
    func aKeyOfAnObjectNotYetStoredMakesAStubOfTheChosenEntity(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(kind, keptThreadMap)
        let summary = try store.importJSON(thread(posts: [], [("t1_b", "t1_zz"), ("t1_c", "t3_yy")]), plan: plan).get()
        #expect(summary.counts(of: "Comment") == [3, 0, 0, 0])
        #expect(summary.counts(of: "Post") == [1, 0, 0, 0])
        #expect(
            try store.select("SELECT name, coalesce(body, '(stub)') FROM comments ORDER BY name") == [
                ["t1_b", "b"], ["t1_c", "b"], ["t1_zz", "(stub)"],
            ])
        #expect(try store.select("SELECT name, coalesce(title, '(stub)') FROM posts") == [["t3_yy", "(stub)"]])
    }

    @Test(arguments: StoreKind.testable)
    func aParentThatChangesEntityClearsTheOtherColumn(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(kind, keptThreadMap)
        _ = try store.importJSON(thread([("t1_b", "t3_a"), ("t1_c", "t3_a")]), plan: plan).get()
        let summary = try store.importJSON(thread([("t1_b", "t3_a"), ("t1_c", "t1_b")]), plan: plan).get()
        #expect(summary.counts(of: "Comment") == [0, 1, 1, 0])
        #expect(
            try store.select(
                "SELECT CASE WHEN parent_post_pk IS NULL THEN 'none' ELSE 'post' END, CASE WHEN parent_comment_pk IS NULL THEN 'none' ELSE 'comment' END "
                    + "FROM comments WHERE name = 't1_c'") == [["none", "comment"]])
        let again = try store.importJSON(thread([("t1_b", "t3_a"), ("t1_c", "t1_b")]), plan: plan).get()
        #expect(!again.changed)
        #expect(again.counts(of: "Comment") == [0, 0, 2, 0])
    }

    @Test(arguments: StoreKind.testable)
    func deleteRulesFollowTheChosenEntity(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(kind, threadMap)
        _ = try store.importJSON(thread(posts: ["t3_a", "t3_b"], [("t1_x", "t3_a"), ("t1_y", "t1_x"), ("t1_z", "t3_b")]), plan: plan).get()
        // Post t3_a leaves the feed: its comment goes (cascade), and the reply to that comment with it.
        let summary = try store.importJSON(thread(posts: ["t3_b"], []), plan: plan).get()
        #expect(summary.deletionLines == ["Post 1: 't3_a'", "Comment 2: 't1_x', 't1_y'"])
        #expect(try store.select("SELECT name FROM comments ORDER BY name") == [["t1_z"]])
    }

    @Test(arguments: StoreKind.testable)
    func denyRefusesToDeleteAnObjectOfTheChosenEntity(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(kind, threadMap.replacingOccurrences(of: "delete cascade", with: "delete deny"))
        _ = try store.importJSON(thread(posts: ["t3_a", "t3_b"], [("t1_x", "t3_a"), ("t1_y", "t1_x")]), plan: plan).get()
        guard case .failure(let failure) = store.importJSON(thread(posts: ["t3_b"], []), plan: plan) else {
            Issue.record("expected the import to be denied")
            return
        }
        #expect(
            failure.text.hasPrefix("cannot delete Post 't3_a': Comment.parent denies it (1 Comment object links to it); nothing was deleted"),
            "\(failure.text)")
        #expect(try store.value("SELECT count(*) FROM posts") == "2")
    }

    @Test(arguments: StoreKind.testable)
    func aKeyNoCaseTakesFailsTheImportAndWritesNothing(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(kind, keptThreadMap)
        _ = try store.importJSON(thread([("t1_b", "t3_a")]), plan: plan).get()
        let before = try store.rows(plan: plan)
        guard case .failure(let failure) = store.importJSON(thread([("t1_b", "t3_a"), ("t1_c", "t5_sub")]), plan: plan) else {
            Issue.record("imported a comment whose parent no case takes")
            return
        }
        #expect(failure.text.contains("no case of the map for $ = 't5_sub'"), "\(failure.text)")
        #expect(failure.text.contains("$.comments[1].parent_id"), "\(failure.text)")
        #expect(try store.rows(plan: plan) == before)
    }

    @Test(arguments: StoreKind.testable)
    func aKeyNoCaseTakesIsARecordErrorWithItsPath(kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: threadMap)
        let error = fixture.recordFailure(thread([("t1_b", "t5_sub")]))
        #expect(error?.member == "Comment.parent")
        #expect(error?.message == "no case of the map for $ = 't5_sub'")
        #expect(
            error?.hint
                == "the map knows has prefix \"t3_\", has prefix \"t1_\"; add a case line below the relationship, or `else -> ignore` to pass such elements over"
        )
        #expect(error?.path == "$.comments[0].parent_id")
        #expect(try fixture.holdsNoData())
    }

    @Test(arguments: StoreKind.testable)
    func aRequiredToOneRefusesNull(kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: threadMap)
        let error = fixture.recordFailure(#"{"posts":[],"comments":[{"name":"t1_b","body":"b","parent_id":null}]}"#)
        #expect(error?.message == "is required but the value is null")
        #expect(error?.hint == "declare it optional: `: (Post | Comment)?`")
    }

    @Test(arguments: StoreKind.testable)
    func aFieldOfEachElementChoosesTheEntityOfAToMany(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(kind, albumMap)
        let summary = try store.importJSON(
            #"[{"id":1,"items":[{"type":"photo","id":5,"width":3},{"type":"ad","id":9},{"type":"video","id":5,"seconds":4},{"type":"photo","id":6}]}]"#,
            plan: plan
        ).get()
        #expect(summary.counts(of: "Photo") == [2, 0, 0, 0])
        #expect(summary.counts(of: "Video") == [1, 0, 0, 0])
        // A join table per entity; `position` orders each entity's links.
        #expect(
            try store.select(
                "SELECT photos.id, photos.width, position FROM albums_media_photo JOIN photos ON photos.pk = albums_media_photo.photos_pk ORDER BY position")
                == [["5", "3", "0"], ["6", "NULL", "1"]])
        #expect(
            try store.select("SELECT videos.id, videos.seconds FROM albums_media_video JOIN videos ON videos.pk = albums_media_video.videos_pk")
                == [["5", "4"]])
    }

    @Test(arguments: StoreKind.testable)
    func anElementThatChangesEntityMovesToTheOtherJoinTable(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(kind, albumMap)
        _ = try store.importJSON(#"[{"id":1,"items":[{"type":"photo","id":5},{"type":"video","id":6}]}]"#, plan: plan).get()
        let summary = try store.importJSON(#"[{"id":1,"items":[{"type":"video","id":5},{"type":"photo","id":7}]}]"#, plan: plan).get()
        #expect(summary.counts(of: "Album") == [0, 1, 0, 0])
        #expect(
            try store.select("SELECT photos.id, position FROM albums_media_photo JOIN photos ON photos.pk = albums_media_photo.photos_pk ORDER BY position")
                == [["7", "0"]])
        #expect(
            try store.select("SELECT videos.id, position FROM albums_media_video JOIN videos ON videos.pk = albums_media_video.videos_pk ORDER BY position")
                == [["5", "0"]])
        let again = try store.importJSON(#"[{"id":1,"items":[{"type":"video","id":5},{"type":"photo","id":7}]}]"#, plan: plan).get()
        #expect(!again.changed)
    }

    @Test(arguments: StoreKind.testable)
    func anElementWithoutTheDiscriminatorIsARecordError(kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: albumMap)
        let error = fixture.recordFailure(#"[{"id":1,"items":[{"type":"photo","id":5},{"id":6}]}]"#)
        #expect(error?.member == "Album.media")
        #expect(error?.message == "the element has no 'type' to choose its entity by")
        #expect(error?.path == "$[0].items[1]")
    }

    @Test(arguments: StoreKind.testable)
    func elseTakesEveryOtherValue(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(kind, albumMap.replacingOccurrences(of: #""ad" -> ignore"#, with: "else -> Photo"))
        _ = try store.importJSON(#"[{"id":1,"items":[{"type":"gif","id":5},{"type":null,"id":6},{"type":"video","id":7}]}]"#, plan: plan).get()
        #expect(try store.select("SELECT id FROM photos ORDER BY id") == [["5"], ["6"]])
        #expect(try store.select("SELECT id FROM videos") == [["7"]])
    }

    @Test(arguments: StoreKind.testable)
    func addingAPolymorphicRelationshipToAStoreAddsItsColumns(kind: StoreKind) throws {
        let before = threadMap.replacingOccurrences(
            of: "  parent <- parent_id : (Post | Comment) by $ delete cascade\n    has prefix \"t3_\" -> Post\n    has prefix \"t1_\" -> Comment",
            with: "  parentId <- parent_id : String")
        #expect(before != threadMap)
        let first = try MappedStore(kind, map: before)
        try first.importJSON(thread([("t1_b", "t3_a")]))
        let summary = try first.store.importJSON(thread([("t1_b", "t3_a")]), map: threadMap)
        #expect(summary.counts(of: "Comment") == [0, 1, 0, 0])
        #expect(try first.select("SELECT p.name FROM comments c JOIN posts p ON p.pk = c.parent_post_pk") == [["t3_a"]])
    }
}
