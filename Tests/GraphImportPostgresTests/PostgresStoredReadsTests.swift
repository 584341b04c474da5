import Foundation
import GraphImport
import GraphImportPostgres
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// What reading stored objects before they are written costs on PostgreSQL (derived values,
/// modes, hooks, the required check): one query per entity and batch of records that needs it,
/// and nothing at all for a map that needs none, as counted in the server's log of statements
/// (its tests one at a time: they share the log).
@Suite("PostgreSQL: stored objects read per record batch", needsPostgres, .serialized)
struct PostgresStoredReadsTests {
    /// The statements the server ran for an import of `feed` (the database logs every one).
    static func statements(map: String, feed: String, batchSize: Int = 5000, options: ImportOptions = .init()) throws -> [String] {
        try statements(store: MappedStore(.postgresql, map: map, batchSize: batchSize), feed: feed, options: options)
    }

    /// The statements the server ran for an import of `feed` into `store`.
    static func statements(store: MappedStore, feed: String, options: ImportOptions = .init()) throws -> [String] {
        let cluster = try PostgresTestCluster.shared()
        let name = try store.value("SELECT current_database()")!
        try cluster.psql("postgres", "ALTER DATABASE \(name) SET log_statement = 'all'")
        let log = URL(fileURLWithPath: cluster.directory + "/server.log")
        let start = try Data(contentsOf: log).count
        try store.importJSON(feed, options: options)
        let written = try Data(contentsOf: log)
        let lines = String(decoding: written[start...], as: UTF8.self).split(separator: "\n")
        return lines.filter { $0.contains("LOG:  statement: ") || $0.contains("LOG:  execute ") }.map(String.init)
    }

    /// The statements that read stored rows by key for a record batch (`PostgresKeyProbe.rowsStatement`
    /// over the attributes alone).
    static func reads(_ statements: [String]) -> [String] {
        statements.filter { $0.contains("graphimport_probe_") && $0.contains(" JOIN ") && !$0.contains(#"t."pk""#) }
    }

    /// The statements with which the writer reads what the store holds of a batch of objects
    /// before it writes it (rows with their row ids, and lists: `PostgresBatchWriter.storedBatch`).
    static func batchReads(_ statements: [String]) -> [String] {
        statements.filter { $0.contains("graphimport_probe_") && $0.contains(" JOIN ") && $0.contains(#"t."pk""#) }
    }

    /// A map without derived values, modes or hooks reads nothing per record batch; the writer
    /// reads each entity's batch once, and each to-many's lists once (Tweet, User, Hashtag; the
    /// hashtags and mentions of the tweets).
    @Test func aPlainMapReadsNoStoredObjectPerRecordBatch() throws {
        let map = try String(contentsOf: repositoryRoot.appendingPathComponent("Mappings/tweets.map"), encoding: .utf8)
        let feed = try String(contentsOf: repositoryRoot.appendingPathComponent("Samples/tweets.json"), encoding: .utf8)
        let statements = try Self.statements(map: map, feed: feed)
        #expect(statements.contains { $0.contains("COPY \"tweets\"") })
        #expect(Self.reads(statements) == [])
        #expect(Self.batchReads(statements).count == 5, "\(Self.batchReads(statements))")
    }

    /// A first import into an empty store drops the foreign keys and secondary indexes of its
    /// tables before its first batch and makes them again after its last, in its transaction; an
    /// import into a store that holds rows leaves them as they are.
    @Test func onlyAFirstImportIntoAnEmptyStoreDropsItsKeysAndIndexesForTheLoad() throws {
        let map = try String(contentsOf: repositoryRoot.appendingPathComponent("Mappings/tweets.map"), encoding: .utf8)
        let feed = try String(contentsOf: repositoryRoot.appendingPathComponent("Samples/tweets.json"), encoding: .utf8)
        let store = try MappedStore(.postgresql, map: map)
        let first = try Self.statements(store: store, feed: feed)
        #expect(first.contains { $0.contains("DROP CONSTRAINT") } && first.contains { $0.contains("DROP INDEX") })
        #expect(first.contains { $0.contains("ADD CONSTRAINT") && $0.contains("FOREIGN KEY") })
        let again = try Self.statements(store: store, feed: feed)
        #expect(!again.contains { $0.contains("DROP CONSTRAINT") || $0.contains("DROP INDEX") || $0.contains("ADD CONSTRAINT") })
    }

    /// 300 records come from the reading thread in three batches: a map whose derived value needs
    /// the stored title reads the movies of each batch with one query, however many they are.
    @Test func aDerivedValueReadsOncePerRecordBatch() throws {
        let map = """
            records at $[*] as Movie
            entity Movie
              key id
              id : Int
              title : String?
              year : Int?
              label : String derived "{title} ({year})"
            """
        let feed = "[" + (0..<300).map { #"{"id":\#($0),"year":2000}"# }.joined(separator: ",") + "]"
        #expect(Self.reads(try Self.statements(map: map, feed: feed)).count == 3)
        // Inputs the records give all need no read.
        let given = "[" + (0..<300).map { #"{"id":\#($0),"title":"T","year":2000}"# }.joined(separator: ",") + "]"
        #expect(Self.reads(try Self.statements(map: map, feed: given)) == [])
    }

    /// The writer reads each batch of objects before it writes it: one read per entity, and one per
    /// to-many the batch gives lists of, whatever the batch's size; `--verbose` compares the batch
    /// with the same rows and reads nothing more.
    @Test func theWriterReadsOncePerEntityAndBatchWithOrWithoutTheChangeList() throws {
        let map = """
            records at $[*] as Movie
            entity Movie
              key id
              id : Int
              cast : [Person]
            entity Person
              key id
              id : Int
            """
        // 300 movies and 300 people: three batches of 200 objects.
        let feed = "[" + (0..<300).map { #"{"id":\#($0),"cast":[{"id":\#($0)}]}"# }.joined(separator: ",") + "]"
        var options = ImportOptions()
        options.changeLimit = 10
        #expect(Self.batchReads(try Self.statements(map: map, feed: feed, batchSize: 200, options: options)).count == 9)
        #expect(Self.batchReads(try Self.statements(map: map, feed: feed, batchSize: 200)).count == 9)
    }
}

@Suite("PostgreSQL: rows read by key")
struct PostgresRowsByKeyTests {
    @Test func theStatementJoinsTheStagedKeysToTheTable() {
        let probe = PostgresKeyProbe(table: "user", keyColumns: ["site", "id"])
        #expect(
            probe.rowsStatement(columns: ["id", "name"])
                == #"SELECT p."graphimport_ordinal", t."id", t."name" FROM "\#(probe.stagingTable)" p JOIN "user" t ON t."site" = p."site" AND t."id" = p."id""#
        )
    }

    @Test func theChangeListsStatementsJoinEachToOnesTargetAndReadEachListInPositionOrder() {
        let probe = PostgresKeyProbe(table: "user", keyColumns: ["site", "id"])
        let team = ProbedToOne(foreignKey: "team_pk", targetTable: "team", targetKeyColumns: ["id"], primaryKey: "pk")
        #expect(
            probe.rowsStatement(columns: ["id"], toOne: [team])
                == #"SELECT p."graphimport_ordinal", t."id", o0."id" FROM "\#(probe.stagingTable)" p JOIN "user" t ON t."site" = p."site" AND t."id" = p."id" LEFT JOIN "team" o0 ON o0."pk" = t."team_pk""#
        )
        let teams = ProbedToMany(
            joinTable: "user_teams", ownerColumn: "user_pk", targetColumn: "team_pk", positionColumn: "position", linkColumns: ["role"],
            targetTable: "team", targetKeyColumns: ["id"], primaryKey: "pk")
        #expect(
            probe.listStatement(teams)
                == #"SELECT p."graphimport_ordinal", g."id", j."role" FROM "\#(probe.stagingTable)" p JOIN "user" t ON t."site" = p."site" AND t."id" = p."id" "#
                + #"JOIN "user_teams" j ON j."user_pk" = t."pk" JOIN "team" g ON g."pk" = j."team_pk" ORDER BY p."graphimport_ordinal", j."position""#
        )
    }
}
