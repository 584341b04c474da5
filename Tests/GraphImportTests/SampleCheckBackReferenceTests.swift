import GraphImport
import GraphImportStoreTestSupport
import Testing

/// `check --sample` counts an object without a required attribute only where an import refuses it:
/// an id-only reference inside the record that carries the full object is that object.
extension SampleCheckTests {
    static let activities = """
        records at $[*] as Activity
        entity Activity
          key id
          id : Int
          name : String
          comments : [Comment]
        entity Comment
          key id
          id : Int
          activity : Activity
        """

    @Test func anIdOnlyBackReferenceInsideTheFullObjectIsNotRequiredButAbsent() throws {
        let inside = try check(Self.activities, sample: #"[{"id": 12, "name": "Run", "comments": [{"id": 1, "activity": {"id": 12}}]}]"#)
        #expect(inside.diagnostics.map(\.headline) == [])
        // Before the full object in the record, too.
        let before = try check(
            Self.activities.replacingOccurrences(of: "  name : String\n  comments : [Comment]", with: "  comments : [Comment]\n  name : String"),
            sample: #"[{"comments": [{"id": 1, "activity": {"id": 12}}], "id": 12, "name": "Run"}]"#)
        #expect(before.diagnostics.map(\.headline) == [])
        // A reference to another activity, which no object of the record carries, is still said.
        let other = try check(Self.activities, sample: #"[{"id": 12, "name": "Run", "comments": [{"id": 1, "activity": {"id": 13}}]}]"#)
        #expect(
            other.diagnostics.map(\.headline) == [
                "test.map:5:3: warning: 'name' (Activity.name) is required but 1 of 2 Activity objects have no such key (first: record 0 at line 1, column 2, $[0].comments[0].activity.name)"
            ])
    }
}

/// What the check above says of the import, on both stores: it accepts the back-reference inside
/// the full object, and refuses a new activity without its name.
@Suite("An id-only back-reference inside the full object, imported")
struct BackReferenceImportTests {
    @Test(arguments: StoreKind.testable)
    func theImportAcceptsTheBackReferenceAndRefusesAnotherActivity(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: SampleCheckTests.activities)
        try store.importJSON(#"[{"id": 12, "name": "Run", "comments": [{"id": 1, "activity": {"id": 12}}]}]"#)
        #expect(try store.select("SELECT id, name FROM activities") == [["12", "Run"]])
        let before = try store.rows()
        #expect(throws: (any Error).self) {
            try store.importJSON(#"[{"id": 14, "name": "Swim", "comments": [{"id": 2, "activity": {"id": 13}}]}]"#)
        }
        #expect(try store.rows() == before)
    }
}
