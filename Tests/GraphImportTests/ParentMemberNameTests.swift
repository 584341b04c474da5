import GraphImport
import GraphImportStoreTestSupport
import Testing

/// `@parent.$key`: the name of the member the parent was taken from, for objects inside it, and
/// for the elements of a member's array above all (PyPI's files, keyed by their release).
@Suite("@parent.$key: the parent's member name")
struct ParentMemberNameTests {
    static let map = """
        records at $ as Package
        entity Package
          key name
          name <- info.name : String
          releases <- releases{*} : [Release]
        entity Release
          key version
          version <- $key : String
          files <- $ : [File]
        entity File
          key version, filename
          version <- @parent.$key : String
          filename : String
          size : Int
        """

    /// One file name under two releases: two files, each keyed by its release's member name.
    static let feed = """
        {"info": {"name": "requests"},
         "releases": {"1.0": [{"filename": "r.tar.gz", "size": 1}], "2.0": [{"filename": "r.tar.gz", "size": 2}, {"filename": "r.whl", "size": 3}], "0.1": []}}
        """

    @Test(arguments: StoreKind.testable)
    func anElementOfAMembersArrayIsKeyedByThatMembersName(kind: StoreKind) throws {
        let plan = try ImportPlan.compile(text: Self.map, fileName: "test.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(Self.feed, plan: plan).get()
        #expect(
            try store.select("SELECT version, filename, size FROM files ORDER BY version, filename") == [
                ["1.0", "r.tar.gz", "1"], ["2.0", "r.tar.gz", "2"], ["2.0", "r.whl", "3"],
            ])
        // The export writes each file inside its release's array, which gives it the name again.
        let exported = try ExportRoundTripShapeTests.expectRoundTrip(Self.map, Self.feed, kind: kind)
        #expect(
            exported.contains(
                #""releases":{"1.0":[{"filename":"r.tar.gz","size":1}],"2.0":[{"filename":"r.tar.gz","size":2},{"filename":"r.whl","size":3}],"0.1":[]}"#))
    }

    @Test(arguments: StoreKind.testable)
    func anElementWhoseParentNoMemberNamedLacksIt(kind: StoreKind) throws {
        // The package's own files: their parent is the record itself, taken from no member.
        let map = Self.map.replacingOccurrences(of: "[Release]\n", with: "[Release]\n  urls : [File]\n")
        let plan = try ImportPlan.compile(text: map, fileName: "test.map")
        let store = try StoreUnderTest(kind)
        let result = store.importJSON(#"{"info": {"name": "r"}, "releases": {}, "urls": [{"filename": "a", "size": 1}]}"#, plan: plan)
        guard case .failure(let failure) = result else {
            Issue.record("the import took a file without its key")
            return
        }
        #expect(failure.text == "record 0 (line 1, column 1): File.version: the object has no '@parent.$key', the key of File (at $.urls[0])")
    }
}

extension SampleCheckTests {
    @Test func aParentsMemberNameIsFoundForEachElementOfItsArray() throws {
        #expect(try check(ParentMemberNameTests.map, sample: ParentMemberNameTests.feed).diagnostics.map(\.headline) == [])
    }
}
