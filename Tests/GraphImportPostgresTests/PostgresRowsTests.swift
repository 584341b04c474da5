import GraphImportPostgres
import GraphImportSchema
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// Rows read in place (`PostgresRows`): a value compared where it lies says what comparing the
/// decoded value says, for every kind of column, so that a batch leaves out exactly the objects
/// it left out when each stored row was decoded first.
@Suite("PostgreSQL: rows read in place", needsPostgres)
struct PostgresRowsTests {
    @Test func aValueComparedInPlaceEqualsItsDecodedComparison() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let connection = try PostgresConnection(#require(ConnectionString(database.connectionString)))
        try connection.execute("CREATE TABLE t (n BIGINT, i INTEGER, r DOUBLE PRECISION, s TEXT, b BYTEA, f BOOLEAN, v VARCHAR(40))")
        let long = "a text longer than a small string, ünïcødé"
        try connection.execute(
            "INSERT INTO t VALUES (-9223372036854775808, 7, 0.5, '\(long)', '\\x00ff', true, 'short'), "
                + "(NULL, NULL, NULL, '', NULL, NULL, NULL)")
        let rows = try connection.rowsInPlace("SELECT n, i, r, s, b, f, v FROM t ORDER BY n NULLS LAST")
        #expect(rows.count == 2 && rows.width == 7)
        let candidates: [SQLValue] = [
            .null, .integer(-9_223_372_036_854_775_808), .integer(7), .integer(1), .real(0.5), .text(long), .text("short"), .text(""),
            .text("7"), .blob([0, 0xff]),
        ]
        for row in 0..<rows.count {
            for column in 0..<rows.width {
                let decoded = rows.value(row, column)
                for candidate in candidates {
                    #expect(rows.holds(candidate, row, column) == (decoded == candidate), "row \(row) column \(column): \(candidate)")
                }
            }
        }
        #expect(rows.value(0, 3) == .text(long))
        #expect(rows.value(0, 5) == .integer(1))
        #expect(rows.integer(0, 0) == -9_223_372_036_854_775_808 && rows.integer(0, 1) == 7 && rows.integer(1, 0) == nil)
    }
}
