import GraphImportSchema
import Testing

@Suite("The vocabulary both stores speak")
struct SchemaVocabularyTests {
    /// Seconds of waiting as both stores' lock timeouts take them: every boundary, none traps.
    @Test(arguments: [
        (0.0, 0 as Int32), (-1, 0), (.nan, 0), (-.infinity, 0), (0.0004, 0), (0.0005, 1), (1.5, 1500),
        (2_147_483.646, 2_147_483_646), (2_147_483.647, Int32.max), (1e12, Int32.max), (.infinity, Int32.max),
    ])
    func waitingIsClampedToThe32BitMilliseconds(seconds: Double, milliseconds: Int32) {
        #expect(waitMilliseconds(seconds) == milliseconds)
    }

    @Test func indexesAreNamedAlikeInEveryStore() {
        #expect(TableDescription.indexName(table: "tweet", columns: ["id"], unique: true) == "tweet_id")
        #expect(TableDescription.indexName(table: "tweet", columns: ["author_pk"], unique: false) == "tweet_author_pk_index")
        #expect(TableDescription.indexName(table: "member", columns: ["org", "login"], unique: true) == "member_org_login")
    }

    @Test func theInternalTablesHaveTheProjectsPrefix() {
        let names = [InternalTable.schema, InternalTable.meta, InternalTable.runs, InternalTable.deleted]
        #expect(names == ["graphimport_schema", "graphimport_meta", "graphimport_runs", "graphimport_deleted"])
    }

    /// As SQLite's BINARY collation and PostgreSQL's "C" compare them: by their UTF-8 bytes.
    @Test func textsAreEqualByTheirBytesNotByCanonicalEquivalence() {
        let precomposed = SQLValue.text("\u{E9}")
        let combining = SQLValue.text("e\u{301}")
        #expect(precomposed != combining)
        #expect(Set([precomposed, combining]).count == 2)
        #expect(precomposed == .text("é"))
        #expect(SQLValue.integer(1) != .real(1))
    }

    @Test func aMetaTypeIsFoundByTheMapsNameOrTheStoredOneInAnyCase() {
        #expect(MetaType(name: "Int") == .integer)
        #expect(MetaType(name: "INTEGER") == .integer)
        #expect(MetaType(name: "json") == .json)
        #expect(MetaType(name: "number") == nil)
    }
}
