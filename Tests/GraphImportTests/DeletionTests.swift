import GraphImport
import GraphImportSchema
import GraphImportStoreTestSupport
import Testing

/// Posts are deleted when the feed no longer holds them; their authors never are.
private let postsMap = """
    records at $[*] as Post
    entity Post
      key id
      delete missing
      id : Int
      title : String
      author <- user : User?
    entity User
      key id
      id : Int
    """

private func posts(_ ids: [Int], user: Int = 1) -> String {
    "[" + ids.map { #"{"id":\#($0),"title":"t\#($0)","user":{"id":\#(user)}}"# }.joined(separator: ",") + "]"
}

/// A store of `kind` and the plan of `map`, imported into as the tests below do.
struct DeletionFixture {
    let store: StoreUnderTest
    let plan: ImportPlan

    init(_ kind: StoreKind, map: String) throws {
        store = try StoreUnderTest(kind)
        plan = try ImportPlan.compile(text: map, fileName: "test.map")
    }

    @discardableResult
    func importJSON(_ json: String, options: ImportOptions = .init()) throws -> ImportSummary {
        try store.importJSON(json, plan: plan, options: options).get()
    }

    func importFailure(_ json: String, options: ImportOptions = .init()) -> ImportError? {
        store.importError(json, plan: plan, options: options)
    }

    func rows(_ sql: String) throws -> [String] { try store.lines(sql) }
    func value(_ sql: String) throws -> String? { try store.value(sql) }
}

@Suite("Deletion: delete missing")
struct DeleteMissingTests {
    @Test(arguments: StoreKind.testable)
    func objectsTheFeedNoLongerHoldsAreDeletedAndCounted(kind: StoreKind) throws {
        let fixture = try DeletionFixture(kind, map: postsMap)
        try fixture.importJSON(posts([1, 2, 3, 4]))
        let summary = try fixture.importJSON(posts([1, 3]))
        #expect(summary.deletionLines == ["Post 2: 2, 4"])
        #expect(summary.countsWithDeletions(of: "Post") == [0, 0, 2, 0, 2])
        #expect(summary.changed)
        #expect(try fixture.rows("SELECT id FROM posts ORDER BY id") == ["1", "3"])
        #expect(try fixture.store.deletedRows() == ["\(summary.runID)|Post|{\"id\":2}", "\(summary.runID)|Post|{\"id\":4}"])
    }

    @Test(arguments: StoreKind.testable)
    func entityWithoutDeleteMissingKeepsObjectsTheFeedLacks(kind: StoreKind) throws {
        let fixture = try DeletionFixture(kind, map: postsMap)
        try fixture.importJSON(posts([1], user: 7))
        let summary = try fixture.importJSON(posts([1], user: 8))
        #expect(summary.countsWithDeletions(of: "User") == [1, 0, 0, 0, 0])
        #expect(try fixture.rows("SELECT id FROM \"users\" ORDER BY id") == ["7", "8"])
    }

    @Test(arguments: StoreKind.testable)
    func reimportOfTheSameFeedDeletesNothing(kind: StoreKind) throws {
        let fixture = try DeletionFixture(kind, map: postsMap)
        try fixture.importJSON(posts([1, 2]))
        let summary = try fixture.importJSON(posts([1, 2]))
        #expect(summary.deletions.isEmpty)
        #expect(!summary.changed)
        #expect(try fixture.store.deletedRows() == [])
    }

    @Test(arguments: StoreKind.testable)
    func emptyArrayFeedDeletesNothing(kind: StoreKind) throws {
        let fixture = try DeletionFixture(kind, map: postsMap)
        try fixture.importJSON(posts([1, 2]))
        let summary = try fixture.importJSON("[]")
        #expect(summary.records == 0)
        #expect(summary.deletions.isEmpty)
        #expect(try fixture.value("SELECT count(*) FROM posts") == "2")
    }

    /// A record skipped under `--skip-invalid` is still in the feed: one bad value must not delete the stored object.
    @Test(arguments: StoreKind.testable)
    func objectOfASkippedRecordIsNotDeletedAsMissing(kind: StoreKind) throws {
        let fixture = try DeletionFixture(kind, map: postsMap)
        try fixture.importJSON(posts([1, 2]))
        let summary = try fixture.importJSON(
            #"[{"id":1,"title":"t1","user":{"id":1}},{"id":2,"title":5,"user":{"id":1}}]"#, options: ImportOptions(skipInvalid: true))
        #expect(summary.skippedRecords == 1)
        #expect(summary.deletionsSuspended)
        #expect(summary.deletionLines == [])
        #expect(try fixture.rows("SELECT id FROM posts ORDER BY id") == ["1", "2"])
    }

    @Test(arguments: StoreKind.testable)
    func dryRunReportsWhatWouldBeDeletedAndDeletesNothing(kind: StoreKind) throws {
        let fixture = try DeletionFixture(kind, map: postsMap)
        try fixture.importJSON(posts([1, 2, 3]))
        let summary = try fixture.importJSON(posts([2]), options: ImportOptions(dryRun: true))
        #expect(summary.dryRun)
        #expect(summary.deletionLines == ["Post 2: 1, 3"])
        #expect(summary.countsWithDeletions(of: "Post") == [0, 0, 1, 0, 2])
        #expect(try fixture.value("SELECT count(*) FROM posts") == "3")
        #expect(try fixture.store.deletedRows() == [])
    }

    @Test(arguments: StoreKind.testable)
    func summaryShowsAtMostTenSampleKeys(kind: StoreKind) throws {
        let fixture = try DeletionFixture(kind, map: postsMap)
        try fixture.importJSON(posts(Array(1...13)))
        let summary = try fixture.importJSON(posts([13]))
        #expect(summary.deletions.first?.count == 12)
        #expect(summary.deletions.first?.sampleKeys == (1...10).map(String.init))
    }

    /// An object the feed only names (a link by key) is in the feed, not missing.
    @Test(arguments: StoreKind.testable)
    func anObjectTheFeedOnlyLinksToIsNotMissing(kind: StoreKind) throws {
        let map = """
            records at $[*] as Post
            entity Post
              key id
              delete missing
              id : Int
              replyTo <- reply_to : Post?
            """
        let fixture = try DeletionFixture(kind, map: map)
        try fixture.importJSON(#"[{"id":1},{"id":2},{"id":3}]"#)
        let summary = try fixture.importJSON(#"[{"id":3,"reply_to":1}]"#)
        #expect(summary.deletionLines == ["Post 1: 2"])
        #expect(try fixture.rows("SELECT id FROM posts ORDER BY id") == ["1", "3"])
    }

    /// Deletion is found across batches: an object given in an early batch is not missing at the end.
    @Test(arguments: StoreKind.testable)
    func objectsGivenInEveryBatchOfALongFeedAreKept(kind: StoreKind) throws {
        let store = try StoreUnderTest(kind, batchSize: 3)
        let plan = try ImportPlan.compile(text: postsMap, fileName: "test.map")
        _ = try store.importJSON(posts(Array(1...20)), plan: plan).get()
        let summary = try store.importJSON(posts(Array(1...20).filter { $0 % 4 != 0 }), plan: plan).get()
        #expect(summary.deletionLines == ["Post 5: 4, 8, 12, 16, 20"])
        #expect(try store.value("SELECT count(*) FROM posts") == "15")
    }
}

/// Comments of the posts a feed holds are complete; comments of other posts are not touched.
private let commentsMap = """
    records at $[*] as Comment
    entity Comment
      key id
      delete missing within post
      id : Int
      body : String
      post <- post_id : Post
    entity Post
      key id
      id : Int
    """

@Suite("Deletion: delete missing within a parent")
struct DeleteWithinTests {
    @Test(arguments: StoreKind.testable)
    func onlyChildrenOfParentsInTheFeedAreDeleted(kind: StoreKind) throws {
        let fixture = try DeletionFixture(kind, map: commentsMap)
        try fixture.importJSON(#"[{"id":1,"body":"a","post_id":10},{"id":2,"body":"b","post_id":10},{"id":3,"body":"c","post_id":20}]"#)
        let summary = try fixture.importJSON(#"[{"id":1,"body":"a","post_id":10}]"#)
        #expect(summary.deletionLines == ["Comment 1: 2"])
        #expect(try fixture.rows("SELECT id FROM comments ORDER BY id") == ["1", "3"])
        #expect(try fixture.value("SELECT count(*) FROM posts") == "2")
    }

    @Test(arguments: StoreKind.testable)
    func feedOfAnotherParentDeletesNoneOfThisParentsChildren(kind: StoreKind) throws {
        let fixture = try DeletionFixture(kind, map: commentsMap)
        try fixture.importJSON(#"[{"id":1,"body":"a","post_id":10},{"id":2,"body":"b","post_id":10}]"#)
        let summary = try fixture.importJSON(#"[{"id":3,"body":"c","post_id":20}]"#)
        #expect(summary.deletions.isEmpty)
        #expect(try fixture.value("SELECT count(*) FROM comments") == "3")
    }
}

/// Accounts leave the feed; repos and their issues link to them with the rule under test.
private func accountsMap(rule: String) -> String {
    """
    records at accounts[*] as Account
    records at repos[*] as Repo
    entity Account
      key id
      delete missing
      id : Int
      name : String
    entity Repo
      key id
      id : Int
      owner <- owner_id : Account? delete \(rule)
      watchers : [Account] delete \(rule)
    entity Issue
      key id
      id : Int
      repo : Repo delete cascade
    """
}

/// Accounts 1 and 2; repo 100 of account 1 watched by 2, repo 101 of account 2; issue 7 of repo 101.
private let twoAccounts = """
    {"accounts":[{"id":1,"name":"a"},{"id":2,"name":"b"}],
     "repos":[{"id":100,"owner_id":1,"watchers":[2]},{"id":101,"owner_id":2,"watchers":[]}]}
    """

/// Account 2 is gone and account 1 renamed; no repo is in the feed.
private let accountTwoGone = #"{"accounts":[{"id":1,"name":"renamed"}],"repos":[]}"#

@Suite("Deletion: delete rules")
struct DeleteRuleTests {
    /// Issues come only as repos' children here, so each test writes issue 7 by SQL.
    private func makeFixture(_ kind: StoreKind, rule: String) throws -> DeletionFixture {
        let fixture = try DeletionFixture(kind, map: accountsMap(rule: rule))
        try fixture.importJSON(twoAccounts)
        try fixture.store.execute("INSERT INTO issues (id, repo_pk) SELECT 7, pk FROM repos WHERE id = 101")
        return fixture
    }

    @Test(arguments: StoreKind.testable)
    func nullifyRemovesTheLinksAndKeepsTheLinkingObjects(kind: StoreKind) throws {
        let fixture = try makeFixture(kind, rule: "nullify")
        let summary = try fixture.importJSON(accountTwoGone)
        #expect(summary.deletionLines == ["Account 1: 2"])
        #expect(summary.countsWithDeletions(of: "Repo") == [0, 0, 0, 0, 0])
        #expect(
            try fixture.rows("SELECT repos.id, accounts.id FROM repos LEFT JOIN accounts ON accounts.pk = owner_pk ORDER BY repos.id") == ["100|1", "101|NULL"])
        #expect(try fixture.value("SELECT count(*) FROM repos_watchers") == "0")
        #expect(try fixture.value("SELECT count(*) FROM issues") == "1")
        #expect(try fixture.store.deletedRows() == ["\(summary.runID)|Account|{\"id\":2}"])
    }

    @Test(arguments: StoreKind.testable)
    func cascadeDeletesTheLinkingObjectsTooAndCountsThem(kind: StoreKind) throws {
        let fixture = try makeFixture(kind, rule: "cascade")
        let summary = try fixture.importJSON(accountTwoGone)
        // Repo 101 is owned by account 2, repo 100 watched by it; issue 7 follows repo 101.
        #expect(summary.deletionLines == ["Account 1: 2", "Repo 2: 100, 101", "Issue 1: 7"])
        #expect(summary.countsWithDeletions(of: "Repo") == [0, 0, 0, 0, 2])
        #expect(summary.countsWithDeletions(of: "Issue") == [0, 0, 0, 0, 1])
        #expect(try fixture.value("SELECT count(*) FROM repos") == "0")
        #expect(try fixture.value("SELECT count(*) FROM issues") == "0")
        #expect(try fixture.rows("SELECT id, name FROM accounts") == ["1|renamed"])
        // Every object deleted is recorded, those that cascaded too.
        let run = summary.runID
        #expect(
            try fixture.store.deletedRows() == [
                "\(run)|Account|{\"id\":2}", "\(run)|Repo|{\"id\":100}", "\(run)|Repo|{\"id\":101}", "\(run)|Issue|{\"id\":7}",
            ])
    }

    @Test(arguments: StoreKind.testable)
    func cascadeDryRunDeletesNothing(kind: StoreKind) throws {
        let fixture = try makeFixture(kind, rule: "cascade")
        let summary = try fixture.importJSON(accountTwoGone, options: ImportOptions(dryRun: true))
        #expect(summary.deletions.map(\.count) == [1, 2, 1])
        #expect(try fixture.rows("SELECT (SELECT count(*) FROM accounts), (SELECT count(*) FROM repos), (SELECT count(*) FROM issues)") == ["2|2|1"])
        #expect(try fixture.store.deletedRows() == [])
    }

    @Test(arguments: StoreKind.testable)
    func denyStopsTheImportAndLeavesTheStoreUntouched(kind: StoreKind) throws {
        let fixture = try makeFixture(kind, rule: "deny")
        let before = try fixture.rows("SELECT * FROM accounts ORDER BY pk")
        guard case .denied(let denied)? = fixture.importFailure(accountTwoGone) else {
            Issue.record("expected the import to be denied")
            return
        }
        #expect(denied.message.hasPrefix("cannot delete Account 2: Repo.owner denies it"))
        // The rename of account 1 in the same run is rolled back too.
        #expect(try fixture.rows("SELECT * FROM accounts ORDER BY pk") == before)
        #expect(try fixture.value("SELECT count(*) FROM repos_watchers") == "1")
        #expect(try fixture.store.deletedRows() == [])
    }

    @Test(arguments: StoreKind.testable)
    func denialReadsAsOneSentenceWithAHint(kind: StoreKind) throws {
        let fixture = try makeFixture(kind, rule: "deny")
        guard case .denied(let denied)? = fixture.importFailure(accountTwoGone) else {
            Issue.record("expected the import to be denied")
            return
        }
        #expect(denied.message == "cannot delete Account 2: Repo.owner denies it (1 Repo object links to it); nothing was deleted")
        #expect(denied.hint == "keep Account 2 in the feed, or change the rule of Repo.owner to `delete nullify` or `delete cascade`")
    }

    @Test(arguments: StoreKind.testable)
    func denyThroughAToManyNamesThatRelationship(kind: StoreKind) throws {
        let fixture = try DeletionFixture(kind, map: accountsMap(rule: "deny"))
        try fixture.importJSON(#"{"accounts":[{"id":1,"name":"a"},{"id":2,"name":"b"}],"repos":[{"id":100,"watchers":[2]}]}"#)
        guard case .denied(let denied)? = fixture.importFailure(accountTwoGone) else {
            Issue.record("expected the import to be denied")
            return
        }
        #expect(denied.message.hasPrefix("cannot delete Account 2: Repo.watchers denies it (1 Repo object"))
        #expect(try fixture.value("SELECT count(*) FROM accounts") == "2")
    }

    /// `deny` protects a target from the objects that are kept, not from a holder deleted in the
    /// same run, whichever entity the map declares first.
    @Test(arguments: StoreKind.testable)
    func denyAllowsDeletingATargetWhoseHoldersAreDeletedToo(kind: StoreKind) throws {
        let map = """
            records at users[*] as User
            records at repos[*] as Repo
            entity User
              key id
              delete missing
              id : Int
            entity Repo
              key id
              delete missing
              id : Int
              owner <- owner_id : User? delete deny
            """
        let fixture = try DeletionFixture(kind, map: map)
        try fixture.importJSON(#"{"users":[{"id":1},{"id":2}],"repos":[{"id":10,"owner_id":2},{"id":11,"owner_id":1}]}"#)
        let summary = try fixture.importJSON(#"{"users":[{"id":1}],"repos":[{"id":11,"owner_id":1}]}"#)
        #expect(summary.deletionLines == ["User 1: 2", "Repo 1: 10"])
        #expect(try fixture.rows("SELECT id FROM \"users\"") == ["1"])
        #expect(try fixture.rows("SELECT id FROM repos") == ["11"])
        #expect(try fixture.store.deletedRows() == ["\(summary.runID)|User|{\"id\":2}", "\(summary.runID)|Repo|{\"id\":10}"])
    }

    /// The same through a relationship of an entity to itself, and through a to-many.
    @Test(arguments: StoreKind.testable)
    func denyAllowsDeletingAParentWhoseChildrenAreDeletedToo(kind: StoreKind) throws {
        let map = """
            records at $[*] as Post
            entity Post
              key id
              delete missing
              id : Int
              parent <- parent_id : Post? delete deny
              related : [Post] delete deny
            """
        let fixture = try DeletionFixture(kind, map: map)
        try fixture.importJSON(#"[{"id":1,"related":[3]},{"id":2,"parent_id":1,"related":[1]},{"id":3}]"#)
        let summary = try fixture.importJSON(#"[{"id":3}]"#)
        #expect(summary.deletionLines == ["Post 2: 1, 2"])
        #expect(try fixture.rows("SELECT id FROM posts") == ["3"])
        #expect(try fixture.value("SELECT count(*) FROM posts_related") == "0")
        // A kept post that still lists a missing one denies its deletion.
        try fixture.importJSON(#"[{"id":3,"related":[7]}]"#)
        guard case .denied(let denied)? = fixture.importFailure(#"[{"id":3}]"#) else {
            Issue.record("expected the import to be denied")
            return
        }
        #expect(denied.message == "cannot delete Post 7: Post.related denies it (1 Post object links to it); nothing was deleted")
    }

    @Test(arguments: StoreKind.testable)
    func denyAllowsDeletingAnObjectNothingLinksTo(kind: StoreKind) throws {
        let fixture = try DeletionFixture(kind, map: accountsMap(rule: "deny"))
        try fixture.importJSON(#"{"accounts":[{"id":1,"name":"a"},{"id":2,"name":"b"}],"repos":[{"id":100,"owner_id":1}]}"#)
        let summary = try fixture.importJSON(accountTwoGone)
        #expect(summary.deletionLines == ["Account 1: 2"])
        #expect(try fixture.rows("SELECT id FROM accounts") == ["1"])
    }
}
