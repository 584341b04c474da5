import Foundation
@testable import GraphImport
import GraphImportJSON
import GraphImportMapping
import GraphImportSchema
import GraphImportStore
import GraphImportTestSupport
import Testing

/// When an import runs `PRAGMA quick_check`: always up to a size, above it only when asked. One
/// store: SQLite's file check.
@Suite("Checking the store before an import")
struct StoreCheckTests {
    func importJSON(_ json: String, store: String, checkStore: Bool = false, quickCheckLimit: Int = Store.quickCheckLimit) throws -> ImportSummary {
        let mapping = try MapParser.parse(
            ConcurrentReaderTests.map, fileName: "items.map", converters: ConverterCatalog.standard.signatures,
            validators: ValidatorCatalog.standard.signatures)
        var options = ImportOptions()
        options.checkStore = checkStore
        options.quickCheckLimit = quickCheckLimit
        return try GraphImporter(plan: ImportPlan(mapping: mapping)).run(
            source: BytesSource(Array(json.utf8)), inputName: "feed.json", storePath: store, options: options)
    }

    /// A store whose damage is where an import of the map never reads: a table of its own.
    func damagedStore(in directory: TemporaryDirectory) throws -> String {
        let store = directory.path("items.sqlite")
        _ = try importJSON(#"[{"id":1,"name":"a"}]"#, store: store)
        let root = try { () throws -> SQLValue? in
            let database = try Database(path: store)
            try database.execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('kept')")
            return try database.scalar("SELECT rootpage FROM sqlite_schema WHERE name = 'notes'")
        }()
        guard case .integer(let page)? = root, let handle = FileHandle(forUpdatingAtPath: store) else {
            throw StoreError(extendedCode: 1, message: "no notes table")
        }
        try handle.seek(toOffset: UInt64(page - 1) * 4096)
        handle.write(Data(repeating: 0xFF, count: 4096))
        try handle.close()
        return store
    }

    @Test func aStoreAboveTheLimitIsCheckedOnlyWhenAsked() throws {
        let directory = TemporaryDirectory()
        let store = try damagedStore(in: directory)
        #expect {
            try importJSON(#"[{"id":2,"name":"b"}]"#, store: store, checkStore: true, quickCheckLimit: 0)
        } throws: { error in
            guard case ImportError.store(_, let failure) = error as! ImportError else { return false }
            return failure.kind == .corrupt
        }
        // Not asked, the big store is not read whole: the import, which never reads the damaged
        // table, goes ahead.
        let summary = try importJSON(#"[{"id":2,"name":"b"}]"#, store: store, quickCheckLimit: 0)
        #expect(summary.entities.first?.counts.inserted == 1)
    }
}
