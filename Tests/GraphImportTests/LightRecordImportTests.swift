import Testing

@testable import GraphImport
@testable import GraphImportStoreTestSupport

/// Light records (`LightRecord`, step 3 of docs/unchanged-objects-plan.md) on SQLite with digests
/// on: a record whose objects are all unchanged is kept with its keys and digests alone; one with
/// an object that differs is drafted by the writer and written, the store as a drafted run leaves it.
@Suite("Light records")
struct LightRecordImportTests {
    static var lightOptions: ImportOptions {
        var options = ImportOptions()
        options.handsOverLight = .always
        return options
    }

    /// Light records come from the slot table: a build that drafts from trees
    /// (`GRAPHIMPORT_TREE_DRAFTING`) has none.
    @Test(.enabled(if: ImportOptions().readsSlotTable))
    func anUnchangedFeedIsKeptLightAndAChangedRecordIsWritten() throws {
        let light = try MappedStore(.sqlite, map: ContentDigestImportTests.map)
        let drafted = try MappedStore(.sqlite, map: ContentDigestImportTests.map)
        var never = ImportOptions()
        never.handsOverLight = .never
        for store in [light, drafted] { try store.importJSON(ContentDigestImportTests.feed) }
        let again = try light.importJSON(ContentDigestImportTests.feed, options: Self.lightOptions)
        #expect(again.recordsKeptLight == 2)
        #expect(again.outcome == .unchanged)
        let changed = ContentDigestImportTests.feed.replacingOccurrences(of: #""title": "two""#, with: #""title": "deux""#)
        #expect(changed != ContentDigestImportTests.feed)
        let revised = try light.importJSON(changed, options: Self.lightOptions)
        #expect(revised.recordsKeptLight == 1)
        let reference = try drafted.importJSON(changed, options: never)
        #expect(reference.recordsKeptLight == 0)
        #expect(countsByEntity(revised) == countsByEntity(reference))
        let rows = "SELECT id, title, author_pk FROM posts ORDER BY id"
        #expect(try light.store.select(rows) == drafted.store.select(rows))
        #expect(try light.store.value("SELECT title FROM posts WHERE id = 2") == "deux")
    }
}
