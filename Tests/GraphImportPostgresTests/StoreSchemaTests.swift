import GraphImport
import GraphImportPostgres
import GraphImportSchema
import GraphImportStore
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// The tables a map makes, in each store: the same tables, columns, unique keys and deferred
/// foreign keys, from the one schema description the plan gives both.
@Suite("Stores: the map's tables")
struct StoreSchemaTests {
    /// The stores these tests run against; PostgreSQL's are skipped, saying why, without its server.
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgresql
        var testDescription: String { rawValue }
    }

    static let map = """
        records at $[*] as Tweet

        entity User table users
          key id
          id: Int
          handle: String

        entity Tweet table tweets
          key id
          id: Int
          text: String
          author <- user: User? inverse tweets
          mentions: [User] inverse mentionedIn
        """

    static func plan() throws -> ImportPlan {
        try ImportPlan.compile(text: map, fileName: "tweets.map")
    }

    /// The tables and their columns, in column order, as the store reports them.
    static func tablesAndColumns(_ kind: Kind) throws -> [String: [String]] {
        let statements = try plan().schema
        switch kind {
        case .sqlite:
            let dir = TemporaryDirectory()
            let database = try Database(path: dir.path("store.sqlite"))
            for statement in SchemaSQL.createStatements(for: statements) { try database.execute(statement) }
            var result: [String: [String]] = [:]
            for row in try database.rows("SELECT name FROM sqlite_schema WHERE type = 'table'") {
                guard case .text(let table) = row[0] else { continue }
                result[table] = try database.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)]).compactMap {
                    if case .text(let name) = $0[0] { name } else { nil }
                }
            }
            return result
        case .postgresql:
            let database = try PostgresTestCluster.shared().makeDatabase()
            let connection = try PostgresConnection(#require(ConnectionString(database.connectionString)))
            try connection.execute(PostgresSchemaSQL.createStatements(for: statements).joined(separator: ";\n"))
            var result: [String: [String]] = [:]
            for row in try connection.rows(
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position")
            {
                result[row[0]!, default: []].append(row[1]!)
            }
            return result
        }
    }

    /// Both stores, or SQLite alone where the server binaries are absent (the other suites of
    /// this target show the one line that says PostgreSQL was skipped).
    static let kinds: [Kind] = PostgresTestCluster.isAvailable ? Kind.allCases : [.sqlite]

    @Test(arguments: kinds)
    func eachStoreHasTheSameTablesAndColumns(_ kind: Kind) throws {
        let tables = try Self.tablesAndColumns(kind)
        #expect(tables["users"] == ["pk", "id", "handle", "inserted_run", "changed_run", "stub_run", "content_digest"])
        #expect(tables["tweets"] == ["pk", "id", "text", "author_pk", "inserted_run", "changed_run", "stub_run", "content_digest"])
        #expect(tables["tweets_mentions"] == ["tweets_pk", "users_pk", "position"])
    }

    @Test(needsPostgres)
    func everyForeignKeyIsDeferredToCommitWithTheMapsDeleteRule() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let connection = try PostgresConnection(#require(ConnectionString(database.connectionString)))
        try connection.execute(PostgresSchemaSQL.createStatements(for: Self.plan().schema).joined(separator: ";\n"))
        let keys = try connection.rows(
            """
            SELECT conrelid::regclass::text, confrelid::regclass::text, condeferrable, condeferred, confdeltype
            FROM pg_constraint WHERE contype = 'f' ORDER BY 1, 2
            """)
        #expect(
            keys == [
                ["tweets", "users", "t", "t", "n"],
                ["tweets_mentions", "tweets", "t", "t", "c"],
                ["tweets_mentions", "users", "t", "t", "c"],
            ])
    }

    @Test(needsPostgres)
    func theKeyIsUniqueAndAnInsertWithoutAPrimaryKeyGetsOne() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let connection = try PostgresConnection(#require(ConnectionString(database.connectionString)))
        try connection.execute(PostgresSchemaSQL.createStatements(for: Self.plan().schema).joined(separator: ";\n"))
        #expect(try connection.scalar("INSERT INTO users (id, handle) VALUES (7, 'a') RETURNING pk") == "1")
        let duplicate = try #require(throws: PostgresError.self) { try connection.execute("INSERT INTO users (id, handle) VALUES (7, 'b')") }
        #expect(duplicate.kind == .constraint)
        #expect(duplicate.message.contains("users_id"), "\(duplicate)")
    }

    @Test(needsPostgres)
    func theInternalTablesAreCreatedOnceAndHaveTheSQLiteStoresColumns() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let connection = try PostgresConnection(#require(ConnectionString(database.connectionString)))
        for _ in 0..<2 { try connection.execute(PostgresSchemaSQL.internalTables.joined(separator: ";\n")) }
        let columns = try connection.rows(
            "SELECT column_name FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position", [InternalTable.runs]
        ).map { $0[0]! }
        #expect(columns.first == "id")
        #expect(columns.contains("map_sha256") && columns.contains("outcome") && columns.count == 15)
        #expect(try connection.scalar("SELECT count(*) FROM information_schema.tables WHERE table_name LIKE 'graphimport_%'") == "3")
    }

    @Test(needsPostgres)
    func theTablesLandInTheSchemaTheConnectionsSearchPathNames() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        try database.cluster.psql(database.name, "CREATE SCHEMA feeds")
        let store = database.connectionString + " options='-csearch_path=feeds'"
        let connection = try PostgresConnection(#require(ConnectionString(store)))
        try connection.execute(PostgresSchemaSQL.createStatements(for: Self.plan().schema).joined(separator: ";\n"))
        #expect(try connection.scalar("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'feeds'") == "3")
        #expect(try connection.scalar("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'") == "0")
    }

    @Test func namesLongerThanPostgreSQLKeepsAreFoundIndexNamesIncluded() throws {
        let table = String(repeating: "t", count: 40)
        let plan = try ImportPlan.compile(
            text: """
                records at $[*] as Thing
                entity Thing table \(table)
                  key identifierOfTheThingInTheFeed
                  identifierOfTheThingInTheFeed: Int
                  name: String
                """, fileName: "long.map")
        // Each name fits; the unique index's, the table's and the key's joined, does not.
        #expect(PostgresSchemaSQL.overlongNames(in: plan.schema) == ["\(table)_identifier_of_the_thing_in_the_feed"])
        #expect(try PostgresSchemaSQL.overlongNames(in: Self.plan().schema).isEmpty)
    }
}
