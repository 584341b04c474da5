import GraphImport
import GraphImportSchema
import GraphImportStoreTestSupport
import Testing

/// The run's lifecycle (`ImportRun`), the same on both stores: what each outcome records in the
/// run history, what a dry run and an empty feed keep, and a failed run's record.
@Suite("One import run on both stores")
struct ImportRunTests {
    static let map = """
        records at items[*] as Item
        entity Item
          key id
          id : Int
          name : String
        """
    static let feed = #"{"items":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}"#

    static func outcomes(_ store: StoreUnderTest) throws -> [String] {
        try store.lines("SELECT \"outcome\" FROM \(InternalTable.runs) ORDER BY \"id\"")
    }

    /// The metadata's keys and types; none when the table was never made (SQLite makes it on the first `setMeta`).
    static func meta(_ store: StoreUnderTest) throws -> [String] {
        if store.kind == .sqlite, try store.lines("SELECT count(*) FROM sqlite_schema WHERE name = '\(InternalTable.meta)'") == ["0"] { return [] }
        return try store.lines("SELECT \"key\", \"type\" FROM \(InternalTable.meta) ORDER BY \"key\"")
    }

    /// The two copies of the run had drifted here: PostgreSQL saved the caller's metadata for an
    /// empty feed, SQLite dropped it. An empty feed the caller allows is a run that succeeded.
    @Test(arguments: StoreKind.testable)
    func anAllowedEmptyFeedSavesTheCallersMetadataAndSucceeds(kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: Self.map, fileName: "test.map")
        let options = ImportOptions(allowEmpty: true, setMeta: [(key: "source", value: .string("nightly"))])
        let summary = try store.importJSON("", plan: plan, options: options).get()
        #expect(summary.records == 0)
        #expect(summary.meta.map(\.key) == ["source"])
        #expect(try Self.meta(store) == ["source|string"])
        #expect(try Self.outcomes(store) == ["succeeded"])
    }

    @Test(arguments: StoreKind.testable)
    func aDryRunOfAnEmptyFeedKeepsNothingAndIsRecordedAsOne(kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: Self.map, fileName: "test.map")
        let options = ImportOptions(dryRun: true, allowEmpty: true, setMeta: [(key: "source", value: .string("nightly"))])
        _ = try store.importJSON("", plan: plan, options: options).get()
        #expect(try Self.meta(store) == [])
        #expect(try Self.outcomes(store) == ["dry-run"])
    }

    /// A feed read from a stream is compared once read: its writes roll back and the run is skipped.
    @Test(arguments: StoreKind.testable)
    func anUnchangedStreamIsRolledBackAndRecordedAsSkipped(kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: Self.map, fileName: "test.map")
        var options = ImportOptions(ifChanged: true)
        _ = try store.importJSON(Self.feed, plan: plan, options: options).get()
        options.setMeta = [(key: "seen", value: .integer(1))]
        let again = try store.importJSON(Self.feed, plan: plan, options: options).get()
        #expect(again.unchangedInput)
        #expect(try Self.meta(store) == [])
        #expect(try Self.outcomes(store) == ["succeeded", "skipped"])
        #expect(try store.lines("SELECT \"changed_run\" FROM items ORDER BY id") == ["1", "1"])
    }

    @Test(arguments: StoreKind.testable)
    func aFailedRunIsRecordedWithItsErrorAndKeepsNothing(kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: Self.map, fileName: "test.map")
        _ = try store.importJSON(Self.feed, plan: plan).get()
        let options = ImportOptions(setMeta: [(key: "seen", value: .integer(1))])
        let failed = store.importJSON(#"{"items":[{"id":3,"name":"c"},{"id":"x","name":"d"}]}"#, plan: plan, options: options)
        guard case .failure = failed else {
            Issue.record("a record whose key is not an Int was imported")
            return
        }
        #expect(try Self.meta(store) == [])
        #expect(try store.lines("SELECT id FROM items ORDER BY id") == ["1", "2"])
        #expect(try Self.outcomes(store) == ["succeeded", "failed"])
        let error = try store.lines("SELECT \"error\" FROM \(InternalTable.runs) WHERE \"outcome\" = 'failed'")
        #expect(error.count == 1 && error[0].hasPrefix("record 1 "), "\(error)")
    }
}
