import GraphImport
import GraphImportStoreTestSupport
import Testing

/// `$index` on both stores: elements without an id keyed by their owner and their position.
@Suite("$index on both stores")
struct ElementIndexStoreTests {
    static let map = """
        records at orders[*] as Order
        entity Order
          key id
          id : Int
          lines : [Line]
        entity Line
          key owner, position
          owner <- @parent.id : Int
          position <- $index : Int
          sku : String
        """

    static let feed = #"{"orders": [{"id": 1, "lines": [{"sku": "a"}, {"sku": "b"}, {"sku": "c"}]}, {"id": 2, "lines": [{"sku": "z"}]}]}"#

    @Test(arguments: StoreKind.testable)
    func elementsKeyedByParentAndPositionImportReimportAndShrink(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.map)
        let first = try store.importJSON(Self.feed)
        #expect(countsByEntity(first)["Line"] == [4, 0, 0, 0])
        #expect(
            try store.select("SELECT owner, position, sku FROM lines ORDER BY owner, position") == [
                ["1", "0", "a"], ["1", "1", "b"], ["1", "2", "c"], ["2", "0", "z"],
            ])
        let imported = try store.rows()
        // The same feed again changes nothing.
        let again = try store.importJSON(Self.feed)
        #expect(countsByEntity(again)["Line"] == [0, 0, 4, 0])
        #expect(countsByEntity(again)["Order"] == [0, 0, 2, 0])
        #expect(try store.rows() == imported)
        // A shorter list: order 1 holds its first line only, the first line changed in place.
        let shorter = try store.importJSON(#"{"orders": [{"id": 1, "lines": [{"sku": "A"}]}]}"#)
        #expect(countsByEntity(shorter)["Line"] == [0, 1, 0, 0])
        #expect(
            try store.select("SELECT owner, position, sku FROM lines ORDER BY owner, position") == [
                ["1", "0", "A"], ["1", "1", "b"], ["1", "2", "c"], ["2", "0", "z"],
            ])
        let links = try store.rows()[try #require(store.plan.entities[0].toMany.first?.joinTable)]
        #expect(links == ["1|1|0|0", "2|2|0|0"])
    }

    /// Records taken by `[*]` read their own position; export writes each element at its place,
    /// which imports again to the same graph.
    @Test(arguments: StoreKind.testable)
    func recordsReadTheirPositionAndExportImportsAgain(kind: StoreKind) throws {
        let map = """
            records at steps[*] as Step
            entity Step
              key position
              position <- $index : Int
              name : String
            """
        let store = try MappedStore(kind, map: map)
        try store.importJSON(#"{"steps": [{"name": "mix"}, {"name": "bake"}]}"#)
        #expect(try store.select("SELECT position, name FROM steps ORDER BY position") == [["0", "mix"], ["1", "bake"]])
        let steps = try store.store.export(plan: store.plan)
        let stepsCopy = try MappedStore(kind, map: map)
        try stepsCopy.importJSON(steps)
        #expect(try stepsCopy.rows() == store.rows(), "\(steps)")

        let orders = try MappedStore(kind, map: Self.map)
        try orders.importJSON(Self.feed)
        let exported = try orders.store.export(plan: orders.plan)
        #expect(!exported.contains("position"), "\(exported)")
        let copy = try MappedStore(kind, map: Self.map)
        try copy.importJSON(exported)
        #expect(try copy.rows() == orders.rows())
    }
}
