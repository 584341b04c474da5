import Foundation

/// A throwaway PostgreSQL cluster for the tests: `initdb` in a temporary directory, a server that
/// listens only on a unix socket in it, started on first use by one test process and stopped when
/// the process exits. Run as `nobody` when the tests run as root (initdb refuses root), from a
/// directory under /tmp that nobody can enter, so the clone itself may be private.
///
/// Each test takes its own database (`makeDatabase()`), dropped when released.
public final class PostgresTestCluster: Sendable {
    /// The line shown for the PostgreSQL tests where the server binaries are not installed.
    public static let skipReason =
        "the PostgreSQL server binaries (initdb, pg_ctl) are not installed: the PostgreSQL tests are skipped; install postgresql (.ci/setup does)"

    /// The directory of initdb, pg_ctl and psql: the newest /usr/lib/postgresql/*/bin, else PATH's.
    public static let binDirectory: String? = {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .filter { FileManager.default.isExecutableFile(atPath: "\(root)/\($0)/bin/initdb") }
            .sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }
        if let newest = versions.last { return "\(root)/\(newest)/bin" }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(directory)/initdb"
            if FileManager.default.isExecutableFile(atPath: candidate), FileManager.default.isExecutableFile(atPath: "\(directory)/pg_ctl") {
                return String(directory)
            }
        }
        return nil
    }()

    /// Whether the tests can run: the binaries are there (a cluster that then fails to start fails the tests).
    public static var isAvailable: Bool { binDirectory != nil }

    /// The cluster of this test process, started on first use.
    public static func shared() throws -> PostgresTestCluster {
        try started.get()
    }

    private static let started: Result<PostgresTestCluster, ClusterError> = {
        guard let binDirectory else { return .failure(ClusterError(message: skipReason)) }
        do {
            let cluster = try PostgresTestCluster(binDirectory: binDirectory)
            running = cluster.directory
            atexit { PostgresTestCluster.stopAtExit() }
            return .success(cluster)
        } catch let error as ClusterError {
            return .failure(error)
        } catch {
            return .failure(ClusterError(message: "\(error)"))
        }
    }()

    /// The directory of the running cluster, for the exit handler.
    nonisolated(unsafe) private static var running: String?

    public struct ClusterError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The cluster's directory: data in `data/`, the socket `.s.PGSQL.5432` beside it.
    public let directory: String
    public let binDirectory: String
    /// The superuser, who connects without a password.
    public static let superuser = "postgres"
    /// A role that must give a password (`passwordRole`, `rolePassword`), for the authentication tests.
    public static let passwordRole = "writer"
    public static let rolePassword = "right-secret"

    /// A cluster of the caller's own, for a test that stops or restarts the server (which would
    /// hurt the tests sharing `shared()`): stopped and removed when released.
    ///
    /// With `fileSizeLimit` (bytes, rounded down to 512), the server may not write a file past
    /// it (`ulimit -f`): a table growing past it fails as on a full disk, without root or a small disk.
    public static func makeOwn(fileSizeLimit: Int? = nil) throws -> PostgresTestCluster {
        guard let binDirectory else { throw ClusterError(message: skipReason) }
        return try PostgresTestCluster(binDirectory: binDirectory, isOwn: true, fileSizeLimit: fileSizeLimit)
    }

    /// True for a cluster of `makeOwn()`, which its release stops.
    private let isOwn: Bool
    private let fileSizeLimit: Int?

    private init(binDirectory: String, isOwn: Bool = false, fileSizeLimit: Int? = nil) throws {
        self.binDirectory = binDirectory
        self.isOwn = isOwn
        self.fileSizeLimit = fileSizeLimit
        let isRoot = getuid() == 0
        // Under /tmp (not TMPDIR, which may be private), so that nobody can reach it.
        directory = (isRoot ? "/tmp" : NSTemporaryDirectory()) + "/graphimport-pg-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o700)
        if isRoot { chown(directory, 65534, 65534) }
        do {
            try run(
                "initdb",
                ["-D", "\(directory)/data", "-U", Self.superuser, "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C", "--no-instructions"])
            // The superuser by trust; every other role by password, as a real server asks.
            let hba = "local all \(Self.superuser) trust\nlocal all all scram-sha-256\n"
            try hba.write(toFile: "\(directory)/data/pg_hba.conf", atomically: false, encoding: .utf8)
            try startServer()
            try psql("postgres", "CREATE ROLE \(Self.passwordRole) LOGIN CREATEDB PASSWORD '\(Self.rolePassword)'")
        } catch {
            Self.stop(directory: directory)
            throw error
        }
    }

    /// A keyword connection string to `database` on this cluster, as the superuser unless `user` is given.
    public func connectionString(database: String = "postgres", user: String = superuser) -> String {
        "host=\(directory) port=5432 dbname=\(database) user=\(user)"
    }

    /// The same as a URI: `postgresql://user@/db?host=/tmp/…`.
    public func connectionURI(database: String, user: String = superuser, password: String? = nil) -> String {
        let credentials = password.map { "\(user):\($0)" } ?? user
        return "postgresql://\(credentials)@/\(database)?host=\(directory)&port=5432"
    }

    /// A fresh, empty database, dropped when the value is released.
    public func makeDatabase() throws -> ScratchDatabase {
        let name = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        try psql("postgres", "CREATE DATABASE \(name) OWNER \(Self.passwordRole)")
        return ScratchDatabase(cluster: self, name: String(name))
    }

    /// Runs SQL with psql as the superuser, failing on the first error; returns its output (unaligned, tuples only).
    @discardableResult
    public func psql(_ database: String, _ sql: String) throws -> String {
        try run("psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", connectionString(database: database), "-c", sql], asServerUser: false)
    }

    /// How `pg_ctl stop` ends the server: `fast` rolls back the open transactions and closes their
    /// connections; `immediate` kills every server process at once (recovery at the next start).
    public enum StopMode: String, Sendable {
        case fast
        case immediate
    }

    /// Every row of every table in `database`'s `public` schema as text, sorted, by table: what a
    /// failed import must leave as it was.
    public func contents(of database: String) throws -> [String: [String]] {
        let tables = try psql(database, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'").split(separator: "\n")
        var contents: [String: [String]] = [:]
        for table in tables {
            let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            contents[String(table)] = try psql(database, "SELECT t::text FROM \(quoted) t ORDER BY 1").split(separator: "\n").map(String.init)
        }
        return contents
    }

    /// Stops the server, waiting until it is gone, for the tests of a server that goes away.
    public func stopServer(mode: StopMode = .fast) throws {
        try run("pg_ctl", ["-D", "\(directory)/data", "-w", "-m", mode.rawValue, "stop"])
    }

    /// Starts the server again after `stopServer`, waiting until it accepts connections.
    public func startServer() throws {
        // POSIX sh counts `ulimit -f` in blocks of 512 bytes; the server pg_ctl starts inherits it.
        let limit = fileSizeLimit.map { ["/bin/sh", "-c", "ulimit -f \($0 / 512) && exec \"$@\"", "sh"] } ?? []
        try run(
            "pg_ctl", ["-D", "\(directory)/data", "-l", "\(directory)/server.log", "-w", "-o", Self.serverOptions(directory, isOwn: isOwn), "start"],
            wrappedIn: limit)
    }

    /// The server's settings: a unix socket in the cluster's directory only, and no waiting for the
    /// disk. A cluster of a test's own (one the test stops, even with `-m immediate`) keeps what a
    /// commit reported: its commits wait for the log to be written out of the server's memory.
    private static func serverOptions(_ directory: String, isOwn: Bool) -> String {
        "-c listen_addresses= -c unix_socket_directories=\(directory) -c fsync=off -c full_page_writes=off -c synchronous_commit=\(isOwn ? "on" : "off")"
    }

    /// Runs one of the cluster's binaries (as nobody when root, for the server's own), returning stdout.
    ///
    /// posix_spawn with every descriptor above 2 closed and output to files: the server that
    /// pg_ctl leaves running would otherwise hold a pipe (or Foundation's exit watch) open for ever.
    @discardableResult
    private func run(_ tool: String, _ arguments: [String], asServerUser: Bool = true, wrappedIn wrapper: [String] = []) throws -> String {
        var argv = wrapper + ["\(binDirectory)/\(tool)"] + arguments
        if asServerUser && getuid() == 0 {
            argv = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] + argv
        }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory
        environment["LC_ALL"] = "C"
        for name in ["PGPASSWORD", "PGHOST", "PGPORT", "PGUSER", "PGDATABASE", "PGSERVICE", "PGOPTIONS", "PGPASSFILE"] {
            environment.removeValue(forKey: name)
        }
        let capture = "\(directory)/run-\(UUID().uuidString)"
        defer { for suffix in [".out", ".err"] { try? FileManager.default.removeItem(atPath: capture + suffix) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, capture + ".out", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, capture + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard let closeFrom = Self.addCloseFrom, let changeDirectory = Self.addChdir else {
            throw ClusterError(message: "this C library lacks posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or later is needed)")
        }
        _ = closeFrom(&actions, 3)
        _ = changeDirectory(&actions, directory)
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in cArguments + cEnvironment { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, cEnvironment)
        guard spawned == 0 else { throw ClusterError(message: "cannot start \(argv[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let out = FileManager.default.contents(atPath: capture + ".out") ?? Data()
        let err = FileManager.default.contents(atPath: capture + ".err") ?? Data()
        guard status == 0 else {
            throw ClusterError(
                message: "\(tool) \(arguments.joined(separator: " ")) failed (status \(status)): "
                    + String(decoding: err, as: UTF8.self) + String(decoding: out, as: UTF8.self))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// glibc's posix_spawn_file_actions_addclosefrom_np and _addchdir_np, which Swift's Glibc
    /// module does not declare: looked up at run time.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias Chdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let addCloseFrom: CloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: CloseFrom.self)
    }
    private static let addChdir: Chdir? = dlsym(nil, "posix_spawn_file_actions_addchdir_np").map {
        unsafeBitCast($0, to: Chdir.self)
    }

    deinit {
        if isOwn { Self.stop(directory: directory) }
    }

    private static func stopAtExit() {
        if let running { stop(directory: running) }
    }

    /// Stops the postmaster with SIGQUIT (immediate shutdown), waits for it, removes the directory.
    private static func stop(directory: String) {
        if let pidFile = try? String(contentsOfFile: "\(directory)/data/postmaster.pid", encoding: .utf8),
            let line = pidFile.split(separator: "\n").first, let pid = pid_t(line)
        {
            kill(pid, SIGQUIT)
            for _ in 0..<100 where kill(pid, 0) == 0 { usleep(50_000) }
        }
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// A database of the test cluster, dropped (connections and all) when released.
public final class ScratchDatabase: Sendable {
    public let cluster: PostgresTestCluster
    public let name: String

    init(cluster: PostgresTestCluster, name: String) {
        self.cluster = cluster
        self.name = name
    }

    /// The keyword connection string, as the superuser.
    public var connectionString: String { cluster.connectionString(database: name) }

    deinit { _ = try? cluster.psql("postgres", "DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
}
