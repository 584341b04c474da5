import GraphImport
import GraphImportStoreTestSupport
import Testing

/// Members whose values are arrays (PyPI's `releases`, Wikidata's `claims`): an entity per member,
/// whose to-many reads the array through `$`, on both stores; a re-import changes nothing, and
/// the export imports again to the same graph.
@Suite("Members whose values are arrays")
struct ArrayMembersTests {
    static let file = """
        entity File
          key filename
          filename : String
          size : Int
        """

    /// PyPI's JSON API: `releases` maps each version to its files (none for some).
    static let pypi = """
        {"info": {"name": "requests", "version": "2.19.0"},
         "releases": {
           "2.18.4": [{"filename": "r-2.18.4.tar.gz", "size": 10}, {"filename": "r-2.18.4.whl", "size": 5}],
           "2.19.0": [{"filename": "r-2.19.0.tar.gz", "size": 12}],
           "0.1": []}}
        """

    /// An example: its map, its feed, and rows the import must hold (by entity or relationship
    /// name, `Entity` or `Entity.relationship`, each row's values as `StoreUnderTest.rows` shows them
    /// without the run columns).
    struct Example: CustomTestStringConvertible, Sendable {
        let name: String
        let map: String
        let json: String
        let expected: [String: [String]]
        /// What the export names on stderr instead of writing it (`member: reason`); the round
        /// trip is tested only without.
        var exportLimits: [String] = []
        var testDescription: String { name }
    }

    static let examples: [Example] = [
        Example(
            name: "PyPI, an entity per member through a to-many",
            map: """
                records at $ as Package
                entity Package
                  key name
                  name <- info.name : String
                  releases <- releases{*} : [Release]
                entity Release
                  key package, version
                  package <- @parent.info.name : String
                  version <- $key : String
                  files <- $ : [File]
                \(file)
                """,
            json: pypi,
            expected: [
                "Release": ["requests|0.1", "requests|2.18.4", "requests|2.19.0"],
                "Release.files": [
                    "requests|2.18.4|r-2.18.4.tar.gz|0", "requests|2.18.4|r-2.18.4.whl|1", "requests|2.19.0|r-2.19.0.tar.gz|0",
                ],
                "Package.releases": ["requests|requests|0.1|2", "requests|requests|2.18.4|0", "requests|requests|2.19.0|1"],
            ]),
        Example(
            name: "PyPI, the members as records, and records over every member's elements",
            map: """
                records at releases{*} as Release
                records at releases{*}[*] as File
                entity Release
                  key version
                  version <- $key : String
                  files <- $ : [File]
                \(file)
                """,
            json: pypi,
            expected: [
                "Release": ["0.1", "2.18.4", "2.19.0"],
                "File": ["r-2.18.4.tar.gz|10", "r-2.18.4.whl|5", "r-2.19.0.tar.gz|12"],
                "Release.files": ["2.18.4|r-2.18.4.tar.gz|0", "2.18.4|r-2.18.4.whl|1", "2.19.0|r-2.19.0.tar.gz|0"],
            ]),
        Example(
            name: "two packages, each also read whole as another entity through `$`",
            map: """
                records at $[*] as Package
                entity Package
                  key name
                  name <- info.name : String
                  about <- $ : About
                  releases <- releases{*} : [Release]
                entity About
                  key name
                  name <- info.name : String
                  summary <- info.summary : String
                entity Release
                  key package, version
                  package <- @parent.info.name : String
                  version <- $key : String
                  files <- $ : [File]
                \(file)
                """,
            json: """
                [{"info": {"name": "a", "summary": "A"}, "releases": {"1.0": [{"filename": "a.whl", "size": 1}]}},
                 {"info": {"name": "b", "summary": "B"}, "releases": {"2.0": []}}]
                """,
            expected: [
                "About": ["a|A", "b|B"],
                "Release": ["a|1.0", "b|2.0"],
                "Release.files": ["a|1.0|a.whl|0"],
            ],
            exportLimits: ["Package.about: its path is also another member's; written once, as the first"]),
        Example(
            name: "members that are arrays or objects, read through a fallback",
            map: """
                records at releases{*} as Release
                entity Release
                  key version
                  version <- $key : String
                  yanked : Bool?
                  files <- files, $ : [File]
                \(file)
                """,
            json: """
                {"releases": {"1.0": [{"filename": "a", "size": 1}],
                              "2.0": {"yanked": true, "files": [{"filename": "b", "size": 2}, {"filename": "a", "size": 1}]}}}
                """,
            expected: [
                "Release": ["1.0|NULL", "2.0|1"],
                "Release.files": ["1.0|a|0", "2.0|a|1", "2.0|b|0"],
            ]),
        Example(
            name: "polymorphic elements, chosen by a field of each",
            map: """
                records at feeds{*} as Feed
                entity Feed
                  key name
                  name <- $key : String
                  items <- $ : [Post | Note] by kind
                    "post" -> Post
                    "note" -> Note
                entity Post
                  key id
                  id : Int
                entity Note
                  key id
                  id : Int
                  text : String
                """,
            json: #"{"feeds": {"a": [{"kind": "post", "id": 1}, {"kind": "note", "id": 2, "text": "x"}], "b": [{"kind": "post", "id": 1}]}}"#,
            expected: ["Feed": ["a", "b"], "Post": ["1"], "Note": ["2|x"]]),
        Example(
            name: "owned elements, identified by their release and position",
            map: """
                records at releases{*} as Release
                entity Release
                  key version
                  version <- $key : String
                  files <- $ : [File]
                entity File owned
                  filename : String
                """,
            json: #"{"releases": {"1.0": [{"filename": "a"}, {"filename": "b"}], "2.0": [{"filename": "a"}], "3.0": []}}"#,
            expected: ["Release": ["1.0", "2.0", "3.0"], "File": ["a|1.0|0", "a|2.0|0", "b|1.0|1"]]),
        Example(
            name: "a `where` and a link attribute over each member's array",
            map: """
                records at releases{*} as Release
                entity Release
                  key version
                  version <- $key : String
                  sdists <- $ where packagetype = "sdist" : [File]
                    link uploaded <- upload_time : String
                \(file)
                """,
            json: """
                {"releases": {
                  "1.0": [{"filename": "a.tar.gz", "size": 1, "packagetype": "sdist", "upload_time": "t1"},
                          {"filename": "a.whl", "size": 2, "packagetype": "bdist_wheel", "upload_time": "t2"}],
                  "1.1": []}}
                """,
            expected: [
                "Release": ["1.0", "1.1"],
                "File": ["a.tar.gz|1"],
                "Release.sdists": ["1.0|a.tar.gz|0|t1"],
            ]),
        Example(
            name: "Wikidata, statements per property of each item",
            map: """
                records at entities{*} as Item
                entity Item
                  key id
                  id : String
                  label <- labels.en.value : String
                  claims <- claims{*} : [Claim]
                entity Claim
                  key item, property
                  item <- @parent.id : String
                  property <- $key : String
                  statements <- $ : [Statement]
                entity Statement
                  key id
                  id : String
                  rank : String
                  value <- mainsnak.datavalue.value.id : String?
                """,
            json: """
                {"entities": {"Q42": {"id": "Q42", "labels": {"en": {"value": "Douglas Adams"}},
                  "claims": {
                    "P31": [{"id": "Q42$1", "rank": "normal", "mainsnak": {"datavalue": {"value": {"id": "Q5"}}}}],
                    "P106": [{"id": "Q42$2", "rank": "normal", "mainsnak": {"datavalue": {"value": {"id": "Q36180"}}}},
                             {"id": "Q42$3", "rank": "preferred", "mainsnak": {"snaktype": "novalue"}}]}}}}
                """,
            expected: [
                "Claim": ["Q42|P106", "Q42|P31"],
                "Statement": ["Q42$1|normal|Q5", "Q42$2|normal|Q36180", "Q42$3|preferred|NULL"],
                "Claim.statements": ["Q42|P106|Q42$2|0", "Q42|P106|Q42$3|1", "Q42|P31|Q42$1|0"],
            ]),
        Example(
            name: "arrays of scalars: each element is a key, or an object read through `$`",
            map: """
                records at $ as Repo
                entity Repo
                  key id
                  id : Int
                  groups <- labels{*} : [Group]
                entity Group
                  key repo, name
                  repo <- @parent.id : Int
                  name <- $key : String
                  labels <- $ : [Label]
                entity Label
                  key name
                  name <- $ : String
                """,
            json: #"{"id": 7, "labels": {"kind": ["bug", "feature"], "area": ["docs", "bug"], "none": []}}"#,
            expected: [
                "Group": ["7|area", "7|kind", "7|none"],
                "Label": ["bug", "docs", "feature"],
                "Group.labels": ["7|area|bug|1", "7|area|docs|0", "7|kind|bug|0", "7|kind|feature|1"],
            ]),
        Example(
            name: "nested a level deeper, and one element under two members",
            map: """
                records at projects{*} as Project
                entity Project
                  key slug
                  slug <- $key : String
                  name : String
                  versions <- versions{*} : [Version]
                entity Version
                  key project, number
                  project <- @parent.name : String
                  number <- $key : String
                  files <- $ : [File]
                \(file)
                """,
            json: """
                {"projects": {
                  "a": {"name": "a", "versions": {"1.0": [{"filename": "shared.whl", "size": 1}], "1.1": [{"filename": "shared.whl", "size": 1}, {"filename": "a-1.1.whl", "size": 2}]}},
                  "b": {"name": "b", "versions": {"1.0": []}}}}
                """,
            expected: [
                "Project": ["a|a", "b|b"],
                "Version": ["a|1.0", "a|1.1", "b|1.0"],
                "File": ["a-1.1.whl|2", "shared.whl|1"],
                "Version.files": ["a|1.0|shared.whl|0", "a|1.1|a-1.1.whl|1", "a|1.1|shared.whl|0"],
            ]),
    ]

    @Test(arguments: StoreKind.testable, examples)
    func importsReimportsAndExportsTheSameGraph(kind: StoreKind, example: Example) throws {
        let plan = try ImportPlan.compile(text: example.map, fileName: "test.map")
        let store = try StoreUnderTest(kind)
        let first = store.importJSON(example.json, plan: plan)
        guard case .success = first else {
            Issue.record("\(example.name): \(first)")
            return
        }
        let rows = try store.rows(plan: plan)
        for (name, expected) in example.expected {
            #expect(Self.rows(name, in: rows, plan: plan) == expected, "\(example.name): \(name)")
        }
        // A re-import of the same feed changes nothing.
        guard case .success(let again) = store.importJSON(example.json, plan: plan) else {
            Issue.record("\(example.name): the re-import failed")
            return
        }
        #expect(!again.changed, "\(example.name)")
        #expect(try store.rows(plan: plan) == rows, "\(example.name)")
        // The export names no limit, and imports again into an empty store to the same graph.
        let limits = GraphExporter(plan: plan).caveats.map { "\($0.member): \($0.reason)" }
        #expect(limits == example.exportLimits, "\(example.name)")
        guard limits.isEmpty else { return }
        let exported = try store.export(plan: plan)
        let copy = try StoreUnderTest(kind)
        let reimport = copy.importJSON(exported, plan: plan)
        guard case .success = reimport else {
            Issue.record("\(example.name): the export does not import: \(reimport)\n\(exported)")
            return
        }
        #expect(try copy.rows(plan: plan) == rows, "\(example.name): \(exported)")
    }

    /// The rows of an entity (`Release`) or a to-many's join table (`Release.files`), without
    /// the run columns an entity's rows end with.
    static func rows(_ name: String, in rows: [String: [String]], plan: ImportPlan) -> [String]? {
        let parts = name.split(separator: ".").map(String.init)
        guard let entity = plan.entities.first(where: { $0.name == parts[0] }) else { return nil }
        if parts.count == 2 {
            guard let relationship = entity.toMany.first(where: { $0.name == parts[1] }) else { return nil }
            return rows[relationship.joinTable]
        }
        return rows[entity.table]?.map { $0.split(separator: "|", omittingEmptySubsequences: false).dropLast(2).joined(separator: "|") }.sorted()
    }

    @Test(arguments: StoreKind.testable)
    func anArrayWhereTheEntityReadsNoArrayIsARecordError(kind: StoreKind) throws {
        let map = """
            records at releases{*} as Release
            entity Release
              key version
              version <- $key : String
              files <- files : [File]
            \(Self.file)
            """
        let plan = try ImportPlan.compile(text: map, fileName: "test.map")
        let store = try StoreUnderTest(kind)
        guard let failure = store.recordFailure(Self.pypi, plan: plan) else {
            Issue.record("an array was taken as a Release that reads no array")
            return
        }
        #expect(failure.message == "expected an object for Release, found an array")
        #expect(failure.path == #"$.releases["2.18.4"]"#)
        #expect(failure.hint?.contains("when a to-many of Release reads its elements through `$` (`items <- $ : [Item]`)") == true)
        // Nothing was written, not even the tables.
        #expect(try store.tableNames() == [])
    }

    @Test(arguments: StoreKind.testable)
    func anObjectWhereTheToManyReadsTheArrayIsARecordError(kind: StoreKind) throws {
        let map = """
            records at releases{*} as Release
            entity Release
              key version
              version <- $key : String
              files <- $ : [File]
            \(Self.file)
            """
        let plan = try ImportPlan.compile(text: map, fileName: "test.map")
        let store = try StoreUnderTest(kind)
        guard case .failure(let failure) = store.importJSON(#"{"releases": {"1.0": {"files": []}}}"#, plan: plan) else {
            Issue.record("an object was taken as an array")
            return
        }
        #expect(failure.text.contains("expected an array for the to-many 'files', found an object"), "\(failure.text)")
    }
}

extension SampleCheckTests {
    @Test func membersWhoseValuesAreArraysAreWalkedThroughTheToManyThatReadsThem() throws {
        let map = ArrayMembersTests.examples[0].map
        #expect(try check(map, sample: ArrayMembersTests.pypi).diagnostics.map(\.headline) == [])
        // A file without its size is found inside the array, at its path.
        let lacking = ArrayMembersTests.pypi.replacingOccurrences(of: #", "size": 5"#, with: "")
        #expect(
            try check(map, sample: lacking).diagnostics.map(\.headline) == [
                #"test.map:14:3: warning: 'size' (File.size) is required but 1 of 3 File objects have no such key (first: record 0 at line 1, column 1, $.releases["2.18.4"][1].size)"#
            ])
        let records = ArrayMembersTests.examples[1].map
        #expect(try check(records, sample: ArrayMembersTests.pypi).diagnostics.map(\.headline) == [])
    }

    @Test func anArrayWhereTheEntityReadsNoArrayIsFoundWithWhatMakesItOne() throws {
        let records = "records at releases{*} as Release\nentity Release\n  key version\n  version <- $key : String\n"
        let report = try check(records + "  files <- files : [File]?\n" + ArrayMembersTests.file, sample: ArrayMembersTests.pypi)
        #expect(
            report.diagnostics.map(\.headline) == [
                #"test.map:1:12: warning: 3 of 3 records at 'releases{*}' do not fit the map: expected an object for Release, found an array (first: record 0 at line 3, column 14, $.releases["2.18.4"])"#
            ])
        #expect(report.diagnostics.first?.hint?.contains("a to-many of Release reads its elements through `$` (`items <- $ : [Item]`)") == true)
        let toMany = try check(ArrayMembersTests.examples[0].map.replacingOccurrences(of: "files <- $", with: "files <- files"), sample: ArrayMembersTests.pypi)
        #expect(toMany.diagnostics.first?.hint?.contains("a to-many of Release reads its elements through `$`") == true)
    }
}
