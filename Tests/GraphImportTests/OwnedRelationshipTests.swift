import GraphImport
import GraphImportSchema
import GraphImportStoreTestSupport
import Testing

/// An issue tracker's change history: entries without an id, each with an author (and maybe a
/// reviewer) who has one, and labels by name.
private let historyMap = """
    records at issues[*] as Issue
    entity Issue
      key id
      id : Int
      title : String
      history : [Change]
      pinned : Pin?
    entity Change owned
      field : String
      author : User
      reviewer : User?
      labels : [Label]
    entity Pin owned
      note : String
      by : User
    entity User
      key id
      id : Int
      login : String?
    entity Label
      key name
      name <- $ : String
    """

private let historyFeed = #"""
    {"issues": [
      {"id": 1, "title": "crash", "history": [
         {"field": "title", "author": {"id": 7, "login": "ann"}, "labels": ["bug"]},
         {"field": "state", "author": {"id": 8, "login": "bob"}, "reviewer": {"id": 7, "login": "ann"}, "labels": ["bug", "ui"]}],
       "pinned": {"note": "hot", "by": {"id": 8, "login": "bob"}}},
      {"id": 2, "title": "docs", "history": [{"field": "body", "author": 9, "labels": []}]}
    ]}
    """#

/// The history's rows: issue, position, field, author, reviewer.
private let historyRows = """
    SELECT c.owner_id, c.position, c.field, a.id, r.id FROM changes c
    JOIN users a ON a.pk = c.author_pk LEFT JOIN users r ON r.pk = c.reviewer_pk ORDER BY c.owner_id, c.position
    """

/// The labels of each change, in order.
private let labelRows = """
    SELECT c.owner_id, c.position, l.name FROM changes c JOIN changes_labels j ON j.changes_pk = c.pk
    JOIN labels l ON l.pk = j.labels_pk ORDER BY c.owner_id, c.position, j.position
    """

private func deleted(_ summary: ImportSummary, _ entity: String) -> Int? { summary.entities.first { $0.name == entity }?.counts.deleted }

@Suite("owned entities that hold relationships to keyed entities")
struct OwnedRelationshipTests {
    @Test(arguments: StoreKind.testable)
    func anOwnedObjectHoldsAForeignKeyAndItsTargetsAreUpsertedOrStubbed(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: historyMap)
        let summary = try store.importJSON(historyFeed)
        #expect(
            try store.select(historyRows) == [
                ["1", "0", "title", "7", "NULL"], ["1", "1", "state", "8", "7"], ["2", "0", "body", "9", "NULL"],
            ])
        #expect(try store.select(labelRows) == [["1", "0", "bug"], ["1", "1", "bug"], ["1", "1", "ui"]])
        #expect(try store.select("SELECT p.owner_id, p.note, u.login FROM pins p JOIN users u ON u.pk = p.by_pk") == [["1", "hot", "bob"]])
        // User 9 is named by its key alone: a stub, as any relationship's target.
        #expect(try store.select("SELECT id, login FROM users ORDER BY id") == [["7", "ann"], ["8", "bob"], ["9", "NULL"]])
        #expect(countsByEntity(summary)["Change"] == [3, 0, 0, 0])
        #expect(countsByEntity(summary)["User"]?.first == 3)
        let again = try store.importJSON(historyFeed)
        #expect(!again.changed)
        #expect(countsByEntity(again)["Change"] == [0, 0, 3, 0])
    }

    @Test(arguments: StoreKind.testable)
    func aChangedTargetIsUpdatedAndTheOwnedObjectStaysUnchanged(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: historyMap)
        try store.importJSON(historyFeed)
        let renamed = try store.importJSON(historyFeed.replacingOccurrences(of: #""login": "bob""#, with: #""login": "robert""#))
        #expect(countsByEntity(renamed)["Change"] == [0, 0, 3, 0])
        #expect(countsByEntity(renamed)["User"]?[1] == 1)
        #expect(try store.select("SELECT login FROM users WHERE id = 8") == [["robert"]])
        // Another author for a line updates the line in place, and keeps both users.
        let reassigned = try store.importJSON(historyFeed.replacingOccurrences(of: #""author": 9"#, with: #""author": 7"#))
        #expect(countsByEntity(reassigned)["Change"] == [0, 1, 2, 0])
        #expect(try store.select("SELECT a.id FROM changes c JOIN users a ON a.pk = c.author_pk WHERE c.owner_id = 2") == [["7"]])
        #expect(try store.value("SELECT count(*) FROM users") == "3")
    }

    @Test(arguments: StoreKind.testable)
    func replacingTheOwnersListDeletesOwnedRowsAndKeepsTheirTargets(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: historyMap)
        try store.importJSON(historyFeed)
        let shorter = try store.importJSON(
            #"{"issues": [{"id": 1, "title": "crash", "history": [{"field": "title", "author": 7, "labels": ["ui"]}], "pinned": null}]}"#)
        #expect(deleted(shorter, "Change") == 1)
        #expect(deleted(shorter, "Pin") == 1)
        #expect(try store.select(historyRows) == [["1", "0", "title", "7", "NULL"], ["2", "0", "body", "9", "NULL"]])
        #expect(try store.select(labelRows) == [["1", "0", "ui"]])
        #expect(try store.select("SELECT id, login FROM users ORDER BY id") == [["7", "ann"], ["8", "bob"], ["9", "NULL"]])
        #expect(try store.select("SELECT name FROM labels ORDER BY name") == [["bug"], ["ui"]])
        #expect(try store.value("SELECT count(*) FROM changes_labels") == "1")
    }

    @Test(arguments: StoreKind.testable)
    func deletingTheOwnerDeletesItsOwnedRowsButNeverTheirTargets(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: historyMap)
        try store.importJSON(historyFeed)
        let graph = try ObjectGraph(store: store.store.location, plan: store.plan)
        let deletions = try graph.delete(try #require(try graph.object("Issue", key: 1)))
        #expect(deletions.map { "\($0.entity) \($0.count)" }.sorted() == ["Change 2", "Issue 1", "Pin 1"])
        #expect(try store.select(historyRows) == [["2", "0", "body", "9", "NULL"]])
        #expect(try store.value("SELECT count(*) FROM users") == "3")
        #expect(try store.value("SELECT count(*) FROM labels") == "2")
        #expect(try store.value("SELECT count(*) FROM changes_labels") == "0")
    }

    @Test(arguments: StoreKind.testable)
    func aDeletedTargetIsNullifiedInTheOwnedRowByDefault(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: historyMap)
        try store.importJSON(historyFeed)
        let graph = try ObjectGraph(store: store.store.location, plan: store.plan)
        let deletions = try graph.delete(try #require(try graph.object("User", key: 7)))
        #expect(deletions.map { "\($0.entity) \($0.count)" } == ["User 1"])
        #expect(
            try store.select("SELECT c.owner_id, c.position, c.author_pk IS NULL, c.reviewer_pk IS NULL FROM changes c ORDER BY c.owner_id, c.position")
                .map { $0.map { $0 == "t" ? "1" : $0 == "f" ? "0" : $0 } } == [["1", "0", "1", "1"], ["1", "1", "0", "1"], ["2", "0", "0", "1"]])
        let label = try #require(try graph.object("Label", key: "bug"))
        try graph.delete(label)
        #expect(try store.select(labelRows) == [["1", "1", "ui"]])
    }

    @Test(arguments: StoreKind.testable)
    func aTargetThatDeleteMissingTakesIsNullifiedInTheOwnedRows(kind: StoreKind) throws {
        let map = "records at users[*] as User\n" + historyMap.replacingOccurrences(of: "  login : String?\n", with: "  login : String?\n  delete missing\n")
        let store = try MappedStore(kind, map: map)
        try store.importJSON(
            #"{"users": [{"id": 7, "login": "ann"}, {"id": 8, "login": "bob"}], "issues": [{"id": 1, "title": "t", "history": [{"field": "f", "author": 8, "reviewer": 7, "labels": []}]}]}"#
        )
        let summary = try store.importJSON(#"{"users": [{"id": 7, "login": "ann"}], "issues": [{"id": 2, "title": "u"}]}"#)
        #expect(summary.deletions == [Deletions(entity: "User", count: 1, sampleKeys: ["8"])])
        #expect(
            try store.select("SELECT c.owner_id, c.field, c.author_pk IS NULL, r.id FROM changes c JOIN users r ON r.pk = c.reviewer_pk")
                .map { $0.map { $0 == "t" ? "1" : $0 } } == [["1", "f", "1", "7"]])
    }

    @Test(arguments: StoreKind.testable)
    func aCascadeOnTheOwnedSideDeletesTheOwnedRowWithItsTarget(kind: StoreKind) throws {
        let map = historyMap.replacingOccurrences(of: "  author : User\n", with: "  author : User delete cascade\n")
        let store = try MappedStore(kind, map: map)
        try store.importJSON(historyFeed)
        let graph = try ObjectGraph(store: store.store.location, plan: store.plan)
        let deletions = try graph.delete(try #require(try graph.object("User", key: 8)))
        #expect(deletions.map { "\($0.entity) \($0.count)" }.sorted() == ["Change 1", "User 1"])
        #expect(try store.select(historyRows) == [["1", "0", "title", "7", "NULL"], ["2", "0", "body", "9", "NULL"]])
        #expect(try store.value("SELECT count(*) FROM issues") == "2")
        // The next import of the issue puts the line back at its position.
        let again = try store.importJSON(historyFeed)
        #expect(countsByEntity(again)["Change"]?.first == 1)
        #expect(try store.select(historyRows).count == 3)
        // The rule runs from the target to the line, never from the line to its target.
        try graph.delete(try #require(try graph.object("Issue", key: 2)))
        #expect(try store.select("SELECT id FROM users ORDER BY id") == [["7"], ["8"], ["9"]])
    }

    @Test(arguments: StoreKind.testable)
    func aDenyOnTheOwnedSideRefusesTheTargetsDeletion(kind: StoreKind) throws {
        let map = historyMap.replacingOccurrences(of: "  author : User\n", with: "  author : User delete deny\n")
        let store = try MappedStore(kind, map: map)
        try store.importJSON(historyFeed)
        let before = try store.rows()
        let graph = try ObjectGraph(store: store.store.location, plan: store.plan)
        #expect(throws: GraphError.self) { try graph.delete(try #require(try graph.object("User", key: 8))) }
        #expect(try store.rows() == before)
        // The owner goes with its owned rows, which deny nothing once they go too.
        try graph.delete(try #require(try graph.object("Issue", key: 1)))
        try graph.delete(try #require(try graph.object("User", key: 8)))
        #expect(try store.select("SELECT id FROM users ORDER BY id") == [["7"], ["9"]])
    }

    @Test(arguments: StoreKind.testable)
    func aRequiredTargetAbsentFromAnOwnedObjectFailsTheRecordAndWritesNothing(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: historyMap)
        try store.importJSON(historyFeed)
        let before = try store.rows()
        let failure = store.store.importError(
            #"{"issues": [{"id": 3, "title": "x", "history": [{"field": "title", "author": null}]}]}"#, plan: store.plan)
        #expect(failure?.description.contains("is required but the value is null") == true, "\(String(describing: failure))")
        #expect(failure?.description.contains("$.issues[0].history[0].author") == true, "\(String(describing: failure))")
        #expect(try store.rows() == before)
    }

    @Test(arguments: StoreKind.testable)
    func theExportImportsAgainToTheSameGraph(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: historyMap)
        try store.importJSON(historyFeed)
        let exported = try store.store.export(plan: store.plan)
        #expect(exported.contains(#""author":{"id":7,"login":"ann"}"#), "\(exported)")
        let copy = try MappedStore(kind, map: historyMap)
        try copy.importJSON(exported)
        #expect(try copy.rows() == store.rows())
        let again = try copy.importJSON(exported)
        #expect(!again.changed)
    }
}

/// Order lines that name their order (`@parent`), a product (maybe without its sku, skipped),
/// tags merged page by page and a promotion only when it is stored already.
private let linesMap = """
    records at promos[*] as Promo
    records at orders[*] as Order
    entity Order
      key number
      number : String
      lines : [Line]
    entity Line owned
      order <- @parent.number : Order
      product : Product? unkeyed skip inverse lines
      tags : [Tag] merge
      promo <- promo_code : Promo? link existing
      quantity : Int
    entity Product
      key sku
      sku : String
      name : String?
    entity Tag
      key name
      name <- $ : String
    entity Promo
      key code
      code : String
    """

extension OwnedRelationshipTests {
    @Test(arguments: StoreKind.testable)
    func theClausesOfAnyRelationshipWorkOnTheOwnedSide(kind: StoreKind) throws {
        // Batches of one object: the owner, its lines and their targets meet in different batches.
        let store = try MappedStore(kind, map: linesMap, batchSize: 1)
        try store.importJSON(#"{"promos": [{"code": "SPRING"}], "orders": []}"#)
        let summary = try store.importJSON(
            #"""
            {"promos": [], "orders": [
              {"number": "A1", "lines": [
                {"product": {"sku": "pen", "name": "Pen"}, "tags": ["blue"], "promo_code": "SPRING", "quantity": 1},
                {"product": {"name": "no sku"}, "tags": [], "promo_code": "WINTER", "quantity": 2}]},
              {"number": "A2", "lines": [{"product": {"sku": "pen"}, "tags": ["red"], "quantity": 3}]}]}
            """#)
        #expect(summary.skippedElements.map(\.member) == ["Line.product"])
        #expect(summary.unlinked.map { "\($0.member) \($0.count)" } == ["Line.promo 1"])
        let rows = """
            SELECT l.owner_number, l.position, o.number, p.sku, m.code, l.quantity FROM lines l
            JOIN orders o ON o.pk = l.order_pk LEFT JOIN products p ON p.pk = l.product_pk LEFT JOIN promos m ON m.pk = l.promo_pk
            ORDER BY l.owner_number, l.position
            """
        #expect(
            try store.select(rows) == [
                ["A1", "0", "A1", "pen", "SPRING", "1"], ["A1", "1", "A1", "NULL", "NULL", "2"], ["A2", "0", "A2", "pen", "NULL", "3"],
            ])
        // The product's inverse lists the lines that name it.
        let graph = try ObjectGraph(store: store.store.location, plan: store.plan)
        let pen = try #require(try graph.object("Product", key: "pen"))
        #expect(try pen.related("lines").compactMap { try $0.int("quantity") }.sorted() == [1, 3])
        // A merged list keeps what the next page leaves out.
        try store.importJSON(#"{"promos": [], "orders": [{"number": "A2", "lines": [{"product": {"sku": "pen"}, "tags": ["green"], "quantity": 3}]}]}"#)
        #expect(
            try store.select(
                "SELECT t.name FROM lines l JOIN lines_tags j ON j.lines_pk = l.pk JOIN tags t ON t.pk = j.tags_pk WHERE l.owner_number = 'A2' ORDER BY j.position"
            ) == [["red"], ["green"]])
    }
}

/// Order lines whose item is a product or a service, with a main seller picked by `where` and
/// every seller with the role the wrapper gives them.
private let sellersMap = """
    records at orders[*] as Order
    entity Order
      key number
      number : String
      lines : [Line]
    entity Line owned
      quantity : Int
      item : (Product | Service) by kind
        "p" -> Product
        "s" -> Service
      seller <- sellers where role = "main" : User? each user
      helpers <- sellers : [User] each user
        link role : String
    entity Product
      key sku
      sku : String
    entity Service
      key code
      code : String
    entity User
      key id
      id : Int
      name : String?
    """

private let sellersFeed = #"""
    {"orders": [{"number": "A1", "lines": [
      {"quantity": 1, "item": {"kind": "p", "sku": "pen"},
       "sellers": [{"role": "aux", "user": {"id": 1, "name": "a"}}, {"role": "main", "user": {"id": 2, "name": "b"}}]},
      {"quantity": 2, "item": {"kind": "s", "code": "wrap"}, "sellers": []}]}]}
    """#

extension OwnedRelationshipTests {
    @Test(arguments: StoreKind.testable)
    func polymorphicFilteredAndWrappedRelationshipsWorkOnTheOwnedSide(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: sellersMap)
        try store.importJSON(sellersFeed)
        let rows = """
            SELECT l.position, p.sku, s.code, u.id FROM lines l LEFT JOIN products p ON p.pk = l.item_product_pk
            LEFT JOIN services s ON s.pk = l.item_service_pk LEFT JOIN users u ON u.pk = l.seller_pk ORDER BY l.position
            """
        #expect(try store.select(rows) == [["0", "pen", "NULL", "2"], ["1", "NULL", "wrap", "NULL"]])
        #expect(
            try store.select("SELECT u.id, j.role FROM lines_helpers j JOIN users u ON u.pk = j.users_pk ORDER BY j.position") == [
                ["1", "aux"], ["2", "main"],
            ])
        #expect(!(try store.importJSON(sellersFeed)).changed)
        let copy = try MappedStore(kind, map: sellersMap)
        try copy.importJSON(try store.store.export(plan: store.plan))
        #expect(try copy.rows() == store.rows())
    }
}

/// `graphimport check --sample` walks an owned object's relationships as an import drafts them.
extension SampleCheckTests {
    @Test func anOwnedObjectsRelationshipsAreChecked() throws {
        let good = try check(historyMap, sample: historyFeed)
        #expect(good.diagnostics.isEmpty, "\(good.diagnostics.map(\.headline))")
        let bad = try check(historyMap, sample: #"{"issues": [{"id": 1, "title": "t", "history": [{"field": "f", "author": "seven"}]}]}"#)
        #expect(bad.diagnostics.map(\.headline).contains { $0.contains("Change.author") && $0.contains("$.issues[0].history[0].author") })
    }
}
