import GraphImport
import GraphImportStoreTestSupport
import Testing

/// What `--depth` cuts: objects past it are written by their key, except those nothing else can
/// stand for.
@Suite("Export: objects past --depth")
struct ExportDepthTests {
    /// PyPI's releases: each Release is an array (`files <- $`), keyed by where it sits (its
    /// member's name and its package); the files are records of their own too.
    static let map = """
        records at $ as Package
        records at files[*] as File
        entity Package
          key name
          name <- info.name : String
          releases <- releases{*} : [Release]
        entity Release
          key package, version
          package <- @parent.info.name : String
          version <- $key : String
          files <- $ : [File]
        entity File
          key filename
          filename : String
          size : Int
        """

    static let feed = """
        {"info": {"name": "requests"},
         "releases": {"2.18.4": [{"filename": "a.tar.gz", "size": 10}, {"filename": "b.whl", "size": 5}], "0.1": []},
         "files": [{"filename": "c.zip", "size": 1}]}
        """

    @Test(arguments: StoreKind.testable)
    func anObjectThatIsAnArrayIsWrittenWholePastTheDepthItsElementsByKey(kind: StoreKind) throws {
        // Written by its key, a release was `{}`, which no import takes for an array (exit 65).
        let exported = try ExportRoundTripShapeTests.expectRoundTrip(Self.map, Self.feed, kind: kind, request: ExportRequest(depth: 0))
        #expect(
            exported
                == #"{"info":{"name":"requests"},"releases":{"2.18.4":["a.tar.gz","b.whl"],"0.1":[]},"files":[{"filename":"a.tar.gz","size":10},{"filename":"b.whl","size":5},{"filename":"c.zip","size":1}]}"#
                + "\n")
    }
}
