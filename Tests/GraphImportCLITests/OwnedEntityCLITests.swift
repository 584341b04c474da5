import GraphImportSchema
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// Orders whose lines have no id, imported from the command line as a shop's API sends them.
@Suite("Command line: owned objects without a key")
struct OwnedEntityCLITests {
    static let map = """
        records at orders[*] as Order
        entity Order
          key number
          number : String
          lines : [Line]
          delete missing
        entity Line owned
          sku : String
          quantity : Int
          tiers <- price_tiers : [Tier]
        """

    static let first = #"""
        {"orders": [{"number": "A1", "lines": [{"sku": "pen", "quantity": 1}, {"sku": "ink", "quantity": 2}]},
                    {"number": "A2", "lines": [{"sku": "pen", "quantity": 1}]}]}
        """#
    static let second = #"{"orders": [{"number": "A1", "lines": [{"sku": "pen", "quantity": 3}]}]}"#

    @Test(arguments: StoreKind.testable)
    func aReimportChangesNothingAndADroppedOrderTakesItsLines(kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("orders.map", Self.map.replacingOccurrences(of: "\n  tiers <- price_tiers : [Tier]", with: ""))
        let store = try StoreUnderTest(kind)
        let first = dir.write("first.json", Self.first)
        #expect(runInProcess([first, "--map", map, "--store", store.location]).status == 0)
        let again = runInProcess([first, "--map", map, "--store", store.location])
        #expect(again.status == 0)
        #expect(again.stderr.contains("nothing changed"))
        #expect(again.stderr.contains("  Line           0        0          3        0"))
        let second = runInProcess([dir.write("second.json", Self.second), "--map", map, "--store", store.location])
        #expect(second.status == 0)
        #expect(second.stderr.contains("  Line           0        1          0        0        2"))
        #expect(second.stderr.contains("  deleted Line: ('A1', 1), ('A2', 0)"))
        #expect(try store.select("SELECT owner_number, position, sku, quantity FROM lines") == [["A1", "0", "pen", "3"]])
    }

    /// Without `delete missing`, on both stores: a shorter list deletes the lines it no longer has.
    @Test(arguments: StoreKind.testable)
    func aReimportChangesNothingAndAShorterListDeletesItsLastLines(kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write(
            "orders.map",
            Self.map.replacingOccurrences(of: "\n  tiers <- price_tiers : [Tier]", with: "").replacingOccurrences(of: "  delete missing\n", with: ""))
        let store = try StoreUnderTest(kind)
        let first = dir.write("first.json", Self.first)
        #expect(runInProcess([first, "--map", map, "--store", store.location]).status == 0)
        let again = runInProcess([first, "--map", map, "--store", store.location])
        #expect(again.status == 0)
        #expect(again.stderr.contains("nothing changed"), "\(again.stderr)")
        #expect(again.stderr.contains("  Line           0        0          3        0"), "\(again.stderr)")
        let second = runInProcess([dir.write("second.json", Self.second), "--map", map, "--store", store.location])
        #expect(second.status == 0)
        #expect(second.stderr.contains("  Line           0        1          0        0        1"), "\(second.stderr)")
        #expect(second.stderr.contains("  deleted Line: ('A1', 1)\n"), "\(second.stderr)")
        #expect(
            try store.select("SELECT owner_number, position, sku, quantity FROM lines ORDER BY owner_number, position") == [
                ["A1", "0", "pen", "3"], ["A2", "0", "pen", "1"],
            ])
    }

    @Test func anOwnedEntityHoldingAnOwnedEntityIsAMapErrorWithACaret() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("orders.map", Self.map + "\nentity Tier owned\n  price : Int\n")
        let result = runInProcess(["check", map])
        #expect(result.status == 78)
        #expect(
            result.stderr.hasPrefix(
                """
                \(map):10:3: error: the owned entity 'Line' cannot hold the owned entity 'Tier' ('tiers'): an owned object is placed by its owner's key, and Line has none
                 10 |   tiers <- price_tiers : [Tier]
                    |   ^
                help: hold Tier in the entity that owns Line instead, store the value as JSON (`tiers : JSON`), or give Line or Tier a key and drop `owned`
                """))
    }
}

/// Order lines that name their product, from the command line on both stores: the sample check,
/// the import and its re-import, and an export that imports again to the same rows.
@Suite("Command line: owned objects that hold relationships")
struct OwnedRelationshipCLITests {
    static let map = """
        records at orders[*] as Order
        entity Order
          key number
          number : String
          lines : [Line]
        entity Line owned
          quantity : Int
          product : Product
        entity Product
          key sku
          sku : String
          name : String?
        """

    static let feed = #"""
        {"orders": [{"number": "A1", "lines": [{"quantity": 1, "product": {"sku": "pen", "name": "Pen"}}, {"quantity": 2, "product": "ink"}]},
                    {"number": "A2", "lines": [{"quantity": 5, "product": {"sku": "pen", "name": "Pen"}}]}]}
        """#

    static let rows = """
        SELECT l.owner_number, l.position, l.quantity, p.sku, p.name FROM lines l JOIN products p ON p.pk = l.product_pk
        ORDER BY l.owner_number, l.position
        """

    @Test(arguments: StoreKind.testable)
    func checkImportReimportAndExportAgree(kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("orders.map", Self.map)
        let feed = dir.write("orders.json", Self.feed)
        let check = runInProcess(["check", map, "--sample", feed, "--strict"])
        #expect(check.status == 0, "\(check.stderr)")
        let store = try StoreUnderTest(kind)
        let first = runInProcess([feed, "--map", map, "--store", store.location])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("  Line            3        0          0        0      0"), "\(first.stderr)")
        // "ink" is named by its key alone: a stub, as any relationship's target.
        #expect(first.stderr.contains("  Product         2        0          0        0      1"), "\(first.stderr)")
        let expected = [["A1", "0", "1", "pen", "Pen"], ["A1", "1", "2", "ink", "NULL"], ["A2", "0", "5", "pen", "Pen"]]
        #expect(try store.select(Self.rows) == expected)
        let again = runInProcess([feed, "--map", map, "--store", store.location])
        #expect(again.status == 0)
        #expect(again.stderr.contains("nothing changed"), "\(again.stderr)")
        let export = runInProcess(["export", "--map", map, "--store", store.location])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stderr.isEmpty, "\(export.stderr)")
        let copy = try StoreUnderTest(kind)
        let reimport = runInProcess([dir.write("export.json", export.stdout), "--map", map, "--store", copy.location])
        #expect(reimport.status == 0, "\(reimport.stderr)")
        #expect(try copy.select(Self.rows) == expected)
    }
}
