import GraphImport
import GraphImportSchema
import GraphImportStoreTestSupport
import Testing

/// GitHub's issues are numbered per repository: the key takes the repository's id from the
/// object whose relationship reached the issue (`@parent`), or from the record's own field.
private let repoIssuesMap = """
    records at repos[*] as Repo
    entity Repo
      key id
      id : Int
      issues : [Issue] inverse repo
    entity Issue
      key repoId, number
      repoId <- repository_id, @parent.id : Int
      repoName <- @parent.full_name : String?
      number : Int
      title : String
    """

private let twoRepos = #"""
    {"repos": [
      {"id": 10, "full_name": "octo/a", "issues": [{"number": 1, "title": "a1"}, {"number": 2, "title": "a2"}]},
      {"id": 20, "full_name": "octo/b", "issues": [{"number": 1, "title": "b1"}]}
    ]}
    """#

/// Record errors, as the tests read them.
private func recordError(_ error: ImportError?) -> RecordError? {
    guard case .record(let record)? = error else {
        Issue.record("expected a record error, got \(String(describing: error))")
        return nil
    }
    return record
}

@Suite("Keys scoped by the parent: @parent and @root")
struct ParentScopedKeyTests {
    @Test(arguments: StoreKind.testable)
    func numbersThatRepeatAcrossParentsAreDistinctObjects(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: repoIssuesMap)
        let summary = try fixture.importJSON(twoRepos)
        #expect(countsByEntity(summary)["Issue"] == [3, 0, 0, 0])
        #expect(
            try fixture.select("SELECT repo_id, number, title, repo_name FROM issues ORDER BY repo_id, number") == [
                ["10", "1", "a1", "octo/a"], ["10", "2", "a2", "octo/a"], ["20", "1", "b1", "octo/b"],
            ])
        // Each repo lists its own issue #1.
        #expect(
            try fixture.select(
                "SELECT r.id, i.title FROM repos_issues j JOIN repos r ON r.pk = j.repos_pk JOIN issues i ON i.pk = j.issues_pk ORDER BY r.id, j.position")
                == [["10", "a1"], ["10", "a2"], ["20", "b1"]])
        let again = try fixture.importJSON(twoRepos)
        #expect(countsByEntity(again)["Issue"] == [0, 0, 3, 0])
    }

    /// The parent's values are read even where the parent's own entity does not map them
    /// (`full_name` here): the reader builds them for the child.
    @Test(arguments: StoreKind.testable)
    func parentValuesTheParentEntityDoesNotMapAreRead(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: repoIssuesMap)
        try fixture.importJSON(twoRepos)
        #expect(try fixture.value("SELECT repo_name FROM issues WHERE repo_id = 20") == "octo/b")
    }

    /// A record has no parent: the fallback path before `@parent` gives the same key, so an issue
    /// fetched alone updates the one its repository listed.
    @Test(arguments: StoreKind.testable)
    func aRecordGivesTheKeyThroughItsOwnFieldAndMeetsTheSameObject(_ kind: StoreKind) throws {
        let map = repoIssuesMap.replacingOccurrences(of: "records at repos[*] as Repo", with: "records at repos[*] as Repo\nrecords at issues[*] as Issue")
        let fixture = try MappedStore(kind, map: map)
        try fixture.importJSON(twoRepos)
        let summary = try fixture.importJSON(#"{"issues": [{"repository_id": 20, "number": 1, "title": "b1 edited"}]}"#)
        #expect(countsByEntity(summary)["Issue"] == [0, 1, 0, 0])
        #expect(try fixture.select("SELECT repo_id, number, title FROM issues WHERE repo_id = 20") == [["20", "1", "b1 edited"]])
    }

    @Test(arguments: StoreKind.testable)
    func aRecordWithoutTheParentsKeyIsARecordErrorThatSaysWhy(_ kind: StoreKind) throws {
        let map = repoIssuesMap.replacingOccurrences(of: "records at repos[*] as Repo", with: "records at repos[*] as Repo\nrecords at issues[*] as Issue")
        let fixture = try MappedStore(kind, map: map)
        let record = recordError(fixture.failure(#"{"issues": [{"number": 1, "title": "x"}]}"#))
        #expect(record?.path == "$.issues[0]")
        #expect(record?.member == "Issue.repoId")
        #expect(record?.message == "the object has no 'repository_id, @parent.id', the key of Issue")
        #expect(
            record?.hint
                == "`@parent` is the object whose relationship reached this Issue, and a record has none: "
                + "list a path the record holds before it (`<- repo_id, @parent.id`), or reach Issue objects through their parent")
        #expect(try fixture.holdsNoData())
    }

    @Test(arguments: StoreKind.testable)
    func aParentValueThatDoesNotFitFailsAtTheParentsPath(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: repoIssuesMap)
        let record = recordError(fixture.failure(#"{"repos": [{"id": 10, "full_name": 7, "issues": [{"number": 1, "title": "a1"}]}]}"#))
        #expect(record?.path == "$.repos[0].full_name")
        #expect(record?.member == "Issue.repoName")
    }

    /// A child linked to its parent by `@parent.id` is written first, with a stub of the parent:
    /// the parent is new all the same, and a required value it lacks refuses the record.
    @Test(arguments: StoreKind.testable)
    func aNewParentLinkedByItsChildStillNeedsItsRequiredValues(_ kind: StoreKind) throws {
        let map =
            repoIssuesMap.replacingOccurrences(of: "  id : Int\n  issues", with: "  id : Int\n  name <- full_name : String\n  issues")
            + "\n  owner <- @parent.id : Repo inverse ownIssues\n"
        let fixture = try MappedStore(kind, map: map)
        let record = recordError(fixture.failure(#"{"repos": [{"id": 5, "issues": [{"number": 1, "title": "t"}]}]}"#))
        #expect(record?.member == "Repo.name")
        #expect(record?.path == "$.repos[0].full_name")
        try fixture.importJSON(twoRepos)
        #expect(try fixture.select("SELECT i.number, r.name FROM issues i JOIN repos r ON r.pk = i.owner_pk WHERE r.id = 20") == [["1", "octo/b"]])
    }

    /// Comments are numbered per post and replies per comment: `@parent.@parent` reaches the post.
    @Test(arguments: StoreKind.testable)
    func grandparentValuesKeyObjectsTwoLevelsDown(_ kind: StoreKind) throws {
        let map = """
            records at posts[*] as Post
            entity Post
              key id
              id : Int
              comments : [Comment]
            entity Comment
              key postId, id
              postId <- @parent.id : Int
              id : Int
              replies : [Reply]
            entity Reply
              key postId, commentId, id
              postId <- @parent.@parent.id : Int
              commentId <- @parent.id : Int
              id : Int
              text : String
            """
        let fixture = try MappedStore(kind, map: map)
        try fixture.importJSON(
            #"""
            {"posts": [
              {"id": 1, "comments": [{"id": 1, "replies": [{"id": 1, "text": "p1c1r1"}]}, {"id": 2, "replies": [{"id": 1, "text": "p1c2r1"}]}]},
              {"id": 2, "comments": [{"id": 1, "replies": [{"id": 1, "text": "p2c1r1"}, {"id": 2, "text": "p2c1r2"}]}]}
            ]}
            """#)
        #expect(
            try fixture.select("SELECT post_id, comment_id, id, text FROM replies ORDER BY post_id, comment_id, id") == [
                ["1", "1", "1", "p1c1r1"], ["1", "2", "1", "p1c2r1"], ["2", "1", "1", "p2c1r1"], ["2", "1", "2", "p2c1r2"],
            ])
        #expect(try fixture.value("SELECT count(*) FROM comments") == "3")
    }

    /// A wrapped response (`{"repository": …, "issues": [...]}`) applies its repository to every
    /// record; each document of a concatenated input has its own.
    @Test(arguments: StoreKind.testable)
    func rootValuesBeforeTheRecordsApplyToEveryRecordOfTheirDocument(_ kind: StoreKind) throws {
        let map = """
            records at issues[*] as Issue
            entity Repo
              key id
              id : Int
              name <- full_name : String
            entity Issue
              key repoId, number
              repoId <- @root.repository.id : Int
              repo <- @root.repository : Repo
              number : Int
            """
        let fixture = try MappedStore(kind, map: map)
        let summary = try fixture.importJSON(
            #"{"repository": {"id": 7, "full_name": "o/r"}, "issues": [{"number": 1}, {"number": 2}]}"#
                + "\n" + #"{"repository": {"id": 8, "full_name": "o/s"}, "issues": [{"number": 1}]}"#)
        #expect(countsByEntity(summary)["Issue"] == [3, 0, 0, 0])
        #expect(
            try fixture.select("SELECT i.repo_id, i.number, r.name FROM issues i JOIN repos r ON r.pk = i.repo_pk ORDER BY i.repo_id, i.number") == [
                ["7", "1", "o/r"], ["7", "2", "o/r"], ["8", "1", "o/s"],
            ])
        // A document without the value does not take the one before it.
        let record = recordError(fixture.failure(#"{"repository": {"id": 7, "full_name": "o/r"}, "issues": []}"# + "\n" + #"{"issues": [{"number": 3}]}"#))
        #expect(record?.message == "the object has no '@root.repository.id', the key of Issue")
    }

    @Test(arguments: StoreKind.testable)
    func aRootValueAfterTheRecordsIsARecordErrorThatSaysSo(_ kind: StoreKind) throws {
        let map = "records at issues[*] as Issue\nentity Issue\n  key repoId, number\n  repoId <- @root.repository.id : Int\n  number : Int\n"
        let fixture = try MappedStore(kind, map: map)
        let record = recordError(fixture.failure(#"{"issues": [{"number": 1}], "repository": {"id": 7}}"#))
        #expect(record?.path == "$.issues[0]")
        #expect(
            record?.hint
                == "`@root` reads the response's values that come before the records (as the reader meets them): "
                + "the response must hold it ahead of the records array")
    }

    /// One page of a repository's issues (`GET /repos/o/r/issues`, wrapped with its repository)
    /// deletes the issues of that repository it no longer lists, not other repositories'.
    @Test(arguments: StoreKind.testable)
    func aWrappedPageDeletesWithinItsRepositoryOnly(kind: StoreKind) throws {
        let map = """
            records at issues[*] as Issue
            entity Repo
              key id
              id : Int
            entity Issue
              key repoId, number
              delete missing within repo
              repoId <- @root.repository.id : Int
              repo <- @root.repository : Repo
              number : Int
            """
        let fixture = try DeletionFixture(kind, map: map)
        try fixture.importJSON(
            #"{"repository": {"id": 7}, "issues": [{"number": 1}, {"number": 2}]}"# + "\n" + #"{"repository": {"id": 8}, "issues": [{"number": 1}]}"#)
        let summary = try fixture.importJSON(#"{"repository": {"id": 7}, "issues": [{"number": 2}]}"#)
        #expect(summary.deletionLines == ["Issue 1: (7, 1)"])
        #expect(try fixture.rows("SELECT repo_id, number FROM issues ORDER BY repo_id, number") == ["7|2", "8|1"])
        #expect(try fixture.store.deletedRows() == [#"\#(summary.runID)|Issue|{"repoId":7,"number":1}"#])
    }

    /// A value `meta` keeps is read by `@root` too, without a second pattern.
    @Test(arguments: StoreKind.testable)
    func rootReadsInsideAValueAMetaLineKeeps(_ kind: StoreKind) throws {
        let map = """
            meta page <- paging : JSON
            records at items[*] as Item
            entity Item
              key id
              id : Int
              page <- @root.paging.page : Int
            """
        let fixture = try MappedStore(kind, map: map)
        try fixture.importJSON(#"{"paging": {"page": 3}, "items": [{"id": 1}, {"id": 2}]}"#)
        #expect(try fixture.select("SELECT id, page FROM items ORDER BY id") == [["1", "3"], ["2", "3"]])
        #expect(try fixture.value("SELECT value FROM graphimport_meta WHERE key = 'page'") == #"{"page":3}"#)
    }
}

/// `delete missing within NAME`, NAME the inverse of the parent's to-many: an order's lines that
/// its list no longer names are deleted; other orders' lines are not.
private let orderLinesMap = """
    records at orders[*] as Order
    entity Order
      key id
      id : Int
      lines : [Line] inverse order
    entity Line
      key orderId, line
      delete missing within order
      orderId <- @parent.id : Int
      line : Int
      sku : String
    """

private func orders(_ orders: [(Int, [Int]?)]) -> String {
    let items = orders.map { order, lines in
        let list = lines.map { #", "lines": ["# + $0.map { #"{"line": \#($0), "sku": "s\#($0)"}"# }.joined(separator: ", ") + "]" } ?? ""
        return #"{"id": \#(order)\#(list)}"#
    }
    return #"{"orders": ["# + items.joined(separator: ", ") + "]}"
}

@Suite("Deletion scoped to a parent's list")
struct ParentListDeletionTests {
    @Test(arguments: StoreKind.testable)
    func linesAParentNoLongerListsAreDeletedAndOtherParentsLinesKept(kind: StoreKind) throws {
        let fixture = try DeletionFixture(kind, map: orderLinesMap)
        try fixture.importJSON(orders([(1, [1, 2, 3]), (2, [1, 2])]))
        let summary = try fixture.importJSON(orders([(1, [1, 3])]))
        #expect(summary.deletionLines == ["Line 1: (1, 2)"])
        #expect(summary.countsWithDeletions(of: "Line") == [0, 0, 2, 0, 1])
        #expect(try fixture.rows("SELECT order_id, line FROM lines ORDER BY order_id, line") == ["1|1", "1|3", "2|1", "2|2"])
        #expect(try fixture.store.deletedRows() == [#"\#(summary.runID)|Line|{"orderId":1,"line":2}"#])
    }

    @Test(arguments: StoreKind.testable)
    func dryRunListsTheDoomedKeysAndDeletesNothing(kind: StoreKind) throws {
        let fixture = try DeletionFixture(kind, map: orderLinesMap)
        try fixture.importJSON(orders([(1, [1, 2, 3]), (2, [1])]))
        let summary = try fixture.importJSON(orders([(1, []), (2, [1])]), options: ImportOptions(dryRun: true))
        #expect(summary.deletionLines == ["Line 3: (1, 1), (1, 2), (1, 3)"])
        #expect(try fixture.value("SELECT count(*) FROM lines") == "4")
    }

    /// An order that comes without its `lines` says nothing about them.
    @Test(arguments: StoreKind.testable)
    func aParentWithoutItsListDeletesNothing(kind: StoreKind) throws {
        let fixture = try DeletionFixture(kind, map: orderLinesMap)
        try fixture.importJSON(orders([(1, [1, 2])]))
        let summary = try fixture.importJSON(orders([(1, nil)]))
        #expect(summary.deletions.isEmpty)
        #expect(try fixture.value("SELECT count(*) FROM lines") == "2")
    }

    /// Without `within`, the feed of one order deletes every other order's lines.
    @Test(arguments: StoreKind.testable)
    func theUnscopedFormDeletesOtherParentsChildren(kind: StoreKind) throws {
        let fixture = try DeletionFixture(kind, map: orderLinesMap.replacingOccurrences(of: "delete missing within order", with: "delete missing"))
        try fixture.importJSON(orders([(1, [1]), (2, [1])]))
        let summary = try fixture.importJSON(orders([(1, [1])]))
        #expect(summary.deletionLines == ["Line 1: (2, 1)"])
    }

    /// A child a list dropped but the feed holds under another parent is not missing (many-to-many
    /// lists: a tag a post dropped that another post still lists).
    @Test(arguments: StoreKind.testable)
    func aChildMovedToAnotherListOfTheFeedIsKept(kind: StoreKind) throws {
        let map = """
            records at posts[*] as Post
            entity Post
              key id
              id : Int
              tags : [Tag] inverse posts
            entity Tag
              key name
              delete missing within posts
              name : String
            """
        let fixture = try DeletionFixture(kind, map: map)
        try fixture.importJSON(#"{"posts": [{"id": 1, "tags": ["a", "b"]}, {"id": 2, "tags": ["c"]}]}"#)
        let summary = try fixture.importJSON(#"{"posts": [{"id": 1, "tags": ["a"]}, {"id": 2, "tags": ["b"]}]}"#)
        #expect(summary.deletionLines == ["Tag 1: 'c'"])
        #expect(try fixture.rows("SELECT name FROM tags ORDER BY name") == ["a", "b"])
    }
}
