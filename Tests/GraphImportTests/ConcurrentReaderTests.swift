import Foundation
@testable import GraphImport
import GraphImportJSON
import GraphImportMapping
import GraphImportSchema
import GraphImportStore
import GraphImportTestSupport
import Testing

/// The README's promise to readers: they go on reading during an import, never locked out by it,
/// and see the store as it was until the import commits. One store: SQLite's page cache and WAL
/// (PostgreSQL's readers see the last commit by its MVCC; `ExportTests` reads during a write on both).
@Suite("Readers during an import")
struct ConcurrentReaderTests {
    static let map = """
        entity Item
          key id
          id : Int
          name : String
        """

    static func feed(_ ids: Range<Int>) -> String {
        "[" + ids.map { #"{"id":\#($0),"name":"item \#($0) \#(String(repeating: "x", count: 200))"}"# }.joined(separator: ",") + "]"
    }

    static func importJSON(_ json: String, store: String, pageCacheKiB: Int? = nil) throws -> ImportSummary {
        let mapping = try MapParser.parse(
            map, fileName: "items.map", converters: ConverterCatalog.standard.signatures, validators: ValidatorCatalog.standard.signatures)
        var options = ImportOptions()
        options.pageCacheKiB = pageCacheKiB
        return try GraphImporter(plan: ImportPlan(mapping: mapping)).run(
            source: BytesSource(Array(json.utf8)), inputName: "feed.json", storePath: store, options: options)
    }

    /// A 64 KiB page cache against an import of some 10 MB: the import spills changed pages long
    /// before it commits, which with a rollback journal locks readers out until the commit.
    @Test func readersAreNeverLockedOutByABigImport() throws {
        let directory = TemporaryDirectory()
        let store = directory.path("items.sqlite")
        _ = try Self.importJSON(Self.feed(0..<10), store: store)
        let big = Self.feed(10..<40_000)
        let done = Flag()
        let failures = Capture()
        let counts = Capture()
        let reader = Thread {
            do {
                let database = try Database(path: store, options: Database.Options(create: false, readOnly: true, busyTimeout: 1))
                while !done.isSet {
                    do {
                        counts.append(try database.scalar("SELECT count(*) FROM items")?.description ?? "nil")
                    } catch {
                        failures.append("\(error)")
                    }
                }
            } catch {
                failures.append("\(error)")
            }
            done.finished()
        }
        reader.start()
        let summary = try Self.importJSON(big, store: store, pageCacheKiB: 64)
        done.set()
        done.waitForReader()
        #expect(summary.entities.first?.counts.inserted == 39_990)
        #expect(failures.lines.isEmpty, "reads failed: \(failures.lines.prefix(3))")
        // Every read saw the store before the import or after it, never half of it.
        #expect(Set(counts.lines).isSubset(of: ["10", "40000"]))
        #expect(counts.lines.contains("10"))
    }

    /// A new store has no readers yet: its first import keeps the rollback journal (each page
    /// written once, not to the log and again into the store); the next import turns it to WAL,
    /// and it stays so.
    @Test func newStoreTurnsToWriteAheadLoggingAtItsSecondImport() throws {
        let directory = TemporaryDirectory()
        let store = directory.path("items.sqlite")
        func journalMode() throws -> SQLValue? {
            try Database(path: store, options: Database.Options(create: false, readOnly: true)).scalar("PRAGMA journal_mode")
        }
        _ = try Self.importJSON(Self.feed(0..<10), store: store)
        #expect(try journalMode() == .text("delete"))
        _ = try Self.importJSON(Self.feed(0..<20), store: store)
        #expect(try journalMode() == .text("wal"))
        _ = try Self.importJSON(Self.feed(0..<30), store: store)
        #expect(try journalMode() == .text("wal"))
    }
}

/// A flag the import sets when it is done, and the reader when it has stopped.
private final class Flag: @unchecked Sendable {
    private let condition = NSCondition()
    private var value = false
    private var readerDone = false
    var isSet: Bool { condition.withLock { value } }
    func set() { condition.withLock { value = true } }
    func finished() {
        condition.withLock {
            readerDone = true
            condition.broadcast()
        }
    }
    func waitForReader() {
        condition.withLock { while !readerDone { condition.wait() } }
    }
}

/// Lines appended from another thread.
private final class Capture: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ line: String) { lock.withLock { storage.append(line) } }
    var lines: [String] { lock.withLock { storage } }
}
