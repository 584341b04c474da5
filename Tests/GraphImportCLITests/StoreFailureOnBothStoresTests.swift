import Foundation
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// A failure both stores can have reads the same from the command line on either: the same
/// line, the same hint, the same exit status (the library's `ImportError.store` on both).
@Suite("Store failures alike on both stores")
struct StoreFailureOnBothStoresTests {
    static let map = """
        entity Item
          key id
          id : Int
          name : String

        """

    /// The store, its map, and one import made.
    static func imported(_ kind: StoreKind) throws -> (store: StoreUnderTest, map: String, dir: TemporaryDirectory) {
        let store = try StoreUnderTest(kind)
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", Self.map)
        let first = runInProcess([dir.write("first.json", #"[{"id":1,"name":"a"}]"#), "--map", map, "--store", store.location, "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        return (store, map, dir)
    }

    @Test(arguments: StoreKind.testable)
    func aBusyStoreExits75WithOneLine(_ kind: StoreKind) throws {
        let (store, map, dir) = try Self.imported(kind)
        let feed = dir.write("more.json", #"[{"id":2,"name":"b"}]"#)
        try store.whileLocked {
            let result = runInProcess([feed, "--map", map, "--store", store.location, "--wait", "0"])
            #expect(result.status == 75, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("graphimport: error: the store "), "\(result.stderr)")
            #expect(result.stderr.contains(" is busy: another import hold"), "\(result.stderr)")
            #expect(result.stderr.hasSuffix("\nhint: retry later, or wait longer with --wait SECONDS\n"), "\(result.stderr)")
        }
        #expect(try store.lines("SELECT id FROM items ORDER BY id") == ["1"])
    }

    /// A constraint added to the store by hand (a trigger on SQLite, a CHECK on PostgreSQL) refuses
    /// a row: the data does not fit the store (65), not an I/O fault.
    @Test(arguments: StoreKind.testable)
    func aConstraintOfTheStoreExits65OnEither(_ kind: StoreKind) throws {
        let (store, map, dir) = try Self.imported(kind)
        switch kind {
        case .sqlite: try store.execute("CREATE TRIGGER no_c BEFORE INSERT ON items WHEN NEW.name = 'c' BEGIN SELECT RAISE(ABORT, 'no c here'); END")
        case .postgresql: try store.execute("ALTER TABLE items ADD CONSTRAINT no_c CHECK (name <> 'c')")
        }
        let result = runInProcess([dir.write("more.json", #"[{"id":3,"name":"c"}]"#), "--map", map, "--store", store.location])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains(" refused a row: "), "\(result.stderr)")
        #expect(result.stderr.contains("\nhint: the store has a constraint the map does not declare"), "\(result.stderr)")
        #expect(try store.lines("SELECT id FROM items ORDER BY id") == ["1"])
    }
}
