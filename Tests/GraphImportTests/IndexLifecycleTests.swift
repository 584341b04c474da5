import GraphImport
import GraphImportSchema
import GraphImportStore
import Testing

/// A first import builds its tables' plain indexes once at the end; whatever way the run ends, the
/// store keeps every index the map's schema declares. One store: SQLite's deferred index build,
/// read from `sqlite_schema` and `EXPLAIN QUERY PLAN`.
@Suite struct IndexLifecycleTests {
    private static let indexes = "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"

    /// The indexes the schema declares, as a migration alone creates them.
    private func declaredIndexes(_ fixture: EngineFixture) throws -> [[String]] {
        let store = try Store(path: fixture.directory.path("schema-only.sqlite"))
        try store.database.beginImmediate()
        _ = try store.migrate(to: fixture.plan.schema, mapName: "test.map", mapText: "")
        try store.database.commit()
        return try store.database.rows(Self.indexes).map { $0.map(\.description) }
    }

    @Test func aFirstImportEndsWithEveryDeclaredIndexAndUsesThem() throws {
        let fixture = try EngineFixture(map: tweetsMap)
        let declared = try declaredIndexes(fixture)
        #expect(declared.contains { $0[0] == "'tweets_author_pk_index'" })
        try fixture.importJSON("[\(tweet(1, tags: ["a", "b"])),\(tweet(2, user: 2, handle: "bob", tags: ["b"]))]")
        #expect(try fixture.rows(Self.indexes) == declared)
        #expect(try fixture.value("PRAGMA integrity_check") == "'ok'")
        let plan = try fixture.rows("EXPLAIN QUERY PLAN SELECT tweets_pk FROM tweets_hashtags WHERE hashtags_pk = 1")
        #expect(plan.contains { $0.last?.contains("tweets_hashtags_hashtags_pk_index") == true })
        // A second import finds the tables filled and leaves the indexes alone.
        try fixture.importJSON("[\(tweet(3, tags: ["c"]))]")
        #expect(try fixture.rows(Self.indexes) == declared)
    }

    @Test func aFailedFirstImportLeavesTheIndexesAsTheyWere() throws {
        let fixture = try EngineFixture(map: tweetsMap)
        try fixture.importJSON("", options: ImportOptions(allowEmpty: true))
        let declared = try declaredIndexes(fixture)
        #expect(try fixture.rows(Self.indexes) == declared)
        #expect(throws: ImportError.self) { try fixture.importJSON("[\(tweet(1, tags: ["a"])),{\"id\":") }
        #expect(try fixture.rows(Self.indexes) == declared)
        #expect(try fixture.value("SELECT count(*) FROM tweets") == "0")
    }

    @Test func anEmptyImportAndADryRunKeepTheIndexes() throws {
        let fixture = try EngineFixture(map: tweetsMap)
        let declared = try declaredIndexes(fixture)
        try fixture.importJSON("[]", options: ImportOptions(allowEmpty: true))
        #expect(try fixture.rows(Self.indexes) == declared)
        try fixture.importJSON("[\(tweet(1, tags: ["a"]))]", options: ImportOptions(dryRun: true))
        #expect(try fixture.rows(Self.indexes) == declared)
        #expect(try fixture.value("SELECT count(*) FROM tweets") == "0")
    }
}
