import GraphImport
import GraphImportSchema
import GraphImportStoreTestSupport
import Testing

/// A contacts API: people with addresses and phone numbers that have no id of their own, and a
/// home address as a lone object.
private let contactsMap = """
    records at people[*] as Person
    entity Person
      key id
      id : Int
      name : String
      addresses : [Address]
      phones <- phone_numbers : [Phone]
      home : Home?
    entity Address owned
      street : String
      city : String
      kind <- type : String?
    entity Phone owned
      number : String
      label : String?
    entity Home owned table homes
      city : String
    """

/// An order with lines that have no id.
private let ordersMap = """
    records at $[*] as Order
    entity Order
      key number
      number : String
      lines : [Line]
    entity Line owned
      sku : String
      quantity : Int
    """

/// The orders, where those a complete feed no longer holds are deleted.
private let ordersDeletingMissingMap = ordersMap.replacingOccurrences(of: "  lines : [Line]\n", with: "  lines : [Line]\n  delete missing\n")

/// A store of `kind` and the plan of `map`, for imports into either store.
private func storeAndPlan(_ kind: StoreKind, _ map: String) throws -> (StoreUnderTest, ImportPlan) {
    (try StoreUnderTest(kind), try ImportPlan.compile(text: map, fileName: "test.map"))
}

private func deleted(_ summary: ImportSummary, _ entity: String) -> Int? { summary.entities.first { $0.name == entity }?.counts.deleted }

@Suite("owned entities: nested objects without a key")
struct OwnedEntityTests {
    static let contacts = #"""
        {"people": [
          {"id": 1, "name": "Ann", "addresses": [{"street": "1 Main St", "city": "Oslo", "type": "home"},
                                                 {"street": "2 Side St", "city": "Bergen"}],
           "phone_numbers": [{"number": "+47 1"}], "home": {"city": "Oslo"}},
          {"id": 2, "name": "Bob", "addresses": [{"street": "1 Main St", "city": "Oslo", "type": "home"}],
           "phone_numbers": []}
        ]}
        """#

    @Test(arguments: StoreKind.testable)
    func ownedObjectsAreRowsOfTheirOwnerInTheFeedsOrder(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(kind, contactsMap)
        let summary = try store.importJSON(Self.contacts, plan: plan).get()
        #expect(
            try store.select("SELECT owner_id, position, street, city, kind FROM addresses ORDER BY owner_id, position") == [
                ["1", "0", "1 Main St", "Oslo", "home"], ["1", "1", "2 Side St", "Bergen", "NULL"],
                ["2", "0", "1 Main St", "Oslo", "home"],
            ])
        #expect(try store.select("SELECT owner_id, position, number FROM phones") == [["1", "0", "+47 1"]])
        #expect(try store.select("SELECT p.name, h.city FROM people p JOIN homes h ON h.pk = p.home_pk") == [["Ann", "Oslo"]])
        // Two people with the same address each own a row of their own.
        #expect(summary.counts(of: "Address") == [3, 0, 0, 0])
        #expect(
            try store.select(
                "SELECT p.name, a.street FROM people p JOIN people_addresses j ON j.people_pk = p.pk JOIN addresses a ON a.pk = j.addresses_pk ORDER BY p.id, j.position"
            ) == [["Ann", "1 Main St"], ["Ann", "2 Side St"], ["Bob", "1 Main St"]])
    }

    @Test(arguments: StoreKind.testable)
    func anUnchangedFeedChangesNothing(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(kind, contactsMap)
        _ = try store.importJSON(Self.contacts, plan: plan).get()
        let again = try store.importJSON(Self.contacts, plan: plan).get()
        #expect(!again.changed)
        #expect(again.counts(of: "Address") == [0, 0, 3, 0])
        #expect(try store.select("SELECT count(*) FROM addresses WHERE changed_run <> inserted_run") == [["0"]])
    }

    @Test(arguments: StoreKind.testable)
    func aListIsReplacedByPositionAndWhatItNoLongerHoldsIsDeleted(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(kind, ordersMap)
        _ = try store.importJSON(
            #"[{"number": "A1", "lines": [{"sku": "pen", "quantity": 1}, {"sku": "ink", "quantity": 2}, {"sku": "pad", "quantity": 3}]}]"#,
            plan: plan
        ).get()
        let summary = try store.importJSON(
            #"[{"number": "A1", "lines": [{"sku": "pen", "quantity": 1}, {"sku": "ink", "quantity": 5}]}]"#, plan: plan
        ).get()
        #expect(summary.counts(of: "Line") == [0, 1, 1, 0])
        #expect(deleted(summary, "Line") == 1)
        #expect(summary.deletions == [Deletions(entity: "Line", count: 1, sampleKeys: ["('A1', 2)"])])
        #expect(try store.select("SELECT position, sku, quantity FROM lines ORDER BY position") == [["0", "pen", "1"], ["1", "ink", "5"]])
        let emptied = try store.importJSON(#"[{"number": "A1", "lines": null}]"#, plan: plan).get()
        #expect(deleted(emptied, "Line") == 2)
        #expect(try store.select("SELECT count(*) FROM lines") == [["0"]])
    }

    /// The owned objects a list lets go of are deleted by the delete rules' one walk, as
    /// `delete missing`'s are: recorded in `graphimport_deleted` (what `changes` reads), on both
    /// stores; a dry run deletes and records nothing but says what would go.
    @Test(arguments: StoreKind.testable)
    func theOwnedObjectsAListLetsGoOfAreRecordedAsDeleted(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(kind, ordersMap)
        let three = #"[{"number": "A1", "lines": [{"sku": "pen", "quantity": 1}, {"sku": "ink", "quantity": 2}, {"sku": "pad", "quantity": 3}]}]"#
        _ = try store.importJSON(three, plan: plan).get()
        let one = #"[{"number": "A1", "lines": [{"sku": "pen", "quantity": 1}]}]"#
        var dryRun = ImportOptions()
        dryRun.dryRun = true
        let dry = try store.importJSON(one, plan: plan, options: dryRun).get()
        #expect(dry.deletions == [Deletions(entity: "Line", count: 2, sampleKeys: ["('A1', 1)", "('A1', 2)"])])
        #expect(try store.select("SELECT count(*) FROM graphimport_deleted WHERE entity IS NOT NULL") == [["0"]])
        let summary = try store.importJSON(one, plan: plan).get()
        #expect(summary.deletions == [Deletions(entity: "Line", count: 2, sampleKeys: ["('A1', 1)", "('A1', 2)"])])
        #expect(
            try store.select("SELECT entity, key FROM graphimport_deleted WHERE entity IS NOT NULL ORDER BY key") == [
                ["Line", #"{"owner_number":"A1","position":1}"#], ["Line", #"{"owner_number":"A1","position":2}"#],
            ])
    }

    @Test(arguments: StoreKind.testable)
    func anAbsentListLeavesTheOwnedObjectsAlone(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(kind, ordersMap)
        _ = try store.importJSON(#"[{"number": "A1", "lines": [{"sku": "pen", "quantity": 1}]}]"#, plan: plan).get()
        let summary = try store.importJSON(#"[{"number": "A1"}]"#, plan: plan).get()
        #expect(!summary.changed)
        #expect(try store.select("SELECT count(*) FROM lines") == [["1"]])
    }

    @Test(arguments: StoreKind.testable)
    func anOwnerDeletedByDeleteMissingTakesItsOwnedObjects(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(kind, ordersDeletingMissingMap)
        _ = try store.importJSON(
            #"[{"number": "A1", "lines": [{"sku": "pen", "quantity": 1}]}, {"number": "A2", "lines": [{"sku": "pen", "quantity": 1}]}]"#, plan: plan
        ).get()
        let summary = try store.importJSON(#"[{"number": "A2", "lines": [{"sku": "pen", "quantity": 1}]}]"#, plan: plan).get()
        #expect(deleted(summary, "Order") == 1)
        #expect(deleted(summary, "Line") == 1)
        #expect(try store.select("SELECT owner_number, sku FROM lines") == [["A2", "pen"]])
    }

    @Test(arguments: StoreKind.testable)
    func aSkippedRecordKeepsDeleteMissingBackButNotTheLinesAWrittenOrderLetGo(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(kind, ordersDeletingMissingMap)
        _ = try store.importJSON(
            #"[{"number": "A1", "lines": [{"sku": "pen", "quantity": 1}, {"sku": "ink", "quantity": 2}]}, {"number": "A2", "lines": []}]"#, plan: plan
        ).get()
        let summary = try store.importJSON(
            #"[{"number": "A1", "lines": [{"sku": "pen", "quantity": 1}]}, {"number": "A3", "lines": [{"sku": "x", "quantity": "bad"}]}]"#,
            plan: plan, options: ImportOptions(skipInvalid: true)
        ).get()
        #expect(summary.deletionsSuspended)
        #expect(deleted(summary, "Line") == 1)
        #expect(try store.select("SELECT number FROM \"orders\" ORDER BY number") == [["A1"], ["A2"]])
        #expect(try store.select("SELECT sku FROM lines") == [["pen"]])
    }

    @Test(arguments: StoreKind.testable)
    func aSkippedRecordDoesNotKeepBackTheLinesAWrittenOrderLetGo(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(kind, ordersMap)
        _ = try store.importJSON(#"[{"number": "A1", "lines": [{"sku": "pen", "quantity": 1}, {"sku": "ink", "quantity": 2}]}]"#, plan: plan).get()
        let summary = try store.importJSON(
            #"[{"number": "A1", "lines": [{"sku": "pen", "quantity": 1}]}, {"number": "A3", "lines": [{"sku": "x", "quantity": "bad"}]}]"#,
            plan: plan, options: ImportOptions(skipInvalid: true)
        ).get()
        #expect(summary.skippedRecords == 1)
        #expect(deleted(summary, "Line") == 1)
        #expect(try store.select("SELECT owner_number, sku FROM lines") == [["A1", "pen"]])
    }

    @Test(arguments: StoreKind.testable)
    func priceTiersKeyedByNameAreOwnedInTheMembersOrder(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(
            kind,
            """
            records at $[*] as Product
            entity Product
              key id
              id : Int
              tiers <- price_tiers{*} : [Tier]
            entity Tier owned
              name <- $key : String
              price : Int
            """)
        _ = try store.importJSON(#"[{"id": 1, "price_tiers": {"gold": {"price": 5}, "silver": {"price": 3}}}]"#, plan: plan).get()
        #expect(
            try store.select("SELECT owner_id, position, name, price FROM tiers ORDER BY position") == [
                ["1", "0", "gold", "5"], ["1", "1", "silver", "3"],
            ])
    }

    @Test(arguments: StoreKind.testable)
    func aLoneOwnedObjectIsReplacedInPlaceAndDeletedWhenNull(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(kind, contactsMap)
        _ = try store.importJSON(#"{"people": [{"id": 1, "name": "Ann", "home": {"city": "Oslo"}}]}"#, plan: plan).get()
        let moved = try store.importJSON(#"{"people": [{"id": 1, "name": "Ann", "home": {"city": "Rome"}}]}"#, plan: plan).get()
        #expect(moved.counts(of: "Home") == [0, 1, 0, 0])
        #expect(moved.counts(of: "Person") == [0, 0, 1, 0])
        #expect(try store.select("SELECT owner_id, position, city FROM homes") == [["1", "0", "Rome"]])
        let cleared = try store.importJSON(#"{"people": [{"id": 1, "name": "Ann", "home": null}]}"#, plan: plan).get()
        #expect(deleted(cleared, "Home") == 1)
        #expect(cleared.deletions == [Deletions(entity: "Home", count: 1, sampleKeys: ["(1, 0)"])])
        #expect(try store.select("SELECT count(*) FROM homes") == [["0"]])
        #expect(try store.select("SELECT home_pk FROM people") == [["NULL"]])
    }

    @Test(arguments: StoreKind.testable)
    func aValueWhereAnOwnedObjectBelongsFailsTheImportAndWritesNothing(kind: StoreKind) throws {
        let (store, plan) = try storeAndPlan(kind, contactsMap)
        _ = try store.importJSON(Self.contacts, plan: plan).get()
        let before = try store.rows(plan: plan)
        guard case .failure(let failure) = store.importJSON(#"{"people": [{"id": 1, "name": "Ann", "addresses": ["1 Main St"]}]}"#, plan: plan)
        else {
            Issue.record("imported a string as an owned Address")
            return
        }
        #expect(failure.text.contains("expected an object for the owned Address, found a string"), "\(failure.text)")
        #expect(failure.text.contains("$.people[0].addresses[0]"), "\(failure.text)")
        #expect(try store.rows(plan: plan) == before)
    }
}

/// `graphimport check --sample` walks owned objects as an import drafts them.
extension SampleCheckTests {
    static let orders = """
        records at $[*] as Order
        entity Order
          key number
          number : String
          lines : [Line]
        entity Line owned
          sku : String
          quantity : Int

        """

    @Test func ownedObjectsNeedNoKeyAndTheirAttributesAreChecked() throws {
        let sample = #"[{"number":"A1","lines":[{"sku":"pen","quantity":1},{"sku":"ink","quantity":"two"}]}]"#
        let report = try check(Self.orders, sample: sample)
        #expect(report.diagnostics.count == 1)
        #expect(report.diagnostics.first?.headline.contains("$[0].lines[1].quantity") == true)
    }

    @Test func aValueWhereAnOwnedObjectBelongsIsAFinding() throws {
        let report = try check(Self.orders, sample: #"[{"number":"A1","lines":["pen"]}]"#)
        #expect(
            report.diagnostics.map(\.headline) == [
                "test.map:5:3: warning: no element of 'lines' (Order.lines) fits the map: 1 of 1 fail: expected an object for the owned Line, found a string (first: record 0 at line 1, column 2, $[0].lines[0])"
            ])
    }
}

/// Export writes owned objects back inside their owner, in their order, and nothing of their key.
@Suite("owned entities: export")
struct OwnedEntityExportTests {
    @Test(arguments: StoreKind.testable)
    func theExportNestsOwnedObjectsAndImportsBackToTheSameRows(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: contactsMap)
        try fixture.importJSON(OwnedEntityTests.contacts)
        let exported = try fixture.export()
        #expect(exported.contains(#""addresses":[{"street":"1 Main St","city":"Oslo","type":"home"},{"street":"2 Side St","city":"Bergen","type":null}]"#))
        #expect(!exported.contains("owner_id") && !exported.contains("position"))
        let copy = try MappedStore(kind, map: contactsMap)
        try copy.importJSON(exported)
        let rows = "SELECT owner_id, position, street, city, kind FROM addresses ORDER BY owner_id, position"
        #expect(try copy.select(rows) == fixture.select(rows))
        #expect(try copy.select("SELECT owner_id, city FROM homes") == [["1", "Oslo"]])
    }

    @Test(arguments: StoreKind.testable)
    func atDepthZeroOwnedObjectsAreStillWrittenWhole(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: contactsMap)
        try fixture.importJSON(OwnedEntityTests.contacts)
        var request = ExportRequest()
        request.depth = 0
        let exported = try fixture.export(request)
        #expect(exported.contains(#""home":{"city":"Oslo"}"#))
    }
}

/// The read API follows an owned list in its order, and deletes owned objects with their owner.
@Suite("owned entities: read API")
struct OwnedEntityReadTests {
    @Test(arguments: StoreKind.testable)
    func relatedGivesTheOwnedObjectsInTheFeedsOrder(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: contactsMap)
        try fixture.importJSON(OwnedEntityTests.contacts)
        let graph = try ObjectGraph(store: fixture.store.location, plan: fixture.plan)
        let ann = try #require(try graph.object("Person", key: 1))
        #expect(try ann.related("addresses").map { try $0.string("street") } == ["1 Main St", "2 Side St"])
        #expect(try ann.relatedObject("home")?.string("city") == "Oslo")
    }

    @Test(arguments: StoreKind.testable)
    func deletingTheOwnerDeletesItsOwnedObjects(_ kind: StoreKind) throws {
        let store = try MappedStore(kind, map: contactsMap)
        try store.importJSON(OwnedEntityTests.contacts)
        let graph = try ObjectGraph(store: store.store.location, plan: store.plan)
        let ann = try #require(try graph.object("Person", key: 1))
        let deletions = try graph.delete(ann)
        #expect(Set(deletions.map(\.entity)) == ["Person", "Address", "Phone", "Home"])
        #expect(try store.select("SELECT owner_id FROM addresses") == [["2"]])
        #expect(try store.value("SELECT count(*) FROM phones") == "0")
        #expect(try store.value("SELECT count(*) FROM homes") == "0")
        #expect(try store.value("SELECT count(*) FROM graphimport_deleted WHERE entity IS NOT NULL") == String(deletions.map(\.count).reduce(0, +)))
    }
}
