import GraphImport
import GraphImportJSON
import GraphImportMapping
import GraphImportStore
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

    @Test func firstImportCreatesTheSchemaItReports() throws {
        let directory = TemporaryDirectory()
        let summary = try importJSON(#"[{"id":1,"name":"a"}]"#, map: Self.version1, store: directory.path("s.sqlite"))
        #expect(summary.schemaChanges == ["add table item"])
        let database = try Database(path: directory.path("s.sqlite"))
        #expect(
            try database.scalar("SELECT sql FROM sqlite_schema WHERE name = 'item'")
                == .text(
                    #"CREATE TABLE "item" ("pk" INTEGER PRIMARY KEY, "id" INTEGER NOT NULL, "name" TEXT, "inserted_run" INTEGER, "changed_run" INTEGER) STRICT"#
                ))
        #expect(try database.scalar("SELECT count(*) FROM graphimport_schema") == .integer(1))
    }

    @Test func addingAttributesEntitiesAndRelationshipsMigratesInPlaceKeepingData() throws {
        let directory = TemporaryDirectory()
        let store = directory.path("s.sqlite")
        try importJSON(#"[{"id":1,"name":"a"}]"#, map: Self.version1, store: store)
        let version2 =
            Self.version1 + """

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
        let summary = try importJSON(
            #"[{"id":2,"name":"b","price":1.5,"owner":{"login":"ann"},"tags":["x","y"]}]"#, map: version2, store: store)
        #expect(
            summary.schemaChanges == [
                "add column item.price", "add column item.owner_pk", "add index item_owner_pk_index", "add table person", "add table tag",
                "add table item_tags",
            ])
        let database = try Database(path: store)
        #expect(
            try database.rows("SELECT id, name, price, owner_pk IS NOT NULL FROM item ORDER BY id") == [
                [.integer(1), .text("a"), .null, .integer(0)],
                [.integer(2), .text("b"), .real(1.5), .integer(1)],
            ])
        #expect(try database.rows("SELECT name FROM tag JOIN item_tags ON tag_pk = tag.pk ORDER BY position") == [[.text("x")], [.text("y")]])
    }

    @Test func aTypeChangeIsRefusedAndTheStoreIsUntouched() throws {
        let directory = TemporaryDirectory()
        let store = directory.path("s.sqlite")
        try importJSON(#"[{"id":1,"name":"a"}]"#, map: Self.version1, store: store)
        let changed = Self.version1.replacingOccurrences(of: "name : String", with: "name : Int")
        #expect {
            try importJSON(#"[{"id":2,"name":5}]"#, map: changed, store: store)
        } throws: { error in
            guard case ImportError.migration(_, let refusals) = error as! ImportError else { return false }
            return refusals.map(\.description) == [
                """
                test.map:4:3: error: column item.name is TEXT in the store and INTEGER in the map; SQLite cannot change a column's type in place
                 4 |   name : Int
                   |   ^
                help: import into a new store with --store NEW.sqlite, or delete the store to rebuild it
                """
            ]
        }
        let database = try Database(path: store)
        #expect(try database.rows("SELECT id, name FROM item") == [[.integer(1), .text("a")]])
    }

    @Test func aNewUniqueKeyIsRefused() throws {
        let directory = TemporaryDirectory()
        let store = directory.path("s.sqlite")
        try importJSON(#"[{"id":1,"name":"a"}]"#, map: Self.version1, store: store)
        let rekeyed = Self.version1.replacingOccurrences(of: "key id", with: "key id, name")
        #expect(throws: ImportError.self) {
            try importJSON(#"[{"id":2,"name":"b"}]"#, map: rekeyed, store: store)
        }
        #expect(try Database(path: store).scalar("SELECT count(*) FROM item") == .integer(1))
    }

    @Test func anAttributeNoLongerMappedKeepsItsColumnAndData() throws {
        let directory = TemporaryDirectory()
        let store = directory.path("s.sqlite")
        try importJSON(#"[{"id":1,"name":"a"}]"#, map: Self.version1, store: store)
        let slim = "entity Item\n  key id\n  id : Int\n"
        let summary = try importJSON(#"[{"id":2}]"#, map: slim, store: store)
        #expect(summary.schemaChanges.contains { $0.contains("item.name") && $0.contains("kept") })
        #expect(try Database(path: store).rows("SELECT id, name FROM item ORDER BY id") == [[.integer(1), .text("a")], [.integer(2), .null]])
    }

    @Test func aStoreLockedByAnotherWriterIsReportedBusyAfterTheWait() throws {
        let directory = TemporaryDirectory()
        let store = directory.path("s.sqlite")
        try importJSON(#"[{"id":1,"name":"a"}]"#, map: Self.version1, store: store)
        let holder = try Database(path: store)
        try holder.beginImmediate()
        defer { holder.rollback() }
        let mapping = try MapParser.parse(
            Self.version1, fileName: "test.map", converters: ConverterCatalog.standard.signatures, validators: ValidatorCatalog.standard.signatures)
        #expect {
            try GraphImporter(plan: ImportPlan(mapping: mapping)).run(
                source: BytesSource(Array(#"[{"id":2,"name":"b"}]"#.utf8)), inputName: "test.json", storePath: store,
                options: ImportOptions(busyTimeout: 0.2))
        } throws: { error in
            guard case ImportError.store(_, let failure) = error as! ImportError else { return false }
            return failure.kind == .busy
        }
    }

    @Test func sqlNamesClashingAfterSnakeCaseAreMapErrors() throws {
        let map = "entity Item\n  key id\n  id : Int\n  userName : String\n  user_name : String\n"
        let mapping = try MapParser.parse(
            map, fileName: "t.map", converters: ConverterCatalog.standard.signatures, validators: ValidatorCatalog.standard.signatures)
        #expect {
            try ImportPlan(mapping: mapping)
        } throws: { error in
            (error as! MappingErrors).diagnostics.first?.headline
                == "t.map:5:3: error: 'user_name' would be stored in column 'user_name' of table 'item', which 'userName' already uses"
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

    @Test func twoMapsFeedOneStoreInEitherOrder() throws {
        let directory = TemporaryDirectory()
        let store = directory.path("s.sqlite")
        let migrations = MigrationTests()
        try migrations.importJSON(#"[{"id":1,"name":"ann","books":[{"id":10,"title":"a"}]}]"#, map: Self.authorsAndBooks, store: store)
        let books = try migrations.importJSON(#"[{"id":11,"title":"b"}]"#, map: Self.booksOnly, store: store)
        #expect(books.schemaChanges == ["table author is not in this map; kept", "table author_books is not in this map; kept"])
        let again = try migrations.importJSON(
            #"[{"id":2,"name":"bob","books":[{"id":11,"title":"b"}]}]"#, map: Self.authorsAndBooks, store: store)
        #expect(again.schemaChanges.isEmpty)
        try migrations.importJSON(#"[{"id":12,"title":"c"}]"#, map: Self.booksOnly, store: store)
        let database = try Database(path: store)
        #expect(
            try database.rows("SELECT id, title FROM book ORDER BY id") == [
                [.integer(10), .text("a")], [.integer(11), .text("b")], [.integer(12), .text("c")],
            ])
        #expect(try database.rows("SELECT count(*) FROM author_books") == [[.integer(2)]])
    }

    @Test func anAttributeDroppedAndRestoredMigrates() throws {
        let directory = TemporaryDirectory()
        let store = directory.path("s.sqlite")
        let migrations = MigrationTests()
        try migrations.importJSON(#"[{"id":1,"name":"a"}]"#, map: MigrationTests.version1, store: store)
        try migrations.importJSON(#"[{"id":2}]"#, map: "entity Item\n  key id\n  id : Int\n", store: store)
        let restored = try migrations.importJSON(#"[{"id":3,"name":"c"}]"#, map: MigrationTests.version1, store: store)
        #expect(restored.schemaChanges.isEmpty)
        #expect(
            try Database(path: store).rows("SELECT id, name FROM item ORDER BY id") == [
                [.integer(1), .text("a")], [.integer(2), .null], [.integer(3), .text("c")],
            ])
    }

    @Test func aStoreMadeFromTheSchemaRecipeImports() throws {
        let directory = TemporaryDirectory()
        let store = directory.path("s.sqlite")
        let mapping = try MapParser.parse(
            Self.authorsAndBooks, fileName: "test.map", converters: ConverterCatalog.standard.signatures,
            validators: ValidatorCatalog.standard.signatures)
        // `graphimport schema --map M | sqlite3 S`
        try Database(path: store).execute(ImportPlan(mapping: mapping).schemaSQL.map { $0 + ";\n" }.joined())
        let summary = try MigrationTests().importJSON(
            #"[{"id":1,"name":"ann","books":[{"id":10,"title":"a"}]}]"#, map: Self.authorsAndBooks, store: store)
        #expect(summary.schemaChanges.isEmpty)
        #expect(try Database(path: store).rows("SELECT title FROM book") == [[.text("a")]])
    }

    @Test func aTableAddedByHandIsKeptAndAColumnOfTheSameNameIsReused() throws {
        let directory = TemporaryDirectory()
        let store = directory.path("s.sqlite")
        try MigrationTests().importJSON(#"[{"id":1}]"#, map: "entity Item\n  key id\n  id : Int\n", store: store)
        try Database(path: store).execute("ALTER TABLE item ADD COLUMN name TEXT; CREATE TABLE notes (body TEXT)")
        let summary = try MigrationTests().importJSON(#"[{"id":2,"name":"b"}]"#, map: MigrationTests.version1, store: store)
        #expect(summary.schemaChanges.isEmpty)
        #expect(try Database(path: store).rows("SELECT id, name FROM item ORDER BY id") == [[.integer(1), .null], [.integer(2), .text("b")]])
    }
}
