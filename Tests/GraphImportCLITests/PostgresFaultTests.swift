import Foundation
import GraphImportPostgres
import GraphImportTestSupport
import Testing

/// What a PostgreSQL fault does to an import, against real servers: one `graphimport: error:`
/// line and its hint, the exit status of README.md's table (the same in `--json`), never the
/// password, the run history telling what it can, and the database as it was before. A test that
/// stops the server has a cluster of its own, so that the tests sharing one are not hurt.
@Suite("PostgreSQL: faults", PostgresCLITests.needsPostgres)
struct PostgresFaultTests {
    /// Where an import is when the fault lands: waiting for the rest of its feed after a first
    /// batch was written, inside a statement that runs on the server, or in its COMMIT.
    enum Moment: String, CaseIterable, Sendable {
        case betweenBatches
        case inAStatement
        case inCommit
    }

    // MARK: The server goes away

    /// What a lost connection's line says: the server's reason when libpq read it before the
    /// socket closed (a matter of timing), else libpq's own.
    static let lostConnectionReasons = [
        "terminating connection due to administrator command", "terminating connection due to immediate shutdown command",
        "server closed the connection unexpectedly",
    ]

    @Test(arguments: [PostgresTestCluster.StopMode.fast, .immediate], Moment.allCases)
    func aServerStoppedMidImportExits75AndLeavesTheDatabaseAsItWas(mode: PostgresTestCluster.StopMode, moment: Moment) throws {
        let cluster = try PostgresTestCluster.makeOwn()
        let fixture = try FaultFixture(cluster: cluster)
        let running = try fixture.startStalledImport(at: moment)
        try cluster.stopServer(mode: mode)
        let result = fixture.finish(running, moment: moment)
        try cluster.startServer()

        if moment == .inCommit {
            // No server to ask whether the COMMIT happened (it did not): the import says it cannot tell.
            try expectOneError(
                result, status: 75, startingWith: "the connection to \(fixture.shownStore) was lost: ",
                hint: "graphimport runs tells: the run is succeeded if it was committed, running if not; importing again is safe")
            #expect(result.stderr.contains(" during COMMIT: the import may or may not have been committed\n"), "\(result.stderr)")
        } else {
            try expectOneError(result, status: 75, startingWith: "the connection to \(fixture.shownStore) was lost: ", hint: "retry when the server is back")
            #expect(Self.lostConnectionReasons.contains { result.stderr.contains("was lost: \($0)\n") }, "\(result.stderr)")
        }
        try fixture.expectDatabaseAsBefore()
        // The server was gone when the import would have recorded its failure: its run stays begun.
        #expect(try fixture.lastRun() == "running||", "\(result.stderr)")
        #expect(!result.stderr.contains(FaultFixture.password) && !result.stdout.contains(FaultFixture.password))
    }

    @Test(arguments: Moment.allCases)
    func aTerminatedBackendExits75AndTheRunIsRecordedAsFailed(moment: Moment) throws {
        let fixture = try FaultFixture(cluster: PostgresTestCluster.shared())
        let running = try fixture.startStalledImport(at: moment)
        // Waits (up to a minute) until the backend is gone.
        let terminated = try fixture.cluster.psql(
            "postgres",
            "SELECT bool_and(pg_terminate_backend(pid, 60000)) FROM pg_stat_activity "
                + "WHERE datname = '\(fixture.database.name)' AND application_name = 'graphimport'")
        #expect(terminated == "t\n")
        let result = fixture.finish(running, moment: moment)

        try expectOneError(result, status: 75, startingWith: "the connection to \(fixture.shownStore) was lost: ", hint: "retry when the server is back")
        #expect(Self.lostConnectionReasons.contains { result.stderr.contains("was lost: \($0)\n") }, "\(result.stderr)")
        try fixture.expectDatabaseAsBefore()
        // The server is still there: a new connection records the run's end.
        let run = try fixture.lastRun()
        // The server's own FATAL message carries its SQLSTATE (57P01) when it reached libpq before the
        // connection closed, and not when the close came first: which one wins is the scheduler's.
        #expect(
            Self.lostConnectionReasons.contains { reason in
                ["failed|t|PostgreSQL error: ", "failed|t|PostgreSQL error 57P01: "].contains { run.hasPrefix("\($0)\(reason) - while executing `") }
            }, "\(run)")
        #expect(!run.contains(FaultFixture.password))
    }

    /// The server committed and the connection was lost before its reply came (a proxy drops it):
    /// a new connection finds the run committed, and the import says it succeeded, not that
    /// nothing was written.
    @Test func aCommitWhoseReplyIsLostIsFoundCommittedAndExits0() throws {
        let fixture = try FaultFixture(cluster: PostgresTestCluster.shared())
        // The import's session commits twice: the run's beginning, then the import.
        let proxy = try CommitDroppingProxy(server: fixture.cluster.directory, dropping: 2)
        let store = "host=\(proxy.directory.url.path) port=5432 dbname=\(fixture.database.name) user=\(PostgresTestCluster.superuser)"
        let result = runInProcess(["-", "--map", fixture.map, "--store", store, "--json"], stdinText: fixture.revisedFeed)

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("graphimport: imported 400 records"), "\(result.stderr)")
        #expect(try fixture.lastRun() == "succeeded|t|")
        #expect(try fixture.cluster.psql(fixture.database.name, "SELECT count(*) FROM items WHERE name LIKE '% r2'") == "400\n")
    }

    // MARK: The server refuses a statement

    /// Where `statement_timeout` comes from: the connection string's `options`, or `PGOPTIONS`.
    enum TimeoutSetting: String, CaseIterable, Sendable {
        case connectionString
        case pgoptions
    }

    @Test(arguments: TimeoutSetting.allCases)
    func aStatementTimeoutExits75AndTheRunIsRecordedAsFailed(setting: TimeoutSetting) throws {
        let fixture = try FaultFixture(cluster: PostgresTestCluster.shared())
        // A lock held on a table the import writes: its statement waits until the timeout cancels it.
        let holder = try PostgresConnection(#require(ConnectionString(fixture.database.connectionString)))
        try holder.begin()
        try holder.execute("LOCK TABLE items IN ACCESS EXCLUSIVE MODE")
        defer { holder.rollback() }
        let result: CommandResult
        switch setting {
        case .connectionString:
            let store = fixture.database.connectionString + " options='-c statement_timeout=200'"
            result = runInProcess(["-", "--map", fixture.map, "--store", store, "--json"], stdinText: fixture.revisedFeed)
        case .pgoptions:
            let feed = fixture.dir.write("revised.json", fixture.revisedFeed)
            var environment = ProcessInfo.processInfo.environment
            environment["PGOPTIONS"] = "-c statement_timeout=200"
            result = try runProcess(
                graphimportBinary.path, [feed, "--map", fixture.map, "--store", fixture.database.connectionString, "--json"], environment: environment)
        }
        holder.rollback()

        try expectOneError(
            result, status: 75, startingWith: "a statement on host=\(fixture.cluster.directory) ", hint: "raise statement_timeout for this user, or retry later"
        )
        #expect(result.stderr.contains("was cancelled: canceling statement due to statement timeout"), "\(result.stderr)")
        try fixture.expectDatabaseAsBefore()
        #expect(try fixture.lastRun().hasPrefix("failed|t|PostgreSQL error 57014: canceling statement due to statement timeout"))
    }

    /// A server that may not write a file past 20 MiB (its `ulimit -f`: a disk too small for the
    /// feed, without root): the table's growth fails as on a full disk, with the server's own
    /// `disk_full` (SQLSTATE 53100, `could not extend file …`).
    @Test func aFullDiskOnTheServerExits74AndTheRunIsRecordedAsFailed() throws {
        let cluster = try PostgresTestCluster.makeOwn(fileSizeLimit: 20 * 1024 * 1024 + 1024)
        let fixture = try FaultFixture(cluster: cluster)
        // Rows of 1.5 kB, below the size PostgreSQL compresses: 16000 of them outgrow the limit.
        let padding = String(repeating: "x", count: 1500)
        let records = (1...16000).map { #"{"id": \#($0), "name": "\#(padding)\#($0)", "owner": {"login": "o1"}, "tags": []}"# }
        let feed = fixture.dir.write("big.json", "[" + records.joined(separator: ",\n") + "]")
        let result = runInProcess([feed, "--map", fixture.map, "--store", fixture.store, "--json"])

        try expectOneError(
            result, status: 74, startingWith: "the PostgreSQL server's disk is full while writing \(fixture.shownStore): could not extend file \"base/",
            hint: "free space on the server, then retry; nothing was written")
        try fixture.expectDatabaseAsBefore()
        #expect(try fixture.lastRun().hasPrefix("failed|t|PostgreSQL error 53100: could not extend file"))
        #expect(!result.stderr.contains(FaultFixture.password) && !result.stdout.contains(FaultFixture.password))
    }

    // MARK: The server refuses the connection

    /// `PGPASSWORD` wrong, or no password at all (no `PGPASSWORD`, no `~/.pgpass`), for a role
    /// the server asks a password of.
    @Test(arguments: ["wr0ng-Secret", nil])
    func aWrongOrMissingPasswordExits77AndChangesNothing(password: String?) throws {
        let fixture = try FaultFixture(cluster: PostgresTestCluster.shared())
        let store = fixture.cluster.connectionString(database: fixture.database.name, user: PostgresTestCluster.passwordRole)
        let home = TemporaryDirectory()
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PG") }
        environment["HOME"] = home.url.path
        environment["PGPASSWORD"] = password
        let feed = fixture.dir.write("revised.json", fixture.revisedFeed)
        let result = try runProcess(graphimportBinary.path, [feed, "--map", fixture.map, "--store", store, "--json"], environment: environment)

        try expectOneError(
            result, status: 77, startingWith: "the PostgreSQL server refused the login to \(store): ",
            hint: "check the user, and the password in PGPASSWORD or ~/.pgpass (not on the command line)")
        #expect(
            result.stderr.contains(password == nil ? "no password supplied" : "password authentication failed for user \"writer\""), "\(result.stderr)")
        #expect(!result.stderr.contains("wr0ng-Secret") && !result.stdout.contains("wr0ng-Secret"))
        #expect(!result.stderr.contains(PostgresTestCluster.rolePassword))
        try fixture.expectDatabaseAsBefore(runs: 0)
    }

    @Test func aDatabaseThatDoesNotExistExits73AndIsNotCreated() throws {
        let cluster = try PostgresTestCluster.shared()
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", FaultFixture.mapText)
        let name = "no_such_db_\(UUID().uuidString.prefix(8).lowercased())"
        let store = cluster.connectionURI(database: name, password: FaultFixture.password)
        let result = runInProcess(["-", "--map", map, "--store", store, "--json"], stdinText: FaultFixture.feed(1...3, revision: 1))

        let shown = store.replacingOccurrences(of: FaultFixture.password, with: "***")
        try expectOneError(result, status: 73, startingWith: "the database of \(shown) does not exist: ", hint: "create it first (createdb NAME)")
        #expect(result.stderr.contains("database \"\(name)\" does not exist"), "\(result.stderr)")
        #expect(!result.stderr.contains(FaultFixture.password) && !result.stdout.contains(FaultFixture.password))
        #expect(try cluster.psql("postgres", "SELECT count(*) FROM pg_database WHERE datname = '\(name)'") == "0\n")
    }

    /// The run's stderr is one `graphimport: error:` line and its hint; `--json` on stdout says
    /// the same with the same exit status.
    func expectOneError(
        _ result: CommandResult, status: Int32, startingWith message: String, hint: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(result.status == status, "\(result.stderr)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty, "\(result.stderr)", sourceLocation: sourceLocation)
        guard lines.count >= 2 else { return }
        #expect(lines[0].hasPrefix("graphimport: error: \(message)"), "\(lines[0])", sourceLocation: sourceLocation)
        #expect(lines[1].hasPrefix("hint: \(hint)"), "\(lines[1])", sourceLocation: sourceLocation)
        let json = try #require(
            JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)", sourceLocation: sourceLocation)
        #expect(json["outcome"] as? String == "failed", sourceLocation: sourceLocation)
        #expect(json["exit_status"] as? Int == Int(status), sourceLocation: sourceLocation)
        #expect("graphimport: error: " + (json["error"] as? String ?? "") == lines[0], sourceLocation: sourceLocation)
        #expect("hint: " + (json["hint"] as? String ?? "") == lines[1], sourceLocation: sourceLocation)
    }
}

/// A database holding a first import of items with owners and tags, and a revised feed whose
/// import a fault cuts short; what the database held before it, to compare with after.
final class FaultFixture {
    static let mapText = """
        records at $[*] as Item
        entity Item table items
          key id
          id: Int
          name: String
          owner: Owner
          tags: [Tag]
        entity Owner table owners
          key login
          login: String
        entity Tag table tags
          key label
          label: String
        """
    /// Given in the connection string, which the superuser's `trust` login ignores: never to be shown.
    static let password = "hunter2-Secret"

    static func record(_ id: Int, revision: Int) -> String {
        #"{"id": \#(id), "name": "item \#(id) r\#(revision)", "owner": {"login": "o\#(id % 50)"}, "tags": [{"label": "t\#(id % 7)"}, {"label": "r\#(revision)"}]}"#
    }

    static func records(_ ids: ClosedRange<Int>, revision: Int) -> String {
        ids.map { record($0, revision: revision) }.joined(separator: ",\n")
    }

    static func feed(_ ids: ClosedRange<Int>, revision: Int) -> String { "[" + records(ids, revision: revision) + "]" }

    let cluster: PostgresTestCluster
    let database: ScratchDatabase
    let dir = TemporaryDirectory()
    let map: String
    /// The store as a URI with a password in it.
    let store: String
    /// The store as messages show it: the password as `***`.
    let shownStore: String
    /// Changes every stored item and adds new ones.
    let revisedFeed = FaultFixture.feed(1...400, revision: 2)
    private var before: [String: [String]] = [:]

    init(cluster: PostgresTestCluster) throws {
        self.cluster = cluster
        database = try cluster.makeDatabase()
        map = dir.write("items.map", Self.mapText)
        store = cluster.connectionURI(database: database.name, password: Self.password)
        shownStore = store.replacingOccurrences(of: Self.password, with: "***")
        let first = runInProcess(["-", "--map", map, "--store", store], stdinText: Self.feed(1...300, revision: 1))
        guard first.status == 0 else { throw FaultSetupError(message: "the first import failed: \(first.stderr)") }
        before = try cluster.contents(of: database.name)
    }

    /// Starts the revised import in a process of its own and returns once it is at `moment`.
    ///
    /// Between batches: a feed on a pipe, 6000 records given (more than a batch of 5000 objects),
    /// and the import's backend idle in its transaction holding the lock of a written `items`
    /// row. In a statement: a trigger of the test sleeps in the upsert of item 250; in the
    /// commit: a deferred trigger sleeps for item 250 at COMMIT.
    func startStalledImport(at moment: PostgresFaultTests.Moment) throws -> BackgroundProcess {
        let arguments = ["-", "--map", map, "--store", store, "--json"]
        let backend = "FROM pg_stat_activity a WHERE a.datname = '\(database.name)' AND a.application_name = 'graphimport'"
        let condition: String
        let process: BackgroundProcess
        switch moment {
        case .betweenBatches:
            process = try BackgroundProcess(graphimportBinary.path, arguments, in: dir, pipeInput: true)
            process.writeInput("[" + Self.records(1...6000, revision: 2))
            condition =
                "SELECT count(*) \(backend) AND a.state = 'idle in transaction' AND EXISTS "
                + "(SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.relation = 'items'::regclass AND l.mode = 'RowExclusiveLock')"
        case .inAStatement, .inCommit:
            let trigger =
                moment == .inAStatement
                ? "CREATE TRIGGER stall BEFORE INSERT ON items FOR EACH ROW EXECUTE FUNCTION stall();"
                : "CREATE CONSTRAINT TRIGGER stall AFTER INSERT OR UPDATE ON items DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION stall();"
            try cluster.psql(
                database.name,
                """
                CREATE FUNCTION stall() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  IF NEW.id = 250 THEN PERFORM pg_sleep(3600); END IF;
                  RETURN NEW;
                END $$;
                \(trigger)
                """)
            process = try BackgroundProcess(graphimportBinary.path, arguments, in: dir, pipeInput: true)
            process.closeInput(writing: revisedFeed)
            condition = "SELECT count(*) \(backend) AND a.wait_event = 'PgSleep'"
        }
        let reached = waitUntil(seconds: 60) { (try? cluster.psql(database.name, condition)) == "1\n" }
        guard reached else {
            let result = process.finish()
            throw FaultSetupError(message: "the import never reached \(moment): \(result.stderr)")
        }
        #expect(try lastRun() == "running||")
        return process
    }

    /// Gives the import the rest of its feed, if it waits for it, and its result.
    func finish(_ process: BackgroundProcess, moment: PostgresFaultTests.Moment) -> CommandResult {
        if moment == .betweenBatches { process.closeInput(writing: ",\n" + Self.records(6001...6100, revision: 2) + "]") }
        return process.finish()
    }

    /// The outcome of the newest run, whether it finished, and its error.
    func lastRun() throws -> String {
        try cluster.psql(
            database.name,
            "SELECT outcome, CASE WHEN finished_at IS NULL THEN '' ELSE 't' END, coalesce(error, '') FROM graphimport_runs ORDER BY id DESC LIMIT 1"
        ).trimmingCharacters(in: .newlines)
    }

    /// Every table as it was before, the run history aside, which has `runs` new rows (the
    /// first of them the import's, begun or failed) and its old ones as they were.
    func expectDatabaseAsBefore(runs: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var after = try cluster.contents(of: database.name)
        let runsAfter = after.removeValue(forKey: "graphimport_runs") ?? []
        var expected = before
        let runsBefore = expected.removeValue(forKey: "graphimport_runs") ?? []
        #expect(after == expected, sourceLocation: sourceLocation)
        #expect(runsAfter.count == runsBefore.count + runs, sourceLocation: sourceLocation)
        #expect(Set(runsBefore).isSubset(of: Set(runsAfter)), sourceLocation: sourceLocation)
        #expect(expected["items"]?.count == 300, sourceLocation: sourceLocation)
    }
}

/// A fixture that could not be set up: the test fails with its reason.
struct FaultSetupError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
