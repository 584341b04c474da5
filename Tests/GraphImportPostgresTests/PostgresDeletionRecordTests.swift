import Foundation
import GraphImport
import GraphImportPostgres
import GraphImportSchema
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// `graphimport_deleted` on PostgreSQL: made by the first run with its marker row, then a row per
/// deleted object, read back as the SQLite store's reader reads it (for `graphimport changes`).
@Suite("PostgreSQL: the record of deleted objects", needsPostgres)
struct PostgresDeletionRecordTests {
    static let map = """
        records at $[*] as Post
        entity Post
          key id, lang
          delete missing
          id : Int
          lang : String
        """

    @Test func theFirstRunMarksTheTableAndEachDeletionIsReadBackInOrder() throws {
        let store = try StoreUnderTest(.postgresql)
        let plan = try ImportPlan.compile(text: Self.map, fileName: "posts.map")
        let connection = try PostgresConnection(ConnectionString(store.location)!)
        #expect(try connection.deletionsRecordedSince() == nil)
        _ = try store.importJSON(#"[{"id":1,"lang":"en"},{"id":2,"lang":"it's"},{"id":3,"lang":"de"}]"#, plan: plan).get()
        #expect(try connection.deletionsRecordedSince() == 1)
        _ = try store.importJSON(#"[{"id":1,"lang":"en"}]"#, plan: plan).get()
        _ = try store.importJSON("[]", plan: plan).get()
        _ = try store.importJSON(#"[{"id":3,"lang":"de"}]"#, plan: plan).get()
        let deleted = try connection.deletions(of: "Post", after: 1)
        #expect(deleted.map(\.run) == [2, 2, 4])
        #expect(deleted.map(\.key) == [#"{"id":2,"lang":"it's"}"#, #"{"id":3,"lang":"de"}"#, #"{"id":1,"lang":"en"}"#])
        #expect(try connection.deletions(of: "Post", after: 2).map(\.key) == [#"{"id":1,"lang":"en"}"#])
        #expect(try connection.deletions(of: "Other", after: 0).isEmpty)
        // The columns of SQLite's table, and PostgreSQL's stand-in for its rowid.
        let columns = try connection.rows(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'graphimport_deleted' ORDER BY ordinal_position")
        #expect(columns.map { $0[0] ?? "" } == ["run", "entity", "key", "rowid"])
    }
}
