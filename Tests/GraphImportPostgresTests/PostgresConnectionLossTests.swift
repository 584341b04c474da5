@testable import GraphImportPostgres
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// A connection the server closed: what its error says, and a new one to the same database.
@Suite("PostgreSQL: a lost connection", needsPostgres)
struct PostgresConnectionLossTests {
    @Test func aTerminatedSessionSaysSoInOneLineAndANewConnectionWorks() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let location = try #require(ConnectionString(database.connectionString))
        let connection = try PostgresConnection(location)
        let pid = try #require(try connection.scalar("SELECT pg_backend_pid()"))
        #expect(connection.isConnected)
        _ = try PostgresConnection(location).scalar("SELECT pg_terminate_backend($1::int, 60000)", [pid])
        let error = try #require(throws: PostgresError.self) { try connection.execute("SELECT 1") }
        #expect(error.kind == .connectionLost)
        // The server's reason when libpq reads it before it finds the socket closed, else libpq's own.
        #expect(["terminating connection due to administrator command", "server closed the connection unexpectedly"].contains(error.message), "\(error)")
        #expect(!connection.isConnected)
        #expect(try connection.reopened().scalar("SELECT 1") == "1")
    }

    /// A host that vanishes answers no keepalive probe: found in about two minutes, not the
    /// system's two hours and more, unless the connection string chooses otherwise.
    @Test func connectionsProbeAnIdleServerSoonerThanTheSystemUnlessTheStringSays() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let connection = try PostgresConnection(#require(ConnectionString(database.connectionString)))
        #expect(connection.setting("keepalives_idle") == "60")
        #expect(connection.setting("keepalives_interval") == "10")
        #expect(connection.setting("keepalives_count") == "6")
        let chosen = try PostgresConnection(#require(ConnectionString(database.connectionString + " keepalives_idle=5")))
        #expect(chosen.setting("keepalives_idle") == "5")
        #expect(chosen.setting("keepalives_count") == "6")
        #expect(try chosen.reopened(connectTimeout: 7).setting("connect_timeout") == "7")
        let uri = try PostgresConnection(#require(ConnectionString(database.cluster.connectionURI(database: database.name) + "&connect_timeout=3")))
        #expect(try uri.reopened().setting("connect_timeout") == "3")
    }

    @Test(arguments: [
        (
            "FATAL:  terminating connection due to administrator command\nCONTEXT:  SQL statement \"SELECT pg_sleep(3600)\"\n"
                + "server closed the connection unexpectedly\n\tThis probably means the server terminated abnormally\n\tbefore or while processing the request.\n",
            "terminating connection due to administrator command"
        ),
        (
            "server closed the connection unexpectedly\n\tThis probably means the server terminated abnormally\n\tbefore or while processing the request.\n",
            "server closed the connection unexpectedly"
        ),
        ("", ""),
    ])
    func aLibpqMessageIsShownByItsFirstLineWithoutItsSeverity(raw: String, shown: String) {
        #expect(PostgresError.headline(ofLibpqMessage: raw) == shown)
    }
}
