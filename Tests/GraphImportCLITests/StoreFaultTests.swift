import Foundation
import GraphImportSchema
import GraphImportStore
import GraphImportTestSupport
import Testing

/// Stores and maps that are not what they should be: damaged, another program's, not SQLite,
/// hard-linked; maps that are not UTF-8 or cannot be read. Each ends with its own exit status and a
/// message that says what is wrong, and nothing is written. SQLite's files and wording: the
/// server's faults are PostgresFaultTests', a constraint of the store and a busy store on both
/// stores StoreFailureOnBothStoresTests', refused migrations on both the migration tests'.
@Suite("Command line, store and map faults")
struct StoreFaultTests {
    static let feed = #"[{"id":1,"name":"a"},{"id":2,"name":"b"}]"#

    /// A directory with the items map, a feed, and a store imported from it.
    func imported() -> (dir: TemporaryDirectory, map: String, feed: String, store: String) {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", CommandLineTests.map)
        let feed = dir.write("feed.json", Self.feed)
        let store = dir.path("items.sqlite")
        let result = runInProcess([feed, "--map", map, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        return (dir, map, feed, store)
    }

    @Test func aStoreThatFailsQuickCheckExits72AndIsNotWritten() throws {
        let (dir, map, feed, store) = imported()
        // Damage where the import never reads: a page of 0xFF as the root of a table the map does
        // not name. Only a check of the whole file finds it before the import writes.
        // The connection closes before the damage, so that the table is in the file, not in its -wal.
        let root = try { () throws -> SQLValue? in
            let database = try Database(path: store)
            try database.execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('kept')")
            return try database.scalar("SELECT rootpage FROM sqlite_schema WHERE name = 'notes'")
        }()
        guard case .integer(let page)? = root else {
            Issue.record("no root page")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: store + "-wal"))
        let handle = try #require(FileHandle(forUpdatingAtPath: store))
        try handle.seek(toOffset: UInt64(page - 1) * 4096)
        handle.write(Data(repeating: 0xFF, count: 4096))
        try handle.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let result = runInProcess([feed, "--map", map])
        #expect(result.status == 72, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("graphimport: error: the store \(store) is damaged: "))
        #expect(result.stderr.hasSuffix("hint: nothing was written to it; restore it from a backup, or import into a new store with --store NEW.sqlite\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        withExtendedLifetime(dir) {}
    }

    /// Every refusal of a store leaves its file byte for byte as it was, also when it is in the
    /// rollback journal's mode, as another program's database or a store after its first import
    /// is: nothing switches it to WAL (which rewrites the header) before the checks.
    @Test func aRefusedStoreInTheRollbackJournalsModeIsLeftByteForByte() throws {
        let (dir, map, feed, store) = imported()
        let rollback = Database.Options(writeAheadLog: false)
        let other = dir.path("app.sqlite")
        try Database(path: other, options: rollback).execute("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('ann')")
        // Damage where the import never reads, as in aStoreThatFailsQuickCheckExits72AndIsNotWritten.
        let root = try { () throws -> SQLValue? in
            let database = try Database(path: store, options: rollback)
            try database.execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('kept')")
            return try database.scalar("SELECT rootpage FROM sqlite_schema WHERE name = 'notes'")
        }()
        guard case .integer(let page)? = root else {
            Issue.record("no root page")
            return
        }
        let handle = try #require(FileHandle(forUpdatingAtPath: store))
        try handle.seek(toOffset: UInt64(page - 1) * 4096)
        handle.write(Data(repeating: 0xFF, count: 4096))
        try handle.close()
        let refusals: [(path: String, arguments: [String], status: Int32)] = [
            (other, [feed, "--map", map, "--store", other], 73),
            (other, [feed, "--map", map, "--store", other, "--dry-run"], 73),
            (other, ["meta", "set", "etag", "x", "--store", other], 73),
            (other, ["meta", "unset", "etag", "--store", other], 73),
            (store, [feed, "--map", map, "--store", store], 72),
            (store, [feed, "--map", map, "--store", store, "--dry-run"], 72),
        ]
        for (path, arguments, status) in refusals {
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(try sqlite(path, "PRAGMA journal_mode") == "delete")
            let result = runInProcess(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(status != 72 || result.stderr.contains("nothing was written"), "\(arguments): \(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(arguments) changed \(path)")
        }
    }

    /// A store left with a hot journal (a writer in the rollback journal's mode killed after it
    /// wrote pages into the file) cannot be read by a read-only connection: the checks then run
    /// on the import's own connection, which rolls the journal back first, and the import succeeds.
    @Test func aStoreWithAHotJournalIsCheckedByTheWriterAndImported() throws {
        let (dir, map, feed, store) = imported()
        #expect(try sqlite(store, "PRAGMA journal_mode") == "delete")
        let marker = dir.path("spilled")
        let writer = try BackgroundProcess("/usr/bin/sqlite3", [store], in: dir, pipeInput: true)
        // A page cache of two pages makes SQLite write the transaction's pages into the store
        // before COMMIT, with the originals in the journal; the marker says it has.
        writer.writeInput(
            "PRAGMA cache_size = 2;\nBEGIN;\nCREATE TABLE filler (x);\n"
                + "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO filler SELECT randomblob(200) FROM n;\n"
                + ".system touch \(marker)\n")
        try #require(waitUntil { FileManager.default.fileExists(atPath: marker) }, "the writer never spilled its transaction")
        kill(writer.process.processIdentifier, SIGKILL)
        _ = writer.finish()
        try #require(FileManager.default.fileExists(atPath: store + "-journal"))
        let result = runInProcess([feed, "--map", map, "--store", store, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try sqlite(store, "SELECT count(*) FROM sqlite_schema WHERE name = 'filler'") == "0")
        #expect(try sqlite(store, "PRAGMA integrity_check") == "ok")
    }

    @Test func aStoreCutShortExits72() throws {
        let (dir, map, feed, store) = imported()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int)
        #expect(truncate(store, off_t(size - 4096)) == 0)
        let result = runInProcess([feed, "--map", map])
        #expect(result.status == 72, "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix("graphimport: error: the store \(store) is damaged: SQLite error 11: database disk image is malformed\n"),
            "\(result.stderr)")
        withExtendedLifetime(dir) {}
    }

    @Test func aFileThatIsNotSQLiteExits73WithoutTheFreeSpaceHint() {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", CommandLineTests.map)
        let feed = dir.write("feed.json", Self.feed)
        let notAStore = dir.write("notes.sqlite", String(repeating: "not a database, only some text\n", count: 200))
        let result = runInProcess([feed, "--map", map, "--store", notAStore])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(
            result.stderr == """
                graphimport: error: \(notAStore) is not a SQLite database: SQLite error 26: file is not a database
                hint: check the --store path; nothing was written to it

                """)
    }

    @Test func anotherProgramsDatabaseIsRefusedUntilAdopted() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", CommandLineTests.map)
        let feed = dir.write("feed.json", Self.feed)
        let other = dir.path("app.sqlite")
        try Database(path: other).execute("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('ann')")
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        let refused = runInProcess([feed, "--map", map, "--store", other])
        #expect(refused.status == 73)
        #expect(
            refused.stderr == """
                graphimport: error: \(other) is not a graphimport store: it holds tables of another program (contacts) and none of graphimport's
                hint: check the --store path; to import into this database anyway, pass --adopt-store: the map's tables and graphimport_schema, graphimport_runs and graphimport_meta are added beside its tables, which are left as they are

                """)
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)
        let adopted = runInProcess([feed, "--map", map, "--store", other, "--adopt-store", "--quiet"])
        #expect(adopted.status == 0, "\(adopted.stderr)")
        let database = try Database(path: other)
        #expect(try database.rows("SELECT name FROM contacts") == [[.text("ann")]])
        #expect(try database.scalar("SELECT count(*) FROM items") == .integer(2))
        // Adopted once, it is a store: the next import needs no flag.
        #expect(runInProcess([feed, "--map", map, "--store", other, "--quiet"]).status == 0)
    }

    @Test func aRefusedMigrationPointsAtTheMapLineAndExits78() {
        let (dir, _, feed, store) = imported()
        let changed = dir.write("changed.map", CommandLineTests.map.replacingOccurrences(of: "name : String", with: "name : Int"))
        let result = runInProcess([feed, "--map", changed, "--store", store])
        #expect(result.status == 78)
        #expect(
            result.stderr == """
                graphimport: error: cannot migrate the store \(store) to this map; nothing was imported
                \(changed):4:3: error: column items.name is TEXT in the store and INTEGER in the map; SQLite cannot change a column's type in place
                 4 |   name : Int
                   |   ^
                help: import into a new store with --store NEW.sqlite, or delete the store to rebuild it

                """)
    }

    @Test func metaSetRefusesAnotherProgramsDatabase() throws {
        let dir = TemporaryDirectory()
        let other = dir.path("app.sqlite")
        try Database(path: other).execute("CREATE TABLE contacts (name TEXT)")
        let result = runInProcess(["meta", "set", "etag", "x", "--store", other])
        #expect(result.status == 73)
        #expect(
            result.stderr == """
                graphimport: error: \(other) is not a graphimport store: it holds tables of another program (contacts) and none of graphimport's
                hint: check the path; to make this database a store, import into it once with --adopt-store

                """)
        #expect(try Database(path: other).scalar("SELECT count(*) FROM sqlite_schema") == .integer(1))
    }

    @Test func anEmptyFileIsANewStoreNotAForeignOne() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", CommandLineTests.map)
        let feed = dir.write("feed.json", Self.feed)
        let empty = dir.write("empty.sqlite", "")
        let result = runInProcess([feed, "--map", map, "--store", empty, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func aConstraintOfTheStoreExits65WithoutTheFreeSpaceHint() throws {
        let (dir, map, _, store) = imported()
        try Database(path: store).execute(
            "CREATE TRIGGER no_c BEFORE INSERT ON items WHEN NEW.name = 'c' BEGIN SELECT RAISE(ABORT, 'no c here'); END")
        let feed = dir.write("more.json", #"[{"id":3,"name":"c"}]"#)
        let result = runInProcess([feed, "--map", map])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("graphimport: error: the store \(store) refused a row: SQLite error 19: no c here"))
        #expect(!result.stderr.contains("ulimit"))
    }

    @Test func aHardLinkedStoreIsImportedWithAWarning() throws {
        let (dir, map, feed, store) = imported()
        #expect(link(store, dir.path("alias.sqlite")) == 0)
        let result = runInProcess([feed, "--map", map, "--quiet"])
        #expect(result.status == 0)
        #expect(
            result.stderr == """
                graphimport: warning: the store \(store) has 2 hard links: SQLite names its journal after the path, so after a crash an import or a reader through another name does not see the journal and may read a half-written store
                hint: keep one name for the store: remove the other links (find / -samefile STORE lists them)

                """)
    }

    @Test func aDirectoryAsTheInputExits66() {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", CommandLineTests.map)
        let result = runInProcess([dir.path(""), "--map", map])
        #expect(result.status == 66)
        #expect(result.stderr == "graphimport: error: cannot open the input '\(dir.path(""))': it is a directory\n")
    }

    @Test func aMapThatIsNotUTF8Exits78AtItsFirstBadByte() throws {
        let dir = TemporaryDirectory()
        let map = dir.path("latin1.map")
        try Data(Array("entity Item\n  key id\n  id : Int\n  caf".utf8) + [0xE9] + Array(" : String\n".utf8)).write(to: URL(fileURLWithPath: map))
        let result = runInProcess(["check", "--map", map])
        #expect(result.status == 78)
        #expect(
            result.stderr == """
                \(map):4:6: error: the map is not UTF-8 text: byte 0xE9 cannot start or continue a character
                 4 |   caf\u{FFFD} : String
                   |      ^
                help: save the map as UTF-8
                graphimport: 1 error in the map

                """)
    }

    @Test func aMapDirectoryIsSaidToBeOne() {
        let dir = TemporaryDirectory()
        let result = runInProcess(["check", "--map", dir.path("")])
        #expect(result.status == 66)
        #expect(result.stderr == "graphimport: error: cannot read the map '\(dir.path(""))': it is a directory\n")
    }

    @Test(.enabled(if: ReliabilityFaultTests.isRoot, "needs root to run the binary as nobody"))
    func aMapWithoutReadPermissionSaysSo() throws {
        let dir = TemporaryDirectory()
        let home = try ReliabilityFaultTests.directoryOwnedByNobody(dir, mode: 0o755)
        let map = home + "/secret.map"
        try CommandLineTests.map.write(toFile: map, atomically: false, encoding: .utf8)
        try ReliabilityFaultTests.own(map, mode: 0o200)
        let outcome = try ReliabilityFaultTests.runAsNobody(["check", "--map", map], in: dir)
        #expect(outcome.exitStatus == 66, "\(outcome.report)")
        #expect(outcome.stderr == "graphimport: error: cannot read the map '\(map)': permission denied\n", "\(outcome.report)")
    }

    @Test func controlCharactersOfAMapLineAreEscapedUnderTheirCaret() {
        let dir = TemporaryDirectory()
        let map = dir.write("esc.map", "entity Item\n  key id\n  id : Int\n  \u{1B}[31mname : String\n")
        let result = runInProcess(["check", "--map", map])
        #expect(result.status == 78)
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(result.stderr.contains(" 4 |   \\u{1b}[31mname : String\n"))
    }
}
