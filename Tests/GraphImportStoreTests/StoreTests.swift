import Foundation
import GraphImportSchema
import GraphImportStore
import Testing

@Suite struct StoreTests {
    private func migrate(_ store: Store, to schema: SchemaDescription, mapText: String = "map v1") throws -> MigrationPlan {
        try store.database.beginImmediate()
        let plan = try store.migrate(to: schema, mapName: "tweets.map", mapText: mapText)
        if plan.refusals.isEmpty { try store.database.commit() } else { store.database.rollback() }
        return plan
    }

    private func history(_ store: Store) throws -> [[SQLValue]] {
        try store.database.rows("SELECT \"version\", \"map_name\", \"map_text\" FROM \"graphimport_schema\" ORDER BY \"version\"")
    }

    @Test func createdFileTellsWhetherTheFileIsNew() throws {
        try withFixture { fixture throws in
            #expect(try Store(path: fixture.path).createdFile)
            #expect(try !Store(path: fixture.path).createdFile)
        }
    }

    @Test func freshStoreHasNoRecordedSchema() throws {
        try withFixture { fixture throws in
            #expect(try Store(path: fixture.path).recordedSchema() == nil)
        }
    }

    @Test func recordedSchemaRoundTrips() throws {
        try withFixture { fixture throws in
            let plan = try migrate(Store(path: fixture.path), to: Schemas.v1)
            #expect(plan.statements == SchemaSQL.createStatements(for: Schemas.v1))
            let reopened = try Store(path: fixture.path)
            #expect(try reopened.recordedSchema() == Schemas.v1)
            #expect(try history(reopened) == [[.integer(1), .text("tweets.map"), .text("map v1")]])
            let recordedAt = try reopened.database.scalar("SELECT \"recorded_at\" FROM \"graphimport_schema\"")
            #expect(recordedAt?.description.hasSuffix("Z'") == true)
        }
    }

    @Test func sameSchemaAndMapRecordNothingNew() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            _ = try migrate(store, to: Schemas.v1)
            let again = try migrate(store, to: Schemas.v1)
            #expect(again.isEmpty)
            #expect(try history(store).count == 1)
            _ = try migrate(store, to: Schemas.v1, mapText: "map v1, reworded")
            #expect(try history(store).map { $0[2] } == [.text("map v1"), .text("map v1, reworded")])
        }
    }

    @Test func additiveMigrationKeepsTheData() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            _ = try migrate(store, to: Schemas.v1)
            try store.database.run("INSERT INTO \"user\" (\"pk\", \"id\", \"name\") VALUES (1, 10, 'ada')")
            try store.database.run("INSERT INTO \"tweet\" (\"id\", \"text\", \"author_pk\") VALUES (100, 'hello', 1)")

            let hashtag = TableDescription(name: "hashtag", columns: [ColumnDescription(name: "tag", type: .text)], uniqueKeys: [["tag"]])
            var v2 = Schemas.v1 { tweet in
                tweet.columns.removeAll { $0.name == "text" }
                tweet.columns.append(ColumnDescription(name: "lang", type: .text))
                tweet.columns.append(ColumnDescription(name: "reply_pk", type: .integer, references: ForeignKey(table: "tweet", column: "pk")))
                tweet.indexes.append(["reply_pk"])
            }
            v2.tables.append(hashtag)
            let reopened = try Store(path: fixture.path)
            let plan = try migrate(reopened, to: v2, mapText: "map v2")
            #expect(plan.refusals.isEmpty)
            #expect(
                plan.changes == [
                    "add column tweet.lang", "add column tweet.reply_pk", "column tweet.text is not in this map; kept",
                    "add index tweet_reply_pk_index", "add table hashtag",
                ])
            #expect(try reopened.recordedSchema() == v2)
            #expect(try history(reopened).count == 2)
            let rows = try reopened.database.rows("SELECT \"id\", \"text\", \"author_pk\", \"lang\", \"reply_pk\" FROM \"tweet\"")
            #expect(rows == [[.integer(100), .text("hello"), .integer(1), .null, .null]])
            try reopened.database.run("INSERT INTO \"hashtag\" (\"tag\") VALUES ('swift')")
            #expect(try reopened.database.scalar("SELECT count(*) FROM \"hashtag\"") == .integer(1))
        }
    }

    @Test func refusedMigrationRunsNothingAndKeepsTheRecordedSchema() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            _ = try migrate(store, to: Schemas.v1)
            var v2 = Schemas.v1 { tweet in
                tweet.columns[1].type = .integer
                tweet.columns.append(ColumnDescription(name: "lang", type: .text))
            }
            v2.tables.append(TableDescription(name: "hashtag", columns: [ColumnDescription(name: "tag", type: .text)]))
            try store.database.beginImmediate()
            let plan = try store.migrate(to: v2, mapName: "tweets.map", mapText: "map v2")
            #expect(plan.refusals.map(\.column) == ["text"])
            #expect(plan.statements.count == 2)
            let tables = try store.database.rows("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
            #expect(tables == [[.text("graphimport_schema")], [.text("tweet")], [.text("user")]])
            let columns = try store.database.rows("SELECT name FROM pragma_table_info('tweet')")
            #expect(!columns.contains([.text("lang")]))
            store.database.rollback()
            #expect(try store.recordedSchema() == Schemas.v1)
        }
    }

    @Test func migrationOutsideATransactionIsRefused() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            let error = #expect(throws: StoreError.self) { try store.migrate(to: Schemas.v1, mapName: "m", mapText: "") }
            #expect(error?.description == "SQLite error 21: the schema migration must run inside a transaction")
            #expect(try store.recordedSchema() == nil)
        }
    }

    @Test func unreadableRecordedSchemaIsAnError() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            _ = try migrate(store, to: Schemas.v1)
            try store.database.run("UPDATE \"graphimport_schema\" SET \"schema_json\" = '{}'")
            let error = #expect(throws: StoreError.self) { try store.recordedSchema() }
            #expect(
                error?.description
                    == "SQLite error 1: the schema recorded in graphimport_schema version 1 cannot be read; the store was written by another program or version"
            )
        }
    }

    @Test func storeOpenedOnASymlinkIsRefusedAndCreatesNothing() throws {
        try withFixture { fixture throws in
            let link = fixture.directory.path("link.sqlite")
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: fixture.path)
            let error = #expect(throws: StoreError.self) { try Store(path: link) }
            #expect(error?.isCantOpen == true)
            #expect(!FileManager.default.fileExists(atPath: fixture.path))
        }
    }
}

@Suite struct StoredSchemaTests {
    static let links = TableDescription(
        name: "tweet_tags", primaryKey: .columns(["tweet_pk", "tag_pk"]),
        columns: [
            ColumnDescription(name: "tweet_pk", type: .integer, notNull: true, references: ForeignKey(table: "tweet", column: "pk", onDelete: .cascade)),
            ColumnDescription(name: "tag_pk", type: .integer, notNull: true, references: ForeignKey(table: "tag", column: "pk", onDelete: .restrict)),
            ColumnDescription(name: "position", type: .integer, notNull: true),
        ],
        indexes: [["tag_pk"]])

    @Test func theStoreDescribesTheTablesSchemaSQLCreated() throws {
        try withFixture { fixture throws in
            let schema = SchemaDescription(tables: Schemas.v1.tables + [Self.links])
            let store = try Store(path: fixture.path)
            try store.database.execute(SchemaSQL.createStatements(for: schema).joined(separator: ";"))
            let stored = try store.storedSchema()
            #expect(stored.schema == schema)
            #expect(stored.recorded == nil)
            #expect(stored.names["tweet_author_pk_index"] == "index")
            #expect(Migrator.plan(from: stored, to: schema, target: .sqlite) == MigrationPlan())
        }
    }

    @Test func aTableKeyedByAnIntegerWithoutRowIDIsNoRowIDTable() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try store.database.execute(
                "CREATE TABLE a (pk INTEGER PRIMARY KEY, x TEXT); CREATE TABLE b (pk INTEGER PRIMARY KEY, x TEXT) without\n  rowid")
            #expect(try store.storedSchema().schema.tables.map(\.primaryKey) == [.rowid("pk"), .columns(["pk"])])
        }
    }

    @Test func internalTablesAreNotDescribed() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try store.database.beginImmediate()
            _ = try store.migrate(to: Schemas.v1, mapName: "m", mapText: "")
            try store.database.commit()
            #expect(try store.storedSchema().schema.tables.map(\.name) == ["user", "tweet"])
        }
    }

    @Test func aNameTakenByAnotherKindOfObjectIsRefused() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try store.database.execute("CREATE TABLE other (x); CREATE VIEW user AS SELECT x FROM other")
            let plan = Migrator.plan(from: try store.storedSchema(), to: Schemas.v1, target: .sqlite)
            #expect(plan.refusals.map(\.message) == ["the store already has a view named user, so table user cannot be created"])
        }
    }

    @Test func columnsOfAnotherCaseAreTheSameColumns() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try store.database.execute(
                #"CREATE TABLE "USER" ("PK" INTEGER PRIMARY KEY, "ID" INTEGER NOT NULL, "Name" TEXT) STRICT; CREATE UNIQUE INDEX u ON "USER"("Id")"#)
            let plan = Migrator.plan(from: try store.storedSchema(), to: SchemaDescription(tables: [Schemas.user]), target: .sqlite)
            #expect(plan == MigrationPlan())
        }
    }
}
