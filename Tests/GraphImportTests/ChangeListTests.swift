import GraphImport
import GraphImportStoreTestSupport
import Testing

/// `--verbose`'s list of changes (`ImportOptions.changeLimit`), field by field, on both stores.
@Suite("The list of changes")
struct ChangeListTests {
    static let map = """
        records at $[*] as Movie
        entity Movie
          key id
          id : Int
          title : String
          director <- director_id : Person?
        entity Person
          key id
          id : Int
        """

    static func verbose() -> ImportOptions {
        var options = ImportOptions()
        options.changeLimit = 10
        return options
    }

    /// A to-one the feed sets to null is a change from its target's key to NULL, and back again.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func aToOneSetToNullIsListedWithItsOldTarget(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: Self.map, batchSize: batchSize)
        try store.importJSON(#"[{"id": 1, "title": "Heat", "director_id": 7}]"#)
        let cleared = try store.importJSON(#"[{"id": 1, "title": "Heat", "director_id": null}]"#, options: Self.verbose())
        #expect(
            cleared.changes == [
                EntityChanges(
                    entity: "Movie", objects: [ObjectChange(key: "1", isNew: false, fields: [FieldChange(name: "director", old: "7", new: "NULL")])],
                    more: 0)
            ])
        #expect(try store.select("SELECT director_pk FROM movies") == [["NULL"]])
        let set = try store.importJSON(#"[{"id": 1, "title": "Heat", "director_id": 7}]"#, options: Self.verbose())
        #expect(set.changes.first?.objects.first?.fields == [FieldChange(name: "director", old: "NULL", new: "7")])
    }
}
