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
            guard case ImportError.migration(_, let refusals, let hints) = error as! ImportError else { return false }
            return refusals.count == 1 && refusals[0].contains("item.name") && hints[0].contains("--store")
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
