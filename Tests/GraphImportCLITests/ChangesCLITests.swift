import Foundation
import GraphImport
import GraphImportCLI
import GraphImportJSON
import GraphImportSchema
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// `graphimport changes`: what the runs after a given one inserted, changed and deleted, as JSON
/// Lines, and readers that go on reading while an import holds the store.
@Suite("Command line, changes since a run")
struct ChangesCLITests {
    static let map = """
        records at $[*] as Post
        entity Post
          key id
          delete missing
          id : Int
          title : String
          published : Bool?
          author <- user : User? inverse posts
          tags : [Tag] inverse posts
        entity User
          key id
          id : Int
        entity Tag
          key name
          name : String
        """

    /// A store with two runs: run 1 imports posts 1, 2, 3; run 2 changes 1, drops 2, adds 4. The
    /// store beside the map (SQLite's default), or a store of `kind` named with `--store`.
    static func store(_ dir: TemporaryDirectory, _ kind: StoreKind? = nil) throws -> (map: String, store: StoreUnderTest?) {
        let map = dir.write("posts.map", Self.map)
        let store = try kind.map { try StoreUnderTest($0) }
        let named = store.map { ["--store", $0.location] } ?? []
        let first = dir.write(
            "1.json", #"[{"id":1,"title":"a","published":true,"user":7,"tags":["x"]},{"id":2,"title":"b"},{"id":3,"title":"c"}]"#)
        let second = dir.write("2.json", #"[{"id":1,"title":"a!","published":true,"user":7,"tags":["x","y"]},{"id":3,"title":"c"},{"id":4,"title":"d"}]"#)
        for feed in [first, second] {
            let result = runInProcess([feed, "--map", map, "--quiet"] + named)
            #expect(result.status == 0, "\(result.stderr)")
        }
        return (map, store)
    }

    /// Inserts and changes, from either store: the same lines.
    @Test(arguments: StoreKind.testable) func listsInsertsAndChangesAsTheSameJSONLinesOnEitherStore(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let map = store.directory.write("posts.map", Self.map.replacingOccurrences(of: "  delete missing\n", with: ""))
        let first = store.directory.write("1.json", #"[{"id":1,"title":"a","published":true,"user":7,"tags":["x"]},{"id":2,"title":"b"}]"#)
        let second = store.directory.write("2.json", #"[{"id":1,"title":"a!","published":true,"user":7,"tags":["x","y"]},{"id":4,"title":"d"}]"#)
        for feed in [first, second] {
            let result = runInProcess([feed, "--map", map, "--store", store.location, "--quiet"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let result = runInProcess(["changes", "--map", map, "--since-run", "1", "--store", store.location])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                {"entity":"Post","key":{"id":1},"change":"changed","run":2,"values":{"id":1,"title":"a!","published":true,"author":{"id":7},"tags":[{"name":"x"},{"name":"y"}]}}
                {"entity":"Post","key":{"id":4},"change":"inserted","run":2,"values":{"id":4,"title":"d","published":null,"author":null,"tags":[]}}
                {"entity":"Tag","key":{"name":"y"},"change":"inserted","run":2,"values":{"name":"y"}}

                """)
    }

    @Test(arguments: StoreKind.testable)
    func listsWhatTheRunsAfterNDidAsJSONLines(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let (map, store) = try Self.store(dir, kind)
        let location = try #require(store).location
        let result = runInProcess(["changes", "--map", map, "--since-run", "1", "--store", location])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(
            result.stdout == """
                {"entity":"Post","key":{"id":2},"change":"deleted","run":2}
                {"entity":"Post","key":{"id":1},"change":"changed","run":2,"values":{"id":1,"title":"a!","published":true,"author":{"id":7},"tags":[{"name":"x"},{"name":"y"}]}}
                {"entity":"Post","key":{"id":4},"change":"inserted","run":2,"values":{"id":4,"title":"d","published":null,"author":null,"tags":[]}}
                {"entity":"Tag","key":{"name":"y"},"change":"inserted","run":2,"values":{"name":"y"}}

                """)
        #expect(runInProcess(["changes", "--map", map, "--since-run", "2", "--store", location]).stdout == "")
        let users = runInProcess(["changes", "--map", map, "--since-run", "0", "--entity", "User", "--store", location])
        #expect(users.stdout == #"{"entity":"User","key":{"id":7},"change":"inserted","run":1,"values":{"id":7}}"# + "\n")
    }

    // One store: a usage error, found in the map before the store is read.
    @Test func anUnknownEntityIsAUsageErrorThatSuggestsTheClosest() throws {
        let dir = TemporaryDirectory()
        let (map, _) = try Self.store(dir)
        let result = runInProcess(["changes", "--map", map, "--since-run", "0", "--entity", "Posts"])
        #expect(result.status == 64)
        #expect(
            result.stderr == """
                Error: Unknown entity 'Posts' for '--entity': \(map) has Post, User, Tag
                Did you mean 'Post'?
                Usage: graphimport changes --map <map> --since-run <n> [--store <path>] [--entity <name> ...] [--include-path <dir> ...]
                  See 'graphimport changes --help'.

                """)
    }

    // SQLite only: usage errors, and a store file that is not there.
    @Test func aMissingOrBadRunAndAMissingStoreAreRefused() {
        let dir = TemporaryDirectory()
        let map = dir.write("posts.map", Self.map)
        #expect(runInProcess(["changes", "--map", map]).stderr.hasPrefix("Error: Missing expected argument '--since-run <n>'\n"))
        let bad = runInProcess(["changes", "--map", map, "--since-run", "-1"])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("Error: The value '-1' is invalid for '--since-run'\n"))
        let missing = runInProcess(["changes", "--map", map, "--since-run", "0"])
        #expect(missing.status == 66)
        #expect(missing.stderr == "graphimport: error: no store at \(dir.path("posts.sqlite"))\nhint: import into it first, or name it with --store\n")
    }

    @Test(arguments: StoreKind.testable)
    func aStoreOlderThanTheDeletionRecordSaysWhichRunsItCannotReport(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let (map, named) = try Self.store(dir, kind)
        let store = try #require(named)
        // As a store whose first two runs were made before graphimport recorded deletions.
        try store.execute("DROP TABLE graphimport_deleted")
        let feed = dir.write("3.json", #"[{"id":1,"title":"a!","published":true,"user":7,"tags":["x","y"]}]"#)
        #expect(runInProcess([feed, "--map", map, "--store", store.location, "--quiet"]).status == 0)
        let result = runInProcess(["changes", "--map", map, "--since-run", "0", "--entity", "Post", "--store", store.location])
        #expect(result.status == 0)
        #expect(result.stderr == "graphimport: warning: this store records deleted objects from run 3 on; objects deleted by runs 1 to 2 are not listed\n")
        #expect(result.stdout.contains(#"{"entity":"Post","key":{"id":3},"change":"deleted","run":3}"#))
        #expect(runInProcess(["changes", "--map", map, "--since-run", "2", "--store", store.location]).stderr == "")
    }

    /// The README's promise: readers see the store as last committed while an import holds it,
    /// and are not made to wait. The hook runs inside the import's write transaction, so the
    /// readers below run while it is open; a reader that waited for it would never return.
    /// A write left open (as an import's transaction is until it commits): the read API and
    /// `changes` see the store as last committed, on either store, and the write once it commits.
    @Test(arguments: StoreKind.testable) func theReadAPIAndChangesSeeTheLastCommitWhileAWriteIsOpen(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let text = Self.map.replacingOccurrences(of: "  delete missing\n", with: "")
        let map = store.directory.write("posts.map", text)
        let plan = try ImportPlan.compile(text: text, fileName: map)
        _ = try store.importJSON(#"[{"id":1,"title":"a"},{"id":2,"title":"b"}]"#, plan: plan).get()
        _ = try store.importJSON(#"[{"id":3,"title":"c"}]"#, plan: plan).get()
        let graph = try ObjectGraph(store: store.location, plan: plan)
        try store.whileWriting(#"UPDATE posts SET title = 'changed'; INSERT INTO posts (id, title, inserted_run, changed_run) VALUES (9, 'new', 3, 3)"#) {
            () throws in
            #expect(try graph.objects("Post").map { try $0.string("title") } == ["a", "b", "c"])
            let changes = runInProcess(["changes", "--map", map, "--since-run", "2", "--store", store.location])
            #expect(changes.status == 0 && changes.stdout == "", "\(changes.stderr)")
        }
        #expect(try graph.objects("Post").map { try $0.string("title") } == ["changed", "changed", "changed", "new"])
        let changes = runInProcess(["changes", "--map", map, "--since-run", "2", "--store", store.location])
        #expect(changes.stdout.contains(#""key":{"id":9},"change":"inserted","run":3"#))
    }

    // SQLite only: the readers run inside a real import's write transaction, from its hook; the
    // test above holds a write open on either store.
    @Test func theReadAPIAndChangesReadWhileAnImportHoldsTheStore() throws {
        let dir = TemporaryDirectory()
        let (map, _) = try Self.store(dir)
        let store = dir.path("posts.sqlite")
        let plan = try ImportPlan.compile(text: Self.map, fileName: map)
        let seen = Capture()
        var hooks = ImportHooks()
        hooks.beforeSave["Post"] = Self.readers(store: store, map: map, plan: plan, into: seen)
        let summary = try GraphImporter(plan: plan, hooks: hooks).run(
            source: BytesSource(Array(#"[{"id":5,"title":"e"}]"#.utf8)), inputName: "5.json", storePath: store, options: ImportOptions())
        #expect(summary.importedRecords == 1)
        #expect(seen.text == "posts 3\nchanges 0 []\n")
        #expect(
            runInProcess(["changes", "--map", map, "--since-run", "2", "--entity", "Post"]).stdout.contains(#""key":{"id":5},"change":"inserted","run":3"#))
    }

    /// A `beforeSave` hook that, the first time, reads the store through the API and `changes`.
    static func readers(store: String, map: String, plan: ImportPlan, into seen: Capture) -> @Sendable (ObjectValues) throws(HookFailure) -> Void {
        @Sendable func read(_ object: ObjectValues) throws(HookFailure) {
            guard seen.text.isEmpty else { return }
            do {
                let graph = try ObjectGraph(store: store, plan: plan, readOnly: true)
                seen.append("posts \(try graph.objects("Post").count)\n")
            } catch {
                seen.append("read API failed: \(error)\n")
            }
            let changes = runInProcess(["changes", "--map", map, "--since-run", "2"])
            seen.append("changes \(changes.status) [\(changes.stdout)]\n")
        }
        return read
    }
}
