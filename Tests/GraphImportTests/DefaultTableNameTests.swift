import Foundation
import GraphImport
import GraphImportJSON
import GraphImportMapping
import GraphImportSchema
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// An entity without a `table` line gets a plural table that needs no quotes (`Naming.defaultTable`),
/// and a store made when it got its singular name is renamed by the next import, on both stores.
@Suite("Default table names, and stores made with the singular ones")
struct DefaultTableNameTests {
    /// The map without `table` lines: tables `items`, `people`, `tags`, join table `items_tags`.
    static let map = """
        entity Item
          key id
          id : Int
          name : String
          owner : Person? inverse items
          tags : [Tag]
        entity Person
          key login
          login : String
        entity Tag
          key name
          name : String
        """

    /// The same map as an older graphimport named its tables: what it made is a store with
    /// `item`, `person`, `tag` and `item_tags` (with `item_pk`, `tag_pk`), and the indexes named after them.
    static let olderMap = map.replacingOccurrences(of: "entity Item", with: "entity Item table item")
        .replacingOccurrences(of: "entity Person", with: "entity Person table person").replacingOccurrences(of: "entity Tag", with: "entity Tag table tag")

    static let feed = #"[{"id":1,"name":"a","owner":{"login":"ann"},"tags":[{"name":"x"},{"name":"y"}]},{"id":2,"name":"b","tags":[{"name":"y"}]}]"#

    static func plan(_ text: String) throws -> ImportPlan { try ImportPlan.compile(text: text, fileName: "test.map") }

    /// The store's indexes of data tables (not those of primary keys), sorted.
    func indexNames(_ store: StoreUnderTest) throws -> [String] {
        switch store.kind {
        case .sqlite:
            try store.lines(
                "SELECT name FROM sqlite_schema WHERE type = 'index' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND tbl_name NOT LIKE 'graphimport\\_%' ESCAPE '\\' ORDER BY name"
            )
        case .postgresql:
            try store.lines(
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename NOT LIKE 'graphimport\\_%' ESCAPE '\\' "
                    + "AND indexname NOT LIKE '%\\_pkey' ESCAPE '\\' ORDER BY indexname COLLATE \"C\"")
        }
    }

    @Test func anEntityWithoutATableLineGetsThePluralSnakeCaseName() throws {
        let plan = try Self.plan(Self.map)
        #expect(plan.entities.map(\.table) == ["items", "people", "tags"])
        #expect(plan.schema.tables.map(\.name) == ["items", "people", "tags", "items_tags"])
        #expect(plan.schema.table(named: "items_tags")?.columns.map(\.name) == ["items_pk", "tags_pk", "position"])
        #expect(plan.formerSchema?.tables.map(\.name) == ["item", "person", "tag", "item_tags"])
        #expect(try Self.plan(Self.olderMap).formerSchema == nil)
    }

    @Test(arguments: StoreKind.testable)
    func anImportRenamesTheSingularTablesKeepingRowsAndLinks(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let older = try Self.plan(Self.olderMap)
        try store.importOrThrow(Self.feed, plan: older)
        let before = try store.rows(plan: older)
        #expect(try store.tableNames() == ["item", "item_tags", "person", "tag"])

        let plan = try Self.plan(Self.map)
        let summary = try store.importOrThrow(Self.feed, plan: plan)
        #expect(
            summary.schemaChanges == [
                "rename table item to items (an older graphimport's name)", "rename table person to people (an older graphimport's name)",
                "rename table tag to tags (an older graphimport's name)",
                "rename table item_tags to items_tags (an older graphimport's name), column item_pk to items_pk, column tag_pk to tags_pk",
            ])
        #expect(countsByEntity(summary) == ["Item": [0, 0, 2, 0], "Person": [0, 0, 1, 0], "Tag": [0, 0, 2, 0]])
        #expect(try store.tableNames() == ["items", "items_tags", "people", "tags"])
        #expect(try store.columnNames(of: "items_tags") == ["items_pk", "tags_pk", "position"])
        #expect(try indexNames(store) == ["items_id", "items_owner_pk_index", "items_tags_tags_pk_index", "people_login", "tags_name"])
        let after = try store.rows(plan: plan)
        #expect(after.keys.sorted() == ["items", "items_tags", "people", "tags"])
        #expect(before.keys.sorted().map { before[$0]! } == after.keys.sorted().map { after[$0]! })

        // Again: nothing to rename, nothing changed; then a change goes through the renamed tables.
        let again = try store.importOrThrow(Self.feed, plan: plan)
        #expect(again.schemaChanges.isEmpty)
        #expect(countsByEntity(again) == ["Item": [0, 0, 2, 0], "Person": [0, 0, 1, 0], "Tag": [0, 0, 2, 0]])
        let changed = try store.importOrThrow(#"[{"id":1,"name":"a","owner":{"login":"bob"},"tags":[{"name":"z"},{"name":"x"}]}]"#, plan: plan)
        #expect(countsByEntity(changed)["Item"] == [0, 1, 0, 0])
        #expect(try store.rows(plan: plan)["items_tags"] == ["1|x|1", "1|z|0", "2|y|0"])
        #expect(try store.lines("SELECT p.login FROM items i JOIN people p ON p.pk = i.owner_pk WHERE i.id = 1") == ["bob"])
        if kind == .sqlite { #expect(try store.lines("PRAGMA foreign_key_check").isEmpty) }
    }

    @Test(arguments: StoreKind.testable)
    func aStoreWithBothNamesIsRefusedAndLeftAsItWas(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        try store.importOrThrow(Self.feed, plan: try Self.plan(Self.olderMap))
        // A map that named the tables as the default now does, imported into the same store.
        let explicit = Self.map.replacingOccurrences(of: "entity Item", with: "entity Item table items")
        try store.importOrThrow(#"[{"id":3,"name":"c"}]"#, plan: try Self.plan(explicit))
        let tables = try store.tableNames()
        #expect(tables == ["item", "item_tags", "items", "items_tags", "people", "tags"])
        let plan = try Self.plan(Self.map)
        let error = try #require(throws: ImportError.self) { try store.importOrThrow(Self.feed, plan: plan) }
        guard case .storeConflict(_, let refusals) = error else { throw error }
        #expect(
            refusals.map(\.message) == [
                "the store has table item, as an older graphimport named table items, and table items as well; which one holds the objects is unknown",
                "the store has table item_tags, as an older graphimport named table items_tags, and table items_tags as well; which one holds the objects is unknown",
            ])
        #expect(refusals.first?.location.line == 1)
        #expect(try store.tableNames() == tables)
    }

    @Test(arguments: StoreKind.testable)
    func aFormerNameTheMapGivesAnotherEntityIsRefused(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        try store.importOrThrow(#"[{"id":1}]"#, plan: try Self.plan("entity Status table status\n  key id\n  id : Int"))
        let map = "entity Status\n  key id\n  id : Int\nentity Other table status\n  key id\n  id : Int"
        let plan = try Self.plan(map)
        let error = try #require(throws: ImportError.self) { try store.importOrThrow(#"[{"id":1}]"#, plan: plan) }
        guard case .storeConflict(_, let refusals) = error else { throw error }
        #expect(refusals.count == 1)
        #expect(refusals.first?.message.contains("this map gives the name status to another table") == true)
        #expect(refusals.first?.hint?.contains("`table status`") == true)
        #expect(try store.tableNames() == ["status"])
        // Named explicitly, the entity's new table is made beside the other's.
        let named = map.replacingOccurrences(of: "entity Status\n", with: "entity Status table statuses\n")
        #expect(try store.importOrThrow(#"[{"id":1}]"#, plan: try Self.plan(named)).schemaChanges == ["add table statuses"])
    }

    @Test(arguments: StoreKind.testable)
    func readersOfAStoreNotYetRenamedSayToImportFirst(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        try store.importOrThrow(Self.feed, plan: try Self.plan(Self.olderMap))
        let plan = try Self.plan(Self.map)
        do {
            _ = try ObjectGraph(store: store.location, plan: plan, readOnly: true)
            Issue.record("the graph should not open")
        } catch {
            #expect(error.kind == .storeMismatch)
            #expect(
                error.message
                    == "the store keeps entity Item's objects in table item, the name an older graphimport gave it, and this map reads table items")
            #expect(error.hint?.hasPrefix("import into the store with this map once") == true)
        }
        try store.importOrThrow(Self.feed, plan: plan)
        let graph = try ObjectGraph(store: store.location, plan: plan, readOnly: true)
        #expect(try graph.object("Item", key: 1)?.related("tags").count == 2)
        graph.close()
    }

    /// Entity names made of the words that need quotes, alone, capitalised, combined and in the
    /// plural, with ordinary ones.
    static let entityNames: [String] = {
        let words = Naming.wordsNeedingQuotes.sorted()
        let capitalised = words.map { $0.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() }
        let ordinary = ["Tweet", "PullRequest", "Person", "Reply", "Status", "Box", "Match", "Series", "News", "URLString", "UserID", "Datum", "A", "X1"]
        let plurals = words.map { Naming.plural($0).prefix(1).uppercased() + Naming.plural($0).dropFirst() }
        return capitalised + plurals + ordinary + zip(capitalised, capitalised.reversed()).map { $0 + $1 }
    }()

    @Test func theDefaultTableNeverNeedsQuotes() throws {
        for name in Self.entityNames {
            let table = Naming.defaultTable(entity: name)
            #expect(!Naming.needsQuotes(table), "\(name) -> \(table)")
            #expect(try Self.plan("entity \(name)\n  key id\n  id : Int").entities[0].table == table)
        }
        #expect(Naming.defaultTable(entity: "User") == "users")
        #expect(Naming.defaultTable(entity: "Order") == "orders")
        #expect(Naming.defaultTable(entity: "PullRequest") == "pull_requests")
        #expect(Naming.defaultTable(entity: "Person") == "people")
        #expect(Naming.defaultTable(entity: "Media") == "media")
    }

    @Test func initTheEngineAndTheShippedMapsAgree() throws {
        // `init` drafts the engine's default, numbered only when two entities would share it.
        let sample = #"[{"id":1,"user":{"id":2},"order":{"id":3},"pull_request":{"id":4},"person":{"id":5}}]"#
        let draft = try MapDrafter.draft(source: BytesSource(Array(sample.utf8)), sampleName: "items.json")
        let plan = try Self.plan(draft.text)
        for (entity, declared) in zip(plan.entities, plan.mapping.entities) {
            #expect(declared.tableName == Naming.defaultTable(entity: entity.name), "\(entity.name)")
        }
        // The shipped maps name each table as the default would.
        let mappings = repositoryRoot.appendingPathComponent("Mappings")
        let maps = try FileManager.default.contentsOfDirectory(atPath: mappings.path).filter { $0.hasSuffix(".map") }
        #expect(!maps.isEmpty)
        for file in maps {
            let path = mappings.appendingPathComponent(file).path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            // A map that is only included by others (its relationships name their entities) is checked through them.
            guard let plan = try? ImportPlan.compile(text: text, fileName: path, includes: MapFiles.includes(within: IncludeScope(map: path, allowing: [])))
            else { continue }
            for entity in plan.mapping.entities {
                let table = entity.tableName ?? Naming.defaultTable(entity: entity.name)
                #expect(!Naming.needsQuotes(table), "\(file): \(entity.name) -> \(table)")
                #expect(table == Naming.defaultTable(entity: entity.name), "\(file): \(entity.name)")
            }
        }
    }
}
