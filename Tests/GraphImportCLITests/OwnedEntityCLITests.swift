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

    @Test func aReimportChangesNothingAndADroppedOrderTakesItsLines() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("orders.map", Self.map.replacingOccurrences(of: "\n  tiers <- price_tiers : [Tier]", with: ""))
        let store = dir.path("orders.sqlite")
        let first = dir.write("first.json", Self.first)
        #expect(runInProcess([first, "--map", map, "--store", store]).status == 0)
        let again = runInProcess([first, "--map", map, "--store", store])
        #expect(again.status == 0)
        #expect(again.stderr.contains("nothing changed"))
        #expect(again.stderr.contains("  Line           0        0          3        0"))
        let second = runInProcess([dir.write("second.json", Self.second), "--map", map, "--store", store])
        #expect(second.status == 0)
        #expect(second.stderr.contains("  Line           0        1          0        0        2"))
        #expect(second.stderr.contains("  deleted Line: ('A1', 1), ('A2', 0)"))
        #expect(try sqlite(store, "SELECT owner_number, position, sku, quantity FROM lines") == "A1|0|pen|3")
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
