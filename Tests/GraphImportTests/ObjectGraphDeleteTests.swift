import Foundation
@testable import GraphImport
import GraphImportSchema
import GraphImportStore
import GraphImportStoreTestSupport
import Testing

/// Accounts own repos (deny), repos hold issues (cascade), issues have an assignee (nullify) and labels.
private let rulesMap = """
    records at $[*] as Issue
    entity Issue
      key id
      id : Int
      title : String
      repo : Repo delete cascade inverse issues
      assignee : Account? delete nullify inverse assigned
      labels : [Label] inverse issues
    entity Repo
      key name
      name : String
      owner : Account delete deny inverse repos
    entity Account
      key login
      login : String
    entity Label
      key name
      name : String
    """

private let rulesFeed = """
    [{"id": 1, "title": "crash", "repo": {"name": "core", "owner": {"login": "acme"}}, "assignee": {"login": "ann"}, "labels": [{"name": "bug"}]},
     {"id": 2, "title": "docs", "repo": {"name": "core", "owner": {"login": "acme"}}, "assignee": {"login": "ann"}, "labels": []},
     {"id": 3, "title": "speed", "repo": {"name": "site", "owner": {"login": "ann"}}, "labels": [{"name": "bug"}]}]
    """

/// Runs `body` on a store of `kind` imported from `rulesFeed` with `map`, opened as a graph.
private func withRulesGraph(on kind: StoreKind, map: String = rulesMap, readOnly: Bool = false, _ body: (ObjectGraph, MappedStore) throws -> Void) throws {
    let store = try MappedStore(kind, map: map)
    try store.importJSON(rulesFeed)
    try withExtendedLifetime(store) { try body(try ObjectGraph(store: store.store.location, plan: store.plan, readOnly: readOnly), store) }
}

@Suite("Read API: deleting by the map's delete rules")
struct ObjectGraphDeleteTests {
    @Test(arguments: StoreKind.testable)
    func deletingAToManyTargetRemovesItFromTheListsAndKeepsTheirOwners(_ kind: StoreKind) throws {
        try withRulesGraph(on: kind) { graph, store in
            let bug = try #require(try graph.object("Label", key: "bug"))
            let deletions = try graph.delete(bug)
            #expect(deletions == [Deletions(entity: "Label", count: 1, sampleKeys: ["'bug'"])])
            #expect(try store.value("SELECT count(*) FROM issues_labels") == "0")
            #expect(try store.value("SELECT count(*) FROM issues") == "3")
            let first = try #require(try graph.object("Issue", key: 1))
            #expect(try first.related("labels").isEmpty)
        }
    }

    @Test(arguments: StoreKind.testable)
    func nullifyOnAToOneSetsItToNull(_ kind: StoreKind) throws {
        let map = rulesMap.replacingOccurrences(of: "owner : Account delete deny", with: "owner : Account")
        try withRulesGraph(on: kind, map: map) { graph, store in
            let ann = try #require(try graph.object("Account", key: "ann"))
            #expect(try ann.related("assigned").count == 2)
            #expect(try graph.delete(ann) == [Deletions(entity: "Account", count: 1, sampleKeys: ["'ann'"])])
            #expect(
                try store.select("SELECT i.id, a.login FROM issues i LEFT JOIN accounts a ON a.pk = i.assignee_pk ORDER BY i.id") == [
                    ["1", "NULL"], ["2", "NULL"], ["3", "NULL"],
                ])
            #expect(
                try store.select("SELECT r.name, a.login FROM repos r LEFT JOIN accounts a ON a.pk = r.owner_pk ORDER BY r.name") == [
                    ["core", "acme"], ["site", "NULL"],
                ])
        }
    }

    @Test(arguments: StoreKind.testable)
    func cascadeDeletesTheDependentsInOneRecordedRun(_ kind: StoreKind) throws {
        try withRulesGraph(on: kind) { graph, store in
            let core = try #require(try graph.object("Repo", key: "core"))
            let deletions = try graph.delete(core)
            #expect(
                deletions == [
                    Deletions(entity: "Issue", count: 2, sampleKeys: ["1", "2"]), Deletions(entity: "Repo", count: 1, sampleKeys: ["'core'"]),
                ])
            #expect(try store.select("SELECT id FROM issues") == [["3"]])
            #expect(
                try store.select("SELECT id, input, outcome FROM graphimport_runs ORDER BY id") == [
                    ["1", "feed", "succeeded"], ["2", "delete Repo 'core'", "succeeded"],
                ])
            let counts = try #require(try store.value("SELECT counts FROM graphimport_runs WHERE id = 2"))
            #expect(counts.contains(#""Issue":{"inserted":0,"updated":0,"unchanged":0,"skipped":0,"deleted":2}"#), "\(counts)")
            #expect(counts.contains(#""Account":{"inserted":0,"updated":0,"unchanged":0,"skipped":0,"deleted":0}"#), "\(counts)")
            #expect(try store.store.deletedRows() == [#"2|Issue|{"id":1}"#, #"2|Issue|{"id":2}"#, #"2|Repo|{"name":"core"}"#])
        }
    }

    @Test(arguments: StoreKind.testable)
    func aCascadeFollowsACascadeAndTakesTheOwnedObjectsOfWhatItDeletes(_ kind: StoreKind) throws {
        let map = """
            records at $[*] as Issue
            entity Issue
              key id
              id : Int
              repo : Repo delete cascade inverse issues
              notes : [Note]
            entity Note owned
              text : String
            entity Repo
              key name
              name : String
              owner : Account delete cascade inverse repos
            entity Account
              key login
              login : String
            """
        let feed = """
            [{"id": 1, "repo": {"name": "core", "owner": {"login": "acme"}}, "notes": [{"text": "a"}, {"text": "b"}]},
             {"id": 2, "repo": {"name": "docs", "owner": {"login": "acme"}}, "notes": [{"text": "c"}]},
             {"id": 3, "repo": {"name": "site", "owner": {"login": "ann"}}, "notes": [{"text": "d"}]}]
            """
        let store = try MappedStore(kind, map: map)
        try store.importJSON(feed)
        let graph = try ObjectGraph(store: store.store.location, plan: store.plan)
        let acme = try #require(try graph.object("Account", key: "acme"))
        let deletions = try graph.delete(acme)
        #expect(deletions.map { "\($0.entity) \($0.count)" } == ["Issue 2", "Note 3", "Repo 2", "Account 1"])
        #expect(try store.select("SELECT id FROM issues") == [["3"]])
        #expect(try store.select("SELECT text FROM notes") == [["d"]])
        #expect(try store.select("SELECT name FROM repos") == [["site"]])
        #expect(try store.select("SELECT login FROM accounts") == [["ann"]])
        #expect(try store.value("SELECT count(*) FROM graphimport_deleted WHERE run = 2") == "8")
    }

    @Test(arguments: StoreKind.testable)
    func denyRefusesTheDeletionAndLeavesTheStoreUnchanged(_ kind: StoreKind) throws {
        try withRulesGraph(on: kind) { graph, store in
            let before = try store.rows()
            let acme = try #require(try graph.object("Account", key: "acme"))
            #expect(
                throws: GraphError(
                    .denied, "cannot delete Account 'acme': Repo.owner denies it (1 Repo object links to it); nothing was deleted",
                    hint: "keep Account 'acme' in the feed, or change the rule of Repo.owner to `delete nullify` or `delete cascade`")
            ) { try graph.delete(acme) }
            #expect(try store.rows() == before)
            #expect(try store.store.deletedRows() == [])
            #expect(try store.select("SELECT outcome FROM graphimport_runs WHERE id = 2") == [["failed"]])
        }
    }

    /// A deletion the store refuses halfway (a trigger of its own refuses deleting repos, after
    /// the cascade deleted the issues) rolls back whole and is recorded as a failed run, alike on
    /// both stores: the same record, the store's own error kept in the graph's error.
    @Test(arguments: StoreKind.testable)
    func aDeletionTheStoreRefusesHalfwayLeavesItAsItWasAndIsRecordedAsFailed(_ kind: StoreKind) throws {
        try withRulesGraph(on: kind) { graph, store in
            switch kind {
            case .sqlite:
                try store.execute("CREATE TRIGGER keep_repos BEFORE DELETE ON repos BEGIN SELECT RAISE(ABORT, 'repos are kept'); END")
            case .postgresql:
                try store.execute("CREATE FUNCTION keep_repos() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'repos are kept'; END $$")
                try store.execute("CREATE TRIGGER keep_repos BEFORE DELETE ON repos FOR EACH ROW EXECUTE FUNCTION keep_repos()")
            }
            let before = try store.rows()
            let core = try #require(try graph.object("Repo", key: "core"))
            let error = try #require(#expect(throws: GraphError.self) { try graph.delete(core) })
            #expect(error.kind == .store)
            #expect(error.message.contains("repos are kept"), "\(error)")
            #expect(kind == .sqlite ? error.store != nil : error.server != nil, "the store's own error is kept")
            #expect(try store.rows() == before)
            #expect(try store.store.deletedRows() == [])
            #expect(
                try store.select("SELECT id, input, outcome, records, skipped_records, input_bytes, counts FROM graphimport_runs WHERE id > 1") == [
                    ["2", "delete Repo 'core'", "failed", "0", "0", "NULL", "NULL"]
                ])
            #expect(try store.value("SELECT error FROM graphimport_runs WHERE id = 2") == error.description)
            // The graph deletes again once the store lets it.
            try store.execute("DROP TRIGGER keep_repos" + (kind == .postgresql ? " ON repos" : ""))
            #expect(try graph.delete(core).map(\.entity) == ["Issue", "Repo"])
            #expect(try store.select("SELECT id, outcome FROM graphimport_runs WHERE id = 3") == [["3", "succeeded"]])
        }
    }

    @Test(arguments: StoreKind.testable)
    func anObjectDeletedMeanwhileIsReportedNotDeletedTwice(_ kind: StoreKind) throws {
        try withRulesGraph(on: kind) { graph, store in
            let issue = try #require(try graph.object("Issue", key: 3))
            try graph.delete(issue)
            #expect(throws: GraphError(.misuse, "Issue 3 is no longer stored", hint: "fetch it again")) { try graph.delete(issue) }
            #expect(try store.select("SELECT id FROM issues ORDER BY id") == [["1"], ["2"]])
        }
    }

    /// A deletion takes the store as an import does: while another writer holds it, the deletion
    /// waits, and then runs.
    @Test(arguments: StoreKind.testable)
    func aDeletionWaitsWhileAnotherWriterHoldsTheStore(_ kind: StoreKind) throws {
        try withRulesGraph(on: kind) { graph, store in
            let deleting = BackgroundDeletion(graph: graph, object: try #require(try graph.object("Issue", key: 3)))
            try store.store.whileLocked { () throws in
                deleting.start()
                Thread.sleep(forTimeInterval: 0.5)
                #expect(!deleting.isDone)
                #expect(try store.value("SELECT count(*) FROM issues") == "3")
            }
            #expect(try deleting.result().get() == [Deletions(entity: "Issue", count: 1, sampleKeys: ["3"])])
            #expect(try store.select("SELECT id FROM issues ORDER BY id") == [["1"], ["2"]])
        }
    }

    /// A deletion that waits past its wait for a store another writer holds fails as an import
    /// does: one `.busy` kind on both stores, the store's own error kept, nothing deleted. (SQLite
    /// cannot record the run while another connection writes, as for an import; PostgreSQL's
    /// lock is the store's own, so the run is recorded, as failed.)
    @Test(arguments: StoreKind.testable)
    func aDeletionThatWaitsPastItsWaitIsABusyStoreOnBoth(_ kind: StoreKind) throws {
        try withRulesGraph(on: kind) { _, store in
            let graph = try ObjectGraph(store: store.store.location, plan: store.plan, readOnly: false, wait: 0.2)
            let issue = try #require(try graph.object("Issue", key: 3))
            let before = try store.rows()
            try store.store.whileLocked {
                let error = try #require(#expect(throws: GraphError.self) { try graph.delete(issue) })
                #expect(error.kind == .busy)
                #expect(error.hint == "another import or deletion holds the store; retry later")
                switch kind {
                case .sqlite: #expect(error.store?.isBusy == true)
                case .postgresql: #expect(error.server?.sqlState == "55P03")
                }
            }
            #expect(try store.rows() == before)
            #expect(try store.store.deletedRows() == [])
            #expect(try store.select("SELECT outcome FROM graphimport_runs WHERE id > 1") == (kind == .sqlite ? [] : [["failed"]]))
            #expect(try graph.delete(issue) == [Deletions(entity: "Issue", count: 1, sampleKeys: ["3"])])
        }
    }

    @Test(arguments: StoreKind.testable)
    func aGraphOpenedReadOnlyDeletesNothing(_ kind: StoreKind) throws {
        try withRulesGraph(on: kind, readOnly: true) { graph, store in
            let issue = try #require(try graph.object("Issue", key: 3))
            #expect(
                throws: GraphError(.misuse, "the graph was opened read-only; nothing was deleted", hint: "open it with readOnly: false")
            ) { try graph.delete(issue) }
            #expect(try store.value("SELECT count(*) FROM issues") == "3")
            #expect(try store.value("SELECT count(*) FROM graphimport_runs") == "1")
        }
    }
}

/// `ObjectGraph.delete` on a thread of its own; the graph is used by that thread alone meanwhile.
private final class BackgroundDeletion: @unchecked Sendable {
    private let graph: ObjectGraph
    private let object: GraphObject
    private let condition = NSCondition()
    private var outcome: Result<[Deletions], GraphError>?

    init(graph: ObjectGraph, object: GraphObject) {
        self.graph = graph
        self.object = object
    }

    func start() {
        Thread {
            let outcome = Result { () throws(GraphError) in try self.graph.delete(self.object) }
            self.condition.withLock {
                self.outcome = outcome
                self.condition.broadcast()
            }
        }.start()
    }

    var isDone: Bool { condition.withLock { outcome != nil } }

    /// Waits for the deletion to end.
    func result() -> Result<[Deletions], GraphError> {
        condition.withLock {
            while outcome == nil { condition.wait() }
            return outcome!
        }
    }
}

@Suite("Read API: changes since a run")
struct ObjectGraphChangesTests {
    static let map = """
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

    static func changes(_ graph: ObjectGraph, since run: Int64, entities: [String]? = nil) throws -> [String] {
        var lines: [String] = []
        try graph.changes(since: run, entities: entities) { lines.append($0.jsonLine) }
        return lines
    }

    /// Inserted and changed objects, each with its run and values, in the runs' order: the same
    /// lines from either store.
    @Test(arguments: StoreKind.testable) func listsInsertedAndChangedObjectsWithTheirRunsOnEitherStore(_ kind: StoreKind) throws {
        let plan = try ImportPlan.compile(text: Self.map.replacingOccurrences(of: "  delete missing\n", with: ""), fileName: "posts.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(#"[{"id": 1, "title": "a", "user": 7}, {"id": 2, "title": "b"}, {"id": 3, "title": "c"}]"#, plan: plan).get()
        _ = try store.importJSON(#"[{"id": 1, "title": "a2", "user": 7}, {"id": 3, "title": "c"}, {"id": 4, "title": "d", "user": 8}]"#, plan: plan).get()
        let graph = try ObjectGraph(store: store.location, plan: plan)
        #expect(
            try Self.changes(graph, since: 1) == [
                #"{"entity":"Post","key":{"id":1},"change":"changed","run":2,"values":{"id":1,"title":"a2","author":{"id":7}}}"#,
                #"{"entity":"Post","key":{"id":4},"change":"inserted","run":2,"values":{"id":4,"title":"d","author":{"id":8}}}"#,
                #"{"entity":"User","key":{"id":8},"change":"inserted","run":2,"values":{"id":8}}"#,
            ])
        #expect(try Self.changes(graph, since: 0, entities: ["Post"]).count == 4)
        #expect(try Self.changes(graph, since: 2).isEmpty)
    }

    @Test(arguments: StoreKind.testable)
    func listsInsertedChangedAndDeletedObjectsWithTheirRuns(_ kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.map)
        try store.importJSON(#"[{"id": 1, "title": "a", "user": 7}, {"id": 2, "title": "b"}, {"id": 3, "title": "c"}]"#)
        try store.importJSON(#"[{"id": 1, "title": "a2", "user": 7}, {"id": 3, "title": "c"}, {"id": 4, "title": "d", "user": 8}]"#)
        let graph = try ObjectGraph(store: store.store.location, plan: store.plan)
        #expect(
            try Self.changes(graph, since: 1) == [
                #"{"entity":"Post","key":{"id":2},"change":"deleted","run":2}"#,
                #"{"entity":"Post","key":{"id":1},"change":"changed","run":2,"values":{"id":1,"title":"a2","author":{"id":7}}}"#,
                #"{"entity":"Post","key":{"id":4},"change":"inserted","run":2,"values":{"id":4,"title":"d","author":{"id":8}}}"#,
                #"{"entity":"User","key":{"id":8},"change":"inserted","run":2,"values":{"id":8}}"#,
            ])
        #expect(try Self.changes(graph, since: 2).isEmpty)
        #expect(try Self.changes(graph, since: 0, entities: ["User"]).count == 2)
        let read = try graph.changes(since: 0) { _ in }
        #expect(read.deletionsRecordedSince == 1)
        // A deletion through the API is a run of its own, and a change like any other.
        try graph.delete(try #require(try graph.object("Post", key: 3)))
        #expect(try Self.changes(graph, since: 2) == [#"{"entity":"Post","key":{"id":3},"change":"deleted","run":3}"#])
        #expect(throws: GraphError(.unknownName, "the map test.map has no entity 'Users'", hint: "did you mean 'User'?")) {
            try graph.changes(since: 0, entities: ["Users"]) { _ in }
        }
    }

    @Test(arguments: StoreKind.testable)
    func aStoreMadeBeforeDeletionsWereRecordedSaysFromWhichRun(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.map)
        try fixture.importJSON(#"[{"id": 1, "title": "a"}]"#)
        // As a store made before graphimport recorded deletions: no table.
        try fixture.execute("DROP TABLE graphimport_deleted")
        try fixture.importJSON(#"[{"id": 2, "title": "b"}]"#)
        let graph = try ObjectGraph(store: fixture.store.location, plan: fixture.plan)
        let read = try graph.changes(since: 0) { _ in }
        #expect(read.deletionsRecordedSince == 2)
        #expect(try Self.changes(graph, since: 0).contains(#"{"entity":"Post","key":{"id":1},"change":"deleted","run":2}"#))
    }
}
