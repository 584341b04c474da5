import GraphImportPostgres
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// A connection to a real server, and each way connecting or a statement fails: classified for
/// the exit status, one line, and never with the password in it.
@Suite("PostgreSQL: connections", needsPostgres)
struct PostgresConnectionTests {
    @Test func runsStatementsAndReadsRowsWithParametersAndNull() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let connection = try PostgresConnection(#require(ConnectionString(database.connectionString)))
        try connection.execute("CREATE TABLE t (a BIGINT, b TEXT); INSERT INTO t VALUES (1, 'one'), (2, NULL)")
        #expect(try connection.rows("SELECT a, b FROM t WHERE a >= $1 ORDER BY a", ["1"]) == [["1", "one"], ["2", nil]])
        #expect(try connection.scalar("SELECT count(*) FROM t WHERE b = $1", ["ünïcode"]) == "0")
        #expect(connection.serverVersion >= 13)
    }

    @Test func theRightPasswordLogsIn() throws {
        let cluster = try PostgresTestCluster.shared()
        let database = try cluster.makeDatabase()
        let uri = cluster.connectionURI(database: database.name, user: PostgresTestCluster.passwordRole, password: PostgresTestCluster.rolePassword)
        let connection = try PostgresConnection(#require(ConnectionString(uri)))
        #expect(try connection.scalar("SELECT current_user") == PostgresTestCluster.passwordRole)
    }

    @Test func aWrongPasswordIsAnAuthenticationErrorThatNeverShowsIt() throws {
        let cluster = try PostgresTestCluster.shared()
        let database = try cluster.makeDatabase()
        let uri = cluster.connectionURI(database: database.name, user: PostgresTestCluster.passwordRole, password: "wr0ng-Secret")
        let error = try connectionError(uri)
        #expect(error.kind == .authentication)
        #expect(error.message.contains("password authentication failed"), "\(error)")
        #expect(!error.description.contains("wr0ng-Secret"))
        #expect(!error.message.contains("\n"))
    }

    @Test func noPasswordForARoleThatNeedsOneIsAnAuthenticationError() throws {
        let cluster = try PostgresTestCluster.shared()
        let database = try cluster.makeDatabase()
        let error = try connectionError(cluster.connectionString(database: database.name, user: PostgresTestCluster.passwordRole) + " passfile=/nonexistent")
        #expect(error.kind == .authentication)
    }

    @Test func aDatabaseThatDoesNotExistIsSaidSo() throws {
        let cluster = try PostgresTestCluster.shared()
        let error = try connectionError(cluster.connectionString(database: "no_such_database"))
        #expect(error.kind == .noDatabase)
        #expect(error.message.contains("\"no_such_database\" does not exist"), "\(error)")
    }

    @Test func noServerAtTheSocketIsUnreachable() throws {
        let empty = TemporaryDirectory()
        let error = try connectionError("host=\(empty.url.path) dbname=feeds user=nobody")
        #expect(error.kind == .unreachable)
        #expect(error.message.contains(empty.url.path), "\(error)")
    }

    @Test func aMalformedStringIsRefusedWithoutItsPassword() throws {
        let error = try connectionError("host=db1 password=s3cret-Word dbname")
        #expect(error.kind == .badConnectionString)
        #expect(!error.description.contains("s3cret-Word"), "\(error)")
        #expect(error.description.contains("password=***"), "\(error)")
    }

    /// A value libpq refuses only when connecting (`port=notaport`) is the string's fault, as a
    /// string that does not parse: not "cannot reach the server" (75, retry later).
    @Test(arguments: ["port=notaport", "sslmode=bogus"])
    func aValueLibpqRefusesIsABadConnectionString(_ setting: String) throws {
        let empty = TemporaryDirectory()
        let error = try connectionError("host=\(empty.url.path) dbname=feeds \(setting)")
        #expect(error.kind == .badConnectionString, "\(error)")
        #expect(error.message.hasPrefix("the connection string host=\(empty.url.path) dbname=feeds \(setting) is not valid: invalid "), "\(error)")
    }

    @Test func aTerminatedSessionIsALostConnection() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let location = try #require(ConnectionString(database.connectionString))
        let connection = try PostgresConnection(location)
        let pid = try #require(try connection.scalar("SELECT pg_backend_pid()"))
        _ = try PostgresConnection(location).scalar("SELECT pg_terminate_backend($1::int)", [pid])
        let error = try #require(throws: PostgresError.self) { try connection.execute("SELECT 1") }
        #expect(error.kind == .connectionLost, "\(error)")
    }

    @Test func aStatementPastTheTimeoutIsCancelled() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let connection = try PostgresConnection(#require(ConnectionString(database.connectionString)))
        try connection.execute("SET statement_timeout = 20")
        let error = try #require(throws: PostgresError.self) { try connection.execute("SELECT pg_sleep(30)") }
        #expect(error.kind == .timeout)
        #expect(error.sqlState == "57014")
        #expect(error.message.contains("statement timeout"), "\(error)")
    }

    private func connectionError(_ text: String) throws -> PostgresError {
        let location = try #require(ConnectionString(text))
        return try #require(throws: PostgresError.self) { _ = try PostgresConnection(location) }
    }
}
