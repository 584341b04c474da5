import GraphImport
import GraphImportPostgres
import GraphImportSchema
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// `always` and `onchange` in the stored rows at a run's end: one `UPDATE` per entity, through
/// the keys the feed gave, writing only rows whose value differs and never `changed_run`.
@Suite("PostgreSQL: the values the engine sets at the run's end")
struct PostgresEngineValuesTests {
    static let items = PostgresEngineValues(
        table: "items", keyColumns: ["id"], givenTable: "given", always: [("seen_at", .text("2026-01-01T00:00:00.000Z"))],
        onChange: [("updated_at", .text("2026-01-01T00:00:00.000Z")), ("seen_in", .integer(9))], insertedRunColumn: "inserted_run",
        changedRunColumn: "changed_run")

    @Test func theStatementSetsAlwaysOnGivenRowsAndOnchangeOnChangedOnes() {
        let changedHere = #"stored."changed_run" = $1::bigint"#
        #expect(
            Self.items.statement
                == #"UPDATE "items" AS stored SET "seen_at" = $2, "#
                + #""updated_at" = CASE WHEN \#(changedHere) THEN $3 ELSE stored."updated_at" END, "#
                + #""seen_in" = CASE WHEN \#(changedHere) THEN $4 ELSE stored."seen_in" END "#
                + #"WHERE EXISTS (SELECT 1 FROM "given" g WHERE g."id" = stored."id") AND stored."inserted_run" IS DISTINCT FROM $1::bigint "#
                + #"AND (stored."seen_at" IS DISTINCT FROM $2 OR "#
                + #"(\#(changedHere) AND (stored."updated_at" IS DISTINCT FROM $3 OR stored."seen_in" IS DISTINCT FROM $4)))"#)
    }

    @Test func nothingToSetIsEmpty() {
        let none = PostgresEngineValues(
            table: "items", keyColumns: ["id"], givenTable: "given", always: [], onChange: [], insertedRunColumn: "inserted_run",
            changedRunColumn: "changed_run")
        #expect(none.isEmpty)
        #expect(!Self.items.isEmpty)
    }

    /// Run 5 gave items 1 to 4 (1 inserted by it, which keeps what its insert set; 2 changed by
    /// it, 3 and 4 the same) and not item 5; item 4 already holds the values. Only 2 and 3 are
    /// written; `changed_run` stays.
    @Test(needsPostgres) func onlyGivenRowsWhoseValueDiffersAreWritten() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let connection = try PostgresConnection(#require(ConnectionString(database.connectionString)))
        let now = "2026-01-01T00:00:00.000Z"
        try connection.execute(
            "CREATE TABLE items (pk BIGINT GENERATED ALWAYS AS IDENTITY, id BIGINT UNIQUE, seen_at TEXT, updated_at TEXT, seen_in BIGINT, "
                + "inserted_run BIGINT, changed_run BIGINT)")
        try connection.execute(
            "INSERT INTO items (id, seen_at, updated_at, seen_in, inserted_run, changed_run) VALUES "
                + "(1, 'mine', 'mine', 1, 5, 5), (2, 'old', 'old', 1, 1, 5), (3, 'old', 'old', 1, 1, 1), "
                + "(4, '\(now)', 'old', 1, 1, 1), (5, 'old', 'old', 1, 1, 1)")
        try connection.execute("CREATE TABLE given (id BIGINT); INSERT INTO given VALUES (1), (2), (2), (3), (4)")
        try connection.execute("CREATE TABLE writes (id BIGINT)")
        try connection.execute(
            "CREATE FUNCTION note() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO writes VALUES (NEW.id); RETURN NEW; END $$; "
                + "CREATE TRIGGER noted BEFORE UPDATE ON items FOR EACH ROW EXECUTE FUNCTION note()")
        try Self.items.write(run: 5, on: connection)
        #expect(
            try connection.rows("SELECT id, seen_at, updated_at, seen_in, changed_run FROM items ORDER BY id") == [
                ["1", "mine", "mine", "1", "5"], ["2", now, now, "9", "5"], ["3", now, "old", "1", "1"], ["4", now, "old", "1", "1"],
                ["5", "old", "old", "1", "1"],
            ])
        #expect(try connection.rows("SELECT id FROM writes ORDER BY id") == [["2"], ["3"]])
    }
}
