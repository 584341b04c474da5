import Foundation
import GraphImport
import GraphImportSchema
import GraphImportStore
import GraphImportStoreTestSupport
import Testing

/// SQLite's digest triggers (`SchemaSQL.digestTriggers`): made by an import after its drafts are
/// written, kept in step with the map, standing aside while an import writes, and clearing the
/// digest of an object another program writes, a cascade included.
@Suite("SQLite's content digest triggers")
struct DigestTriggerTests {
    static func triggers(_ store: StoreUnderTest) throws -> [String] {
        try store.select("SELECT name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name").map { $0[0] }
    }

    static let names = [
        "graphimport_digest_delete_posts_tags", "graphimport_digest_insert_posts_tags", "graphimport_digest_update_people",
        "graphimport_digest_update_posts", "graphimport_digest_update_posts_tags", "graphimport_digest_update_tags",
    ]

    @Test
    func aFirstImportMakesTheTriggersAndLeavesTheGuardEmpty() throws {
        let store = try MappedStore(.sqlite, map: ContentDigestImportTests.map)
        try store.importJSON(ContentDigestImportTests.feed)
        #expect(try Self.triggers(store.store) == Self.names)
        #expect(try store.store.value("SELECT count(*) FROM graphimport_importing") == "0")
        // In step with the map: nothing to make again.
        let sqlite = try GraphImportStore.Store(path: store.store.location)
        try sqlite.database.beginImmediate()
        #expect(try sqlite.makeDigestTriggers(for: store.plan.schema) == 0)
        sqlite.database.rollback()
    }

    @Test
    func aCascadeOrASetNullClearsTheDigestsOfTheObjectsItChanges() throws {
        let store = try MappedStore(.sqlite, map: ContentDigestImportTests.map)
        try store.importJSON(ContentDigestImportTests.feed)
        let database = try Database(path: store.store.location)
        try database.execute("PRAGMA foreign_keys = ON")
        // Tag b's join rows go by cascade (posts 1 and 2); person 8's post loses its author (SET NULL).
        try database.execute("DELETE FROM tags WHERE name = 'b'")
        #expect(try ContentDigestImportTests.digests(store.store).filter { $0[0] == "posts" }.map { $0[2] } == ["0", "0"])
        try store.importJSON(ContentDigestImportTests.feed)
        #expect(try ContentDigestImportTests.allHeld(store.store))
        let people = try store.store.value("SELECT count(*) FROM people")
        try database.execute("DELETE FROM people WHERE id = 8")
        #expect(try store.store.value("SELECT author_pk IS NULL FROM posts WHERE id = 2") == "1")
        #expect(try ContentDigestImportTests.digests(store.store).filter { $0[0] == "posts" }.map { $0[2] } == ["1", "0"])
        try store.importJSON(ContentDigestImportTests.feed)
        #expect(try store.store.value("SELECT count(*) FROM people") == people)
        #expect(try store.store.value("SELECT author_pk IS NULL FROM posts WHERE id = 2") == "0")
    }

    /// Two maps share a table, one reading a column the other does not: whichever made the
    /// triggers last, another program's write of either's column clears the digest.
    @Test
    func aColumnOnlyAnotherMapReadsIsWatchedToo() throws {
        let store = try StoreUnderTest(.sqlite)
        let narrow = try ImportPlan.compile(text: ContentDigestImportTests.map, fileName: "test.map")
        let wider = ContentDigestImportTests.map.replacingOccurrences(
            of: "  name : String\nentity Tag", with: "  name : String\n  handle : String?\nentity Tag")
        #expect(wider != ContentDigestImportTests.map)
        _ = try store.importJSON(ContentDigestImportTests.feed, plan: ImportPlan.compile(text: wider, fileName: "wider.map")).get()
        _ = try store.importJSON(ContentDigestImportTests.feed, plan: narrow).get()
        _ = try store.importJSON(ContentDigestImportTests.feed, plan: narrow).get()
        #expect(try Self.triggers(store) == Self.names)
        #expect(try store.value("SELECT content_digest IS NULL FROM people WHERE id = 7") == "0")
        try store.execute("UPDATE people SET handle = 'ann' WHERE id = 7")
        #expect(try store.value("SELECT content_digest IS NULL FROM people WHERE id = 7") == "1")
    }

    /// A person given twice in one feed, once without its name: two digests, one state. Each
    /// re-import leaves the row's digest as the run found it rather than writing each in turn.
    @Test
    func anObjectGivenTwiceDifferentlyIsNotWrittenForItsDigestAlone() throws {
        let store = try MappedStore(.sqlite, map: ContentDigestImportTests.map)
        let feed =
            #"[{"id": 1, "title": "one", "author": {"id": 7, "name": "Ann"}, "tags": []}, "#
            + #"{"id": 2, "title": "two", "author": {"id": 7}, "tags": []}]"#
        try store.importJSON(feed)
        // Another program's table and trigger, counting the writes of a person's digest.
        try store.store.execute(
            """
            CREATE TABLE digest_writes (id INTEGER);
            CREATE TRIGGER count_digest_writes AFTER UPDATE OF content_digest ON people BEGIN INSERT INTO digest_writes VALUES (NEW.id); END;
            """)
        for _ in 0..<2 {
            let summary = try store.importJSON(feed)
            #expect(countsByEntity(summary)["Person"]?.prefix(3) == [0, 0, 1])
        }
        #expect(try store.store.value("SELECT count(*) FROM digest_writes") == "0")
        #expect(try store.store.value("SELECT name FROM people WHERE id = 7") == "Ann")
    }

    /// `graphimport schema | sqlite3` makes the guard table and the triggers, which an import then keeps.
    @Test
    func theSchemaCommandsStoreTakesAnImport() throws {
        let store = try StoreUnderTest(.sqlite)
        let plan = try ImportPlan.compile(text: ContentDigestImportTests.map, fileName: "test.map")
        #expect(plan.schemaSQL.contains { $0.hasPrefix("CREATE TRIGGER \"graphimport_digest_update_posts\" AFTER UPDATE ON") })
        try Database(path: store.location).execute(plan.schemaSQL.map { $0 + ";\n" }.joined())
        _ = try store.importJSON(ContentDigestImportTests.feed, plan: plan).get()
        #expect(try Self.triggers(store) == Self.names)
        #expect(try store.value("SELECT count(*) FROM posts WHERE content_digest IS NOT NULL") == "2")
    }
}
