import GraphImportPostgres
import GraphImportSchema
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// The read seam on PostgreSQL: the read side's `?`s bound by their kind, and each value given
/// back as the SQLite store gives it for its column.
@Suite("PostgreSQL: the read seam", needsPostgres)
struct PostgresReaderTests {
    @Test func valuesComeBackAsSQLiteGivesThemWhateverTheirColumnsType() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let reader = try PostgresReader(#require(ConnectionString(database.connectionString)))
        try reader.connection.execute(
            "CREATE TABLE t (i BIGINT, d DOUBLE PRECISION, s TEXT, b BYTEA); "
                + #"INSERT INTO t VALUES (-9007199254740993, 3, 'it''s "?"', '\x00ff10'), (NULL, 0.1, NULL, NULL)"#)
        #expect(
            try reader.rows(#"SELECT i, d, s, b FROM t WHERE s = ? OR i IS NULL ORDER BY i NULLS LAST"#, [.text(#"it's "?""#)]) == [
                [.integer(-9_007_199_254_740_993), .real(3), .text(#"it's "?""#), .blob([0, 255, 16])],
                [.null, .real(0.1), .null, .null],
            ])
        // Each kind of value binds where SQLite would compare it: a double with an integer
        // column, bytes with bytes, NULL, and a limit.
        #expect(try reader.scalar("SELECT count(*) FROM t WHERE i < ?", [.real(1.5)]) == .integer(1))
        #expect(try reader.scalar("SELECT count(*) FROM t WHERE b = ?", [.blob([0, 255, 16])]) == .integer(1))
        #expect(try reader.rows("SELECT d FROM t WHERE s IS DISTINCT FROM ? ORDER BY d LIMIT ?", [.null, .integer(1)]) == [[.real(3)]])
    }

    @Test func aScanInAReadTransactionGoesOnPastABatchAndStopsWhenAsked() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let reader = try PostgresReader(#require(ConnectionString(database.connectionString)))
        try reader.connection.execute("CREATE TABLE n AS SELECT generate_series(1, 2500)::bigint AS v")
        try reader.beginRead()
        defer { reader.endRead() }
        var seen: [Int64] = []
        try reader.scan("SELECT v FROM n WHERE v > ? ORDER BY v", [.integer(0)]) { row throws(ReadError) in
            if case .integer(let value) = row[0] { seen.append(value) }
            // Another query between the rows, as the export runs for each object's relationships.
            _ = try reader.rows("SELECT v FROM n WHERE v = ?", [row[0]])
            return true
        }
        #expect(seen == Array(1...2500))
        var first: [Int64] = []
        try reader.scan("SELECT v FROM n ORDER BY v", []) { row throws(ReadError) in
            if case .integer(let value) = row[0] { first.append(value) }
            return first.count < 3
        }
        #expect(first == [1, 2, 3])
    }
}
