import GraphImport
import GraphImportSchema
import GraphImportStoreTestSupport
import Testing

/// Decisions on input that is valid JSON but unusual, each documented in the README.
@Suite("Input edge cases")
struct InputEdgeCaseTests {
    /// Decided: `\u0000` is stored as it came, byte for byte: the store holds what the feed said.
    /// (SQLite's text functions and the sqlite3 shell stop at the first NUL; the README says so.)
    /// One store: PostgreSQL's text cannot hold a NUL and refuses the record (`PostgresTextCheck`).
    @Test func nulInAStringIsStoredByteForByteAndKeysDifferByIt() throws {
        let fixture = try EngineFixture(
            map: """
                entity Item
                  key id
                  id : String
                  name : String?
                  raw : JSON?
                """)
        let summary = try fixture.importJSON(#"[{"id":"a\u0000b","name":"x\u0000y","raw":{"k":"\u0000"}},{"id":"a"}]"#)
        #expect(summary.counts(of: "Item") == [2, 0, 0, 0])
        let rows = try fixture.rows("SELECT hex(id), hex(name) FROM items ORDER BY pk")
        #expect(rows == [["'610062'", "'780079'"], ["'61'", "''"]])
        // A JSON value keeps it escaped, so text functions see all of it.
        #expect(try fixture.value("SELECT length(raw) FROM items WHERE id = 'a' || char(0) || 'b'") == "14")
    }
}
