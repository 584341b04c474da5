import GraphImport
import GraphImportJSON
import GraphImportMapping
import GraphImportPostgres
import GraphImportSchema
import GraphImportStore
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

@Suite("Schema from the map, and migrations")
struct MigrationTests {
    static let version1 = """
        entity Item
          key id
          id : Int
          name : String
        """

    /// Imports `json` with `map` into the store at `path`.
    @discardableResult
    func importJSON(_ json: String, map: String, store path: String) throws -> ImportSummary {
        let mapping = try MapParser.parse(
            map, fileName: "test.map", converters: ConverterCatalog.standard.signatures, validators: ValidatorCatalog.standard.signatures)
        return try GraphImporter(plan: ImportPlan(mapping: mapping)).run(
            source: BytesSource(Array(json.utf8)), inputName: "test.json", storePath: path, options: ImportOptions())
    }

    static let version2 =
        version1 + """

              price : Double?
              owner : Person? inverse items
              tags : [Tag]
            entity Person
              key login
              login : String
            entity Tag
              key name
              name : String
            """

    /// One store: the `CREATE TABLE` text SQLite keeps (`firstImportCreatesTheTablesAndRecordsTheSchemaOnce`
    /// checks both stores' tables).
    @Test func firstImportCreatesTheSchemaItReports() throws {
        let directory = TemporaryDirectory()
        let summary = try importJSON(#"[{"id":1,"name":"a"}]"#, map: Self.version1, store: directory.path("s.sqlite"))
        #expect(summary.schemaChanges == ["add table items"])
        let database = try Database(path: directory.path("s.sqlite"))
        #expect(
            try database.scalar("SELECT sql FROM sqlite_schema WHERE name = 'items'")
                == .text(
                    #"CREATE TABLE "items" ("pk" INTEGER PRIMARY KEY, "id" INTEGER NOT NULL, "name" TEXT, "inserted_run" INTEGER, "changed_run" INTEGER, "stub_run" INTEGER, "content_digest" BLOB) STRICT"#
                ))
        #expect(try database.scalar("SELECT count(*) FROM graphimport_schema") == .integer(1))
    }

    @Test(arguments: StoreKind.testable)
    func firstImportCreatesTheTablesAndRecordsTheSchemaOnce(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let summary = try store.importJSON(#"[{"id":1,"name":"a"}]"#, map: Self.version1)
        #expect(summary.schemaChanges == ["add table items"])
        #expect(try store.columnNames(of: "items") == ["pk", "id", "name", "inserted_run", "changed_run", "stub_run", "content_digest"])
        let again = try store.importJSON(#"[{"id":2,"name":"b"}]"#, map: Self.version1)
        #expect(again.schemaChanges.isEmpty)
        #expect(try store.lines("SELECT count(*) FROM graphimport_schema") == ["1"])
    }

    @Test(arguments: StoreKind.testable)
    func addingAttributesEntitiesAndRelationshipsMigratesInPlaceKeepingData(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        try store.importJSON(#"[{"id":1,"name":"a"}]"#, map: Self.version1)
        let summary = try store.importJSON(#"[{"id":2,"name":"b","price":1.5,"owner":{"login":"ann"},"tags":["x","y"]}]"#, map: Self.version2)
        #expect(
            summary.schemaChanges == [
                "add column items.price", "add column items.owner_pk", "add index items_owner_pk_index", "add table people", "add table tags",
                "add table items_tags",
            ])
        #expect(summary.entities.map { $0.counts.inserted } == [1, 1, 2])
        #expect(
            try store.lines("SELECT id, name, price, CASE WHEN owner_pk IS NULL THEN 0 ELSE 1 END FROM items ORDER BY id") == [
                "1|a|NULL|0", "2|b|1.5|1",
            ])
        #expect(try store.lines("SELECT name FROM tags JOIN items_tags ON tags_pk = tags.pk ORDER BY position") == ["x", "y"])
        #expect(try store.lines("SELECT count(*) FROM graphimport_schema") == ["2"])
        // The new foreign key holds: an item's owner is a person.
        #expect(try store.lines("SELECT login FROM items JOIN people ON people.pk = items.owner_pk") == ["ann"])
    }

    @Test(arguments: StoreKind.testable)
    func aTypeChangeIsRefusedAndTheStoreIsUntouched(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        try store.importJSON(#"[{"id":1,"name":"a"}]"#, map: Self.version1)
        let changed = Self.version1.replacingOccurrences(of: "name : String", with: "name : Int")
        let target = store.migrationTarget
        #expect {
            try store.importJSON(#"[{"id":2,"name":5}]"#, map: changed)
        } throws: { error in
            guard case .migration(_, let refusals)? = error as? ImportError else { return false }
            return refusals.map(\.description) == [
                """
                test.map:4:3: error: column items.name is TEXT in the store and INTEGER in the map; \(target.cannot) change a column's type in place
                 4 |   name : Int
                   |   ^
                help: \(target.rebuildHint)
                """
            ]
        }
        #expect(try store.lines("SELECT id, name FROM items") == ["1|a"])
        #expect(try store.lines("SELECT count(*) FROM graphimport_schema") == ["1"])
    }

    @Test(arguments: StoreKind.testable)
    func aNewUniqueKeyIsRefused(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        try store.importJSON(#"[{"id":1,"name":"a"}]"#, map: Self.version1)
        let rekeyed = Self.version1.replacingOccurrences(of: "key id", with: "key id, name")
        let target = store.migrationTarget
        #expect {
            try store.importJSON(#"[{"id":2,"name":"b"}]"#, map: rekeyed)
        } throws: { error in
            guard case .migration(_, let refusals)? = error as? ImportError else { return false }
            return refusals.map(\.message) == [
                "table items has the unique keys (id) in the store and (id, name) in the map; rows already stored may not fit the new keys",
                "column items.name is nullable in the store and NOT NULL in the map; \(target.cannot) add a constraint to an existing column",
            ]
        }
        #expect(try store.lines("SELECT count(*) FROM items") == ["1"])
    }

    @Test(arguments: StoreKind.testable)
    func anAttributeNoLongerMappedKeepsItsColumnAndData(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        try store.importJSON(#"[{"id":1,"name":"a"}]"#, map: Self.version1)
        let summary = try store.importJSON(#"[{"id":2}]"#, map: "entity Item\n  key id\n  id : Int\n")
        #expect(summary.schemaChanges == ["column items.name is not in this map; kept"])
        #expect(try store.lines("SELECT id, name FROM items ORDER BY id") == ["1|a", "2|NULL"])
    }

    @Test(arguments: StoreKind.testable)
    func aFailedImportAfterAMigrationLeavesTheOldSchemaAndRows(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        try store.importJSON(#"[{"id":1,"name":"a"}]"#, map: Self.version1)
        let before = try store.tableNames()
        // The migration runs, then the second record fails: the run's one transaction takes both back.
        let feed = #"[{"id":2,"name":"b","price":1.5,"owner":{"login":"ann"},"tags":["x"]}, {"id":"three"}]"#
        #expect {
            try store.importJSON(feed, map: Self.version2)
        } throws: { error in
            guard case .record? = error as? ImportError else { return false }
            return true
        }
        #expect(before == ["items"])
        #expect(try store.tableNames() == before)
        #expect(try store.columnNames(of: "items") == ["pk", "id", "name", "inserted_run", "changed_run", "stub_run", "content_digest"])
        #expect(try store.lines("SELECT id, name FROM items") == ["1|a"])
        #expect(try store.lines("SELECT count(*) FROM graphimport_schema") == ["1"])
        // The next import migrates afresh.
        let summary = try store.importJSON(#"[{"id":2,"name":"b","price":1.5}]"#, map: Self.version2)
        #expect(summary.schemaChanges.first == "add column items.price")
    }

    @Test(arguments: StoreKind.testable)
    func aDryRunReportsTheMigrationAndLeavesTheSchema(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        try store.importJSON(#"[{"id":1,"name":"a"}]"#, map: Self.version1)
        var options = ImportOptions()
        options.dryRun = true
        let summary = try store.importJSON(#"[{"id":2,"name":"b","price":1.5}]"#, map: Self.version2, options: options)
        #expect(summary.dryRun)
        #expect(summary.schemaChanges.contains("add column items.price"))
        #expect(summary.entities.first?.counts.inserted == 1)
        #expect(try store.tableNames() == ["items"])
        #expect(try store.columnNames(of: "items") == ["pk", "id", "name", "inserted_run", "changed_run", "stub_run", "content_digest"])
        #expect(try store.lines("SELECT count(*) FROM graphimport_schema") == ["1"])
    }

    @Test(arguments: StoreKind.testable)
    func aStoreLockedByAnotherWriterIsReportedBusyAfterTheWait(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        try store.importJSON(#"[{"id":1,"name":"a"}]"#, map: Self.version1)
        try store.whileLocked {
            let error = #expect(throws: ImportError.self) {
                try store.importJSON(#"[{"id":2,"name":"b"}]"#, map: Self.version1, options: ImportOptions(busyTimeout: 0.2))
            }
            // One case on both stores (and exit 75 from the command), the server's own report kept.
            guard case .store(_, let failure)? = error else {
                Issue.record("not a store failure: \(String(describing: error))")
                return
            }
            #expect(failure.kind == .busy)
            switch kind {
            case .sqlite: #expect(failure.server == nil)
            case .postgresql:
                #expect(failure.server?.sqlState == "55P03")
                #expect(failure.message.contains("another import held the store's lock"))
            }
        }
        #expect(try store.lines("SELECT id FROM items ORDER BY id") == ["1"])
    }

    @Test func sqlNamesClashingAfterSnakeCaseAreMapErrors() throws {
        let map = "entity Item\n  key id\n  id : Int\n  userName : String\n  user_name : String\n"
        let mapping = try MapParser.parse(
            map, fileName: "t.map", converters: ConverterCatalog.standard.signatures, validators: ValidatorCatalog.standard.signatures)
        #expect {
            try ImportPlan(mapping: mapping)
        } throws: { error in
            (error as! MappingErrors).diagnostics.first?.headline
                == "t.map:5:3: error: 'user_name' would be stored in column 'user_name' of table 'items', which 'userName' already uses"
        }
    }
}

@Suite("Migrations compare the map with the store as it is")
struct StoreAsItIsMigrationTests {
    static let authorsAndBooks = """
        entity Author
          key id
          id : Int
          name : String
          books : [Book]
        entity Book
          key id
          id : Int
          title : String
        """
    static let booksOnly = """
        entity Book
          key id
          id : Int
          title : String
        """

    @Test(arguments: StoreKind.testable)
    func twoMapsFeedOneStoreInEitherOrder(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        try store.importJSON(#"[{"id":1,"name":"ann","books":[{"id":10,"title":"a"}]}]"#, map: Self.authorsAndBooks)
        let books = try store.importJSON(#"[{"id":11,"title":"b"}]"#, map: Self.booksOnly)
        #expect(books.schemaChanges == ["table authors is not in this map; kept", "table authors_books is not in this map; kept"])
        let again = try store.importJSON(#"[{"id":2,"name":"bob","books":[{"id":11,"title":"b"}]}]"#, map: Self.authorsAndBooks)
        #expect(again.schemaChanges.isEmpty)
        try store.importJSON(#"[{"id":12,"title":"c"}]"#, map: Self.booksOnly)
        #expect(try store.lines("SELECT id, title FROM books ORDER BY id") == ["10|a", "11|b", "12|c"])
        #expect(try store.lines("SELECT count(*) FROM authors_books") == ["2"])
    }

    @Test(arguments: StoreKind.testable)
    func anAttributeDroppedAndRestoredMigrates(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        try store.importJSON(#"[{"id":1,"name":"a"}]"#, map: MigrationTests.version1)
        try store.importJSON(#"[{"id":2}]"#, map: "entity Item\n  key id\n  id : Int\n")
        let restored = try store.importJSON(#"[{"id":3,"name":"c"}]"#, map: MigrationTests.version1)
        #expect(restored.schemaChanges.isEmpty)
        #expect(try store.lines("SELECT id, name FROM items ORDER BY id") == ["1|a", "2|NULL", "3|c"])
    }

    @Test(arguments: StoreKind.testable)
    func aStoreMadeFromTheSchemaRecipeImports(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: Self.authorsAndBooks, fileName: "test.map")
        // `graphimport schema --map M | sqlite3 S`, or `… --store postgresql://… | psql`
        try store.execute(store.schemaSQL(for: plan.schema).map { $0 + ";\n" }.joined())
        let summary = try store.importJSON(#"[{"id":1,"name":"ann","books":[{"id":10,"title":"a"}]}]"#, map: Self.authorsAndBooks)
        #expect(summary.schemaChanges.isEmpty)
        #expect(try store.lines("SELECT title FROM books") == ["a"])
    }

    @Test(arguments: StoreKind.testable)
    func aTableAddedByHandIsKeptAndAColumnOfTheSameNameIsReused(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        try store.importJSON(#"[{"id":1}]"#, map: "entity Item\n  key id\n  id : Int\n")
        try store.execute("ALTER TABLE items ADD COLUMN name TEXT; CREATE TABLE notes (body TEXT)")
        let summary = try store.importJSON(#"[{"id":2,"name":"b"}]"#, map: MigrationTests.version1)
        #expect(summary.schemaChanges.isEmpty)
        #expect(try store.lines("SELECT id, name FROM items ORDER BY id") == ["1|NULL", "2|b"])
        #expect(try store.tableNames() == ["items", "notes"])
    }

    @Test(arguments: StoreKind.testable)
    func aNameTakenByAnotherKindOfObjectRefusesTheTable(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        try store.importJSON(#"[{"id":1}]"#, map: "entity Item\n  key id\n  id : Int\n")
        try store.execute("CREATE VIEW tags AS SELECT id FROM items")
        let target = store.migrationTarget
        #expect {
            try store.importJSON(
                #"[{"id":2,"tags":["x"]}]"#, map: "entity Item\n  key id\n  id : Int\n  tags : [Tag]\nentity Tag\n  key name\n  name : String\n")
        } throws: { error in
            guard case .migration(_, let refusals)? = error as? ImportError else { return false }
            return refusals.map(\.description) == [
                """
                test.map:5:8: error: the store already has a view named tags, so table tags cannot be created
                 5 | entity Tag
                   |        ^
                help: rename the entity's table in the map, or \(target.rebuildHint)
                """
            ]
        }
        #expect(try store.tableNames() == ["items"])
    }
}
