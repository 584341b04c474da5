import GraphImportSchema
import GraphImportStore
import Testing

/// Plain indexes of empty tables are dropped for an import and built again before it commits.
@Suite struct DeferredIndexTests {
    private static let indexQuery = "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"

    private func migrated(_ fixture: DatabaseFixture) throws -> Store {
        let store = try Store(path: fixture.path)
        try store.database.beginImmediate()
        _ = try store.migrate(to: Schemas.v1, mapName: "tweets.map", mapText: "map v1")
        try store.database.commit()
        return store
    }

    /// Defers the indexes of the tables `emptyTables` finds, as the importer does.
    private func deferIndexes(_ store: Store) throws -> DeferredIndexes {
        try store.deferIndexes(of: store.emptyTables(in: Schemas.v1), in: Schemas.v1)
    }

    @Test func emptyTablesLoseTheirPlainIndexesUntilRebuiltAsTheyWere() throws {
        try withFixture { fixture throws in
            let store = try migrated(fixture)
            let before = try store.database.rows(Self.indexQuery)
            try store.database.beginImmediate()
            #expect(try store.emptyTables(in: Schemas.v1) == ["user", "tweet"])
            let deferred = try deferIndexes(store)
            #expect(deferred.statements == [SchemaSQL.createIndex(on: "tweet", columns: ["author_pk"], unique: false)])
            // The unique keys stay: the import looks objects up by them.
            #expect(try store.database.rows(Self.indexQuery).map { $0[0] } == [.text("tweet_id"), .text("user_id")])
            try store.database.run("INSERT INTO \"user\" (\"pk\", \"id\") VALUES (1, 10)")
            try store.database.run("INSERT INTO \"tweet\" (\"id\", \"author_pk\") VALUES (100, 1), (101, 1)")
            let cacheSize = try store.database.scalar("PRAGMA cache_size")
            try store.rebuild(deferred)
            // The page cache shrinks for the sort and is given back its size.
            #expect(try store.database.scalar("PRAGMA cache_size") == cacheSize)
            try store.database.commit()
            #expect(try store.database.rows(Self.indexQuery) == before)
            let plan = try store.database.rows("EXPLAIN QUERY PLAN SELECT pk FROM \"tweet\" WHERE \"author_pk\" = 1")
            #expect(plan.contains { $0.last?.description.contains("tweet_author_pk_index") == true })
        }
    }

    @Test func tablesWithRowsKeepTheirIndexes() throws {
        try withFixture { fixture throws in
            let store = try migrated(fixture)
            try store.database.run("INSERT INTO \"user\" (\"pk\", \"id\") VALUES (1, 10)")
            try store.database.run("INSERT INTO \"tweet\" (\"id\", \"author_pk\") VALUES (100, 1)")
            let before = try store.database.rows(Self.indexQuery)
            try store.database.beginImmediate()
            #expect(try store.emptyTables(in: Schemas.v1).isEmpty)
            #expect(try deferIndexes(store) == .none)
            #expect(try store.database.rows(Self.indexQuery) == before)
            store.database.rollback()
        }
    }

    @Test func aRollbackPutsTheDroppedIndexesBack() throws {
        try withFixture { fixture throws in
            let store = try migrated(fixture)
            let before = try store.database.rows(Self.indexQuery)
            try store.database.beginImmediate()
            #expect(try deferIndexes(store) != .none)
            store.database.rollback()
            #expect(try store.database.rows(Self.indexQuery) == before)
        }
    }

    @Test func anIndexMissingFromTheStoreIsNeitherDroppedNorCreated() throws {
        try withFixture { fixture throws in
            let store = try migrated(fixture)
            try store.database.execute("DROP INDEX \"tweet_author_pk_index\"")
            try store.database.beginImmediate()
            #expect(try deferIndexes(store) == .none)
            store.database.rollback()
        }
    }

    @Test func deferringOrRebuildingOutsideATransactionIsRefused() throws {
        try withFixture { fixture throws in
            let store = try migrated(fixture)
            #expect(throws: StoreError.self) { try deferIndexes(store) }
            try store.database.beginImmediate()
            let deferred = try deferIndexes(store)
            store.database.rollback()
            // The index is back from the rollback; building it again outside a transaction is refused.
            let error = #expect(throws: StoreError.self) { try store.rebuild(deferred) }
            #expect(error?.description.contains("inside a transaction") == true)
        }
    }
}
