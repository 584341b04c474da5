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
    /// over the attributes, without the writer's `stub_run`).
    static func reads(_ statements: [String]) -> [String] {
        statements.filter { $0.contains("graphimport_probe_") && $0.contains(" JOIN ") && !$0.contains(#"t."stub_run""#) }
    }

    /// The statements with which the writer reads what the store holds of a batch of objects
    /// before it writes it (rows with their row ids and `stub_run`, and lists, read from the rows
    /// found: `PostgresBatchWriter.storedBatch`).
    static func batchReads(_ statements: [String]) -> [String] {
        statements.filter {
            $0.contains(" JOIN ") && (($0.contains("graphimport_probe_") && $0.contains(#"t."stub_run""#)) || $0.contains("graphimport_owners_"))
        }
    }

    /// A map without derived values, modes or hooks reads nothing per record batch; the writer
    /// reads each entity's batch once, except in a first import into an empty store, whose one
    /// batch cannot meet a stored object and reads none. Re-importing the same feed, every object
    /// holds its draft's digest: the writer reads only the row ids and digests (Tweet, User,
    /// Hashtag), no values and no lists; with `--compare-all`, each entity's rows and each
    /// to-many's lists (the hashtags and mentions of the tweets) as before digests.
    @Test func aPlainMapReadsNoStoredObjectPerRecordBatch() throws {
        let map = try String(contentsOf: repositoryRoot.appendingPathComponent("Mappings/tweets.map"), encoding: .utf8)
        let feed = try String(contentsOf: repositoryRoot.appendingPathComponent("Samples/tweets.json"), encoding: .utf8)
        let store = try MappedStore(.postgresql, map: map, batchSize: 5000)
        let first = try Self.statements(store: store, feed: feed)
        #expect(first.contains { $0.contains("COPY \"tweets\"") })
        #expect(Self.reads(first) == [])
        #expect(Self.batchReads(first) == [], "\(Self.batchReads(first))")
        let again = try Self.statements(store: store, feed: feed)
        #expect(Self.reads(again) == [])
        #expect(Self.batchReads(again).count == 3, "\(Self.batchReads(again).map { $0.suffix(300) })")
        #expect(Self.batchReads(again).allSatisfy { $0.contains(#"SELECT p."graphimport_ordinal", t."pk", t."stub_run", t."content_digest" FROM"#) })
        var compareAll = ImportOptions()
        compareAll.comparesAll = true
        let compared = try Self.statements(store: store, feed: feed, options: compareAll)
        #expect(Self.batchReads(compared).count == 5, "\(Self.batchReads(compared).map { $0.suffix(300) })")
    }

    /// A first import into an empty store reads back only what its earlier batches may have
    /// written: here the one person every movie casts (900 objects gathered, three a record, in
    /// five batches of 200: the later four read people once each), never the movies or their
    /// lists, all new; the store holds each object once, and a re-import finds every one of them
    /// stored and changes nothing.
    @Test func aFirstImportReadsBackOnlyTheObjectsItsEarlierBatchesWrote() throws {
        let map = """
            records at $[*] as Movie
            entity Movie table movies
              key id
              id : Int
              title : String
              cast : [Person]
            entity Person table people
              key id
              id : Int
              name : String?
            """
        let feed = "[" + (0..<300).map { #"{"id":\#($0),"title":"m\#($0)","cast":[{"id":7,"name":"Ann"},{"id":\#($0 + 1000)}]}"# }.joined(separator: ",") + "]"
        let store = try MappedStore(.postgresql, map: map, batchSize: 200)
        let statements = try Self.statements(store: store, feed: feed)
        let reads = Self.batchReads(statements)
        #expect(reads.count == 4, "\(reads)")
        #expect(reads.allSatisfy { $0.contains(#"JOIN "people" t"#) }, "\(reads)")
        #expect(try store.value("SELECT count(*) FROM movies") == "300")
        #expect(try store.value("SELECT count(DISTINCT id) || ' ' || count(*) FROM people") == "301 301")
        let cast = try Self.castTable(store)
        #expect(try store.value("SELECT count(*) FROM \(cast)") == "600")
        // New movies' lists are COPYed straight into the join table, not found by key.
        #expect(statements.contains { $0.contains("COPY \"\(cast)\"") })
        #expect(!statements.contains { $0.contains("WITH batch AS") }, "\(statements.filter { $0.contains("WITH batch AS") })")
        let again = try store.importJSON(feed)
        #expect(again.entities.allSatisfy { $0.counts.inserted == 0 && $0.counts.updated == 0 }, "\(again.entities)")
        // A stored movie's changed list replaces its join rows by key.
        let changed = try Self.statements(store: store, feed: #"[{"id":0,"title":"m0","cast":[{"id":1000}]}]"#)
        #expect(changed.contains { $0.contains("WITH batch AS") })
        #expect(try store.value("SELECT count(*) FROM \(cast)") == "599")
    }

    /// The join table of the movies' cast (named by `Plan/Naming`).
    static func castTable(_ store: MappedStore) throws -> String {
        let name = try store.value(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename NOT IN ('movies', 'people') AND tablename NOT LIKE 'graphimport%'"
        )
        return try #require(name)
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

    /// The writer reads each batch of objects before it writes it: one read per entity (of the
    /// row ids and digests alone when every object holds its draft's digest), and one per to-many
    /// the batch gives lists of where an object is read in full, whatever the batch's size;
    /// `--verbose` compares the batch with the same rows and reads nothing more.
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
        // 300 movies and 300 people: three batches of 200 objects, read when they are imported
        // again (a first import into an empty store reads none: the test above).
        let feed = "[" + (0..<300).map { #"{"id":\#($0),"cast":[{"id":\#($0)}]}"# }.joined(separator: ",") + "]"
        var options = ImportOptions()
        options.changeLimit = 10
        for options in [options, ImportOptions()] {
            let store = try MappedStore(.postgresql, map: map, batchSize: 200)
            #expect(Self.batchReads(try Self.statements(store: store, feed: feed, options: options)) == [])
            let again = Self.batchReads(try Self.statements(store: store, feed: feed, options: options))
            #expect(again.count == 6, "\(again.map { $0.suffix(200) })")
            var compareAll = options
            compareAll.comparesAll = true
            #expect(Self.batchReads(try Self.statements(store: store, feed: feed, options: compareAll)).count == 9)
        }
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
                == #"SELECT o."graphimport_ordinal", g."id", j."role" FROM "\#(probe.ownersTable)" o "#
                + #"JOIN "user_teams" j ON j."user_pk" = o."graphimport_row_id" JOIN "team" g ON g."pk" = j."team_pk" ORDER BY o."graphimport_ordinal", j."position""#
        )
    }
}
