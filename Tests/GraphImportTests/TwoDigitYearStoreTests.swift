import GraphImport
import GraphImportStoreTestSupport
import Testing

/// `date("…yy")` on both stores: the pivot (69–99 are 19xx, 00–68 are 20xx) decides the stored
/// instant, and export writes the two digits that import again to the same graph.
@Suite("Two-digit years on both stores")
struct TwoDigitYearStoreTests {
    static let map = """
        records at $[*] as Card
        entity Card
          key id
          id : Int
          expires : Date | date("dd/MM/yy")
        """

    @Test(arguments: StoreKind.testable)
    func yearsEitherSideOfThePivotStoreAndExportBack(kind: StoreKind) throws {
        let feed = #"[{"id":1,"expires":"31/12/68"},{"id":2,"expires":"01/01/69"},{"id":3,"expires":"01/01/00"},{"id":4,"expires":"31/12/99"}]"#
        let store = try MappedStore(kind, map: Self.map)
        try store.importJSON(feed)
        #expect(
            try store.select("SELECT id, expires FROM cards ORDER BY id") == [
                ["1", "2068-12-31T00:00:00.000Z"], ["2", "1969-01-01T00:00:00.000Z"], ["3", "2000-01-01T00:00:00.000Z"],
                ["4", "1999-12-31T00:00:00.000Z"],
            ])
        let exported = try store.store.export(plan: store.plan)
        #expect(exported.contains(#""expires":"31/12/68""#) && exported.contains(#""expires":"01/01/69""#), "\(exported)")
        let again = try MappedStore(kind, map: Self.map)
        try again.importJSON(exported)
        #expect(try again.rows() == store.rows())
        // The same feed again changes nothing.
        let summary = try store.importJSON(feed)
        #expect(countsByEntity(summary)["Card"] == [0, 0, 4, 0])
    }
}
