import GraphImport
import Testing

/// `check --sample` reads `$index` as an import does: the position of the record or element.
extension SampleCheckTests {
    @Test func sampleCheckReadsPositionsOfRecordsAndElements() throws {
        let map = """
            records at orders[*] as Order
            entity Order
              key id
              id : Int
              rank <- $index : Int
              lines : [Line] unkeyed skip
            entity Line
              key orderId, position
              orderId <- @parent.id : Int
              position <- $index : Int
              sku : String
            """
        let fits = try check(map, sample: #"{"orders": [{"id": 7, "lines": [{"sku": "a"}, {"sku": "b"}]}, {"id": 8, "lines": []}]}"#)
        #expect(fits.records == 2)
        #expect(fits.diagnostics.isEmpty, "\(fits.diagnostics.map(\.headline))")
    }
}
