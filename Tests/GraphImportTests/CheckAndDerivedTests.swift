import Foundation
import GraphImport
import GraphImportSchema
import GraphImportStoreTestSupport
import Testing

/// One attribute per built-in check; `handle` has the map's own message, `state` a converter first.
private let checksMap = """
    records at $[*] as Site
    entity Site
      key id
      id : Int
      homepage : URL? check url
      handle : String? check matches("^[a-z0-9_]+$") "handles are lower case"
      stars : Double? check range(0, 5)
      code : String? check length(2, 3)
      state : String? | lowercase check oneOf("open", "closed")
      title : String? check nonEmpty
    """

/// A value that fails one check: the JSON member, the error's member and message.
struct FailingValue: Sendable, CustomTestStringConvertible {
    let json: String
    let member: String
    let message: String
    var testDescription: String { json }
}

@Suite("Checks")
struct CheckTests {
    static let failing: [FailingValue] = [
        FailingValue(json: #""homepage":"mailto:a@b""#, member: "Site.homepage", message: "is not a valid URL (value: 'mailto:a@b')"),
        FailingValue(json: #""handle":"Bob""#, member: "Site.handle", message: "handles are lower case (value: 'Bob')"),
        FailingValue(json: #""stars":5.5"#, member: "Site.stars", message: "must be between 0 and 5 (value: 5.5)"),
        FailingValue(json: #""stars":-1"#, member: "Site.stars", message: "must be between 0 and 5 (value: -1.0)"),
        FailingValue(json: #""code":"a""#, member: "Site.code", message: "must be 2 to 3 characters long (value: 'a')"),
        FailingValue(json: #""code":"abcd""#, member: "Site.code", message: "must be 2 to 3 characters long (value: 'abcd')"),
        // The value is judged, and shown, after `| lowercase`.
        FailingValue(json: #""state":"Merged""#, member: "Site.state", message: "must be one of 'open', 'closed' (value: 'merged')"),
        FailingValue(json: #""title":" \t ""#, member: "Site.title", message: "must not be empty (value: ' \\t ')"),
    ]

    @Test(arguments: StoreKind.testable, failing)
    func failingValueRejectsTheRecordAndLeavesTheStoreAlone(_ kind: StoreKind, _ value: FailingValue) throws {
        let fixture = try MappedStore(kind, map: checksMap)
        try fixture.importJSON(#"[{"id":1,"title":"first"}]"#)
        let before = try fixture.rows()
        let error = fixture.recordFailure(#"[{"id":1,"title":"changed"},{"id":2,"# + value.json + "}]")
        #expect(error?.member == value.member)
        #expect(error?.message == value.message)
        #expect(error?.recordIndex == 1)
        #expect(try fixture.rows() == before)
    }

    @Test(arguments: StoreKind.testable, failing)
    func failingValueIsSkippedUnderSkipInvalid(_ kind: StoreKind, _ value: FailingValue) throws {
        let fixture = try MappedStore(kind, map: checksMap)
        var skipped: [RecordError] = []
        let summary = try fixture.importJSON(
            #"[{"id":1},{"id":2,"# + value.json + #"},{"id":3}]"#, options: ImportOptions(skipInvalid: true), onSkip: { skipped.append($0) })
        #expect(countsByEntity(summary)["Site"] == [2, 0, 0, 1])
        #expect(skipped.map(\.recordIndex) == [1])
        #expect(skipped.first?.message == value.message)
        #expect(try fixture.select("SELECT id FROM sites ORDER BY id") == [["1"], ["3"]])
    }

    @Test(arguments: StoreKind.testable)
    func errorReadsAsOneSentence(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: checksMap)
        let error = fixture.recordFailure(#"[{"id":1,"homepage":"mailto:a@b"}]"#)
        #expect(
            error?.description == "record 0 (line 1, column 2): Site.homepage: is not a valid URL (value: 'mailto:a@b') (at $[0].homepage)")
    }

    @Test(arguments: [
        #""homepage":"https://example.com/x""#, #""handle":"bob_1""#, #""stars":0"#, #""stars":5"#, #""code":"ab""#,
        #""code":"abc""#, #""state":"OPEN""#, #""title":"x""#, #""homepage":null,"stars":null,"title":null"#,
    ])
    func passingValueIsStored(_ json: String) throws {
        for kind in StoreKind.testable {
            let fixture = try MappedStore(kind, map: checksMap)
            let summary = try fixture.importJSON(#"[{"id":1,"# + json + "}]")
            #expect(countsByEntity(summary)["Site"] == [1, 0, 0, 0])
        }
    }

    /// A key given as a reference (`"tags": ["Swift"]`) becomes a stored key all the same, so its checks apply.
    @Test(arguments: StoreKind.testable)
    func checksApplyToAKeyGivenAsAReference(_ kind: StoreKind) throws {
        let fixture = try MappedStore(
            kind,
            map: """
                entity Post
                  key id
                  id : Int
                  tags : [Tag]
                entity Tag
                  key name
                  name : String check matches("^[a-z]+$")
                """)
        #expect(fixture.recordFailure(#"[{"id":1,"tags":[{"name":"Swift"}]}]"#)?.member == "Tag.name")
        let error = fixture.recordFailure(#"[{"id":1,"tags":["Swift"]}]"#)
        #expect(error?.message == "does not match ^[a-z]+$ (value: 'Swift')")
        #expect(try fixture.holdsNoData())
    }

    @Test(arguments: StoreKind.testable)
    func convertedValueIsWhatTheCheckJudgesAndWhatIsStored(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: "entity T\n  key id\n  id : Int\n  v : String | lowercase check oneOf(\"a\")")
        try fixture.importJSON(#"[{"id":1,"v":"A"}]"#)
        #expect(try fixture.value("SELECT v FROM ts") == "a")
    }
}

private let movieMap = """
    records at $[*] as Movie
    entity Movie
      key id
      id : Int
      title : String?
      releasedAt <- released : Date? | iso8601
      label : String derived "{title} ({releasedAt:yyyy})"
    """

@Suite("Derived attributes")
struct DerivedTests {
    @Test(arguments: StoreKind.testable)
    func derivedValueIsStoredAndQueryable(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: movieMap)
        try store.importJSON(#"[{"id":1,"title":"Heat","released":"1995-12-15"},{"id":2,"title":"Up","released":"2009-05-29"}]"#)
        #expect(try store.select("SELECT id, label FROM movies ORDER BY id") == [["1", "Heat (1995)"], ["2", "Up (2009)"]])
        #expect(try store.select("SELECT id FROM movies WHERE label LIKE '%(2009)'") == [["2"]])
    }

    @Test(arguments: StoreKind.testable)
    func reimportLeavesTheDerivedValueAndCountsUnchanged(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: movieMap)
        let feed = #"[{"id":1,"title":"Heat","released":"1995-12-15"}]"#
        try store.importJSON(feed)
        let summary = try store.importJSON(feed)
        #expect(countsByEntity(summary)["Movie"] == [0, 0, 1, 0])
        #expect(try store.value("SELECT label FROM movies") == "Heat (1995)")
    }

    @Test(arguments: StoreKind.testable)
    func changedInputUpdatesTheDerivedValue(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: movieMap)
        try store.importJSON(#"[{"id":1,"title":"Heat","released":"1995-12-15"}]"#)
        let summary = try store.importJSON(#"[{"id":1,"title":"Heat","released":"1996-01-01"}]"#)
        #expect(countsByEntity(summary)["Movie"] == [0, 1, 0, 0])
        #expect(try store.value("SELECT label FROM movies") == "Heat (1996)")
    }

    /// A record that changes one input and lacks the other builds the value from the stored one.
    @Test(arguments: StoreKind.testable)
    func partialRecordDerivesFromTheStoredInputs(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: movieMap)
        try store.importJSON(#"[{"id":1,"title":"Heat","released":"1995-12-15"}]"#)
        let summary = try store.importJSON(#"[{"id":1,"title":"Heat 4K"}]"#)
        #expect(try store.value("SELECT label FROM movies") == "Heat 4K (1995)")
        #expect(countsByEntity(summary)["Movie"] == [0, 1, 0, 0])
    }

    /// An earlier record of the same run gives the inputs a later one lacks, whether the writer
    /// still holds the object (one batch) or has written it; and whether the records come in one
    /// batch from the reading thread or in two (it hands them over 128 at a time).
    @Test(arguments: StoreKind.testable, [5000, 1])
    func partialRecordDerivesFromAnEarlierRecordOfTheRun(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: movieMap, batchSize: batchSize)
        let others = (10..<210).map { #"{"id":\#($0),"title":"M\#($0)","released":"2000-01-01"}"# }
        let first = [#"{"id":1,"title":"Heat","released":"1995-12-15"}"#, #"{"id":2,"title":"Up"}"#, #"{"id":1,"title":"Heat 4K"}"#]
        let last = [#"{"id":2,"released":"2009-05-29"}"#, #"{"id":1,"released":"1996-01-01"}"#]
        let summary = try store.importJSON("[" + (first + others + last).joined(separator: ",") + "]")
        #expect(try store.select("SELECT id, label FROM movies WHERE id < 10 ORDER BY id") == [["1", "Heat 4K (1996)"], ["2", "Up (2009)"]])
        #expect(countsByEntity(summary)["Movie"] == [202, 0, 0, 0])
    }

    @Test(arguments: StoreKind.testable)
    func nullInputMakesTheDerivedValueNull(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: movieMap)
        try store.importJSON(#"[{"id":1,"title":"Heat","released":"1995-12-15"}]"#)
        let summary = try store.importJSON(#"[{"id":1,"title":null}]"#)
        #expect(countsByEntity(summary)["Movie"] == [0, 1, 0, 0])
        #expect(try store.value("SELECT label FROM movies") == "NULL")
        try store.importJSON(#"[{"id":2,"title":"New"}]"#)
        #expect(try store.value("SELECT label FROM movies WHERE id = 2") == "NULL")
    }

    /// Mappings/README.md: a derived attribute "may have converters (applied to the template's text) and checks".
    @Test(arguments: StoreKind.testable)
    func derivedValueGoesThroughItsConvertersAndChecks(kind: StoreKind) throws {
        let store = try MappedStore(
            kind,
            map: """
                entity Movie
                  key id
                  id : Int
                  title : String
                  slug : String | lowercase derived "{title}-{id}"
                  short : String derived "{title}" check length(1, 5)
                """)
        try store.importJSON(#"[{"id":1,"title":"Heat"}]"#)
        #expect(try store.value("SELECT slug FROM movies") == "heat-1")
        let error = store.recordFailure(#"[{"id":2,"title":"Heat and Dust"}]"#)
        #expect(error?.member == "Movie.short")
        #expect(error?.message == "must be 1 to 5 characters long (value: 'Heat and Dust')")
        #expect(try store.value("SELECT count(*) FROM movies") == "1")
    }

    /// A stub (an object named only by its key) is inserted like any new object: its derived
    /// values are made from its key and defaults; a stored object named by its key keeps its own.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func aStubGetsItsDerivedValueAndAStoredObjectNamedByKeyKeepsIts(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(
            kind,
            map: directorStubsMap(
                person: """
                      name : String?
                      role : String default "director"
                      label : String derived "{role} {id}: {name}"
                      tag : String derived "{role} {id}"
                    """), batchSize: batchSize)
        try store.importJSON(#"[{"id":1,"director_id":7}]"#)
        #expect(try store.select("SELECT id, label, tag FROM people") == [["7", "NULL", "director 7"]])
        try store.execute("UPDATE people SET tag = 'kept'")
        let summary = try store.importJSON(#"[{"id":2,"director_id":7},{"id":3,"director_id":8},{"id":4,"director_id":8}]"#)
        #expect(try store.select("SELECT id, tag FROM people ORDER BY id") == [["7", "kept"], ["8", "director 8"]])
        #expect(countsByEntity(summary)["Person"] == [1, 0, 0, 0])
    }
}

/// A film whose `short` title is derived and checked, with a director written before the film.
private let checkedDerivedMap = """
    records at $[*] as Movie
    entity Movie
      key id
      id : Int
      title : String
      director : Person?
      short : String derived "{title}" check length(1, 5)
    entity Person
      key id
      id : Int
      name : String
    """

@Suite("A derived value its check refuses")
struct RefusedDerivedValueTests {
    static let feed = #"""
        [{"id":1,"title":"Heat","director":{"id":10,"name":"Mann"}},
         {"id":2,"title":"Heat and Dust","director":{"id":11,"name":"Ivory"}},
         {"id":3,"title":"Up","director":{"id":12,"name":"Docter"}}]
        """#

    /// The record is dropped whole (its director, written before the film was refused, too); the others are kept.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func isSkippedUnderSkipInvalidWithItsRecordAndMember(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: checkedDerivedMap, batchSize: batchSize)
        var skipped: [RecordError] = []
        let summary = try store.run(Self.feed, options: ImportOptions(skipInvalid: true), onSkip: { skipped.append($0) })
        #expect(summary.skippedRecords == 1)
        #expect(countsByEntity(summary)["Movie"] == [2, 0, 0, 1])
        #expect(countsByEntity(summary)["Person"] == [2, 0, 0, 0])
        #expect(skipped.map(\.recordIndex) == [1])
        #expect(skipped.first?.position.line == 2)
        #expect(skipped.first?.member == "Movie.short")
        #expect(skipped.first?.message == "must be 1 to 5 characters long (value: 'Heat and Dust')")
        #expect(
            skipped.first?.hint
                == "the map derives this value from the object's other values: fix those in the feed, or the attribute's template, converters or check")
        #expect(try store.select("SELECT id, short FROM movies ORDER BY id") == [["1", "Heat"], ["3", "Up"]])
        #expect(try store.select("SELECT id FROM people ORDER BY id") == [["10"], ["12"]])
    }

    /// Without `--skip-invalid` it is the record's error, naming the map's check and not Swift hooks.
    @Test(arguments: StoreKind.testable)
    func stopsTheImportAsARecordErrorOtherwise(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: checkedDerivedMap)
        let error = store.recordFailure(Self.feed)
        #expect(error?.recordIndex == 1)
        #expect(error?.path == "$[1]")
        #expect(error?.member == "Movie.short")
        #expect(error?.hint?.hasPrefix("the map derives this value") == true)
        #expect(try store.tableNames() == [])
    }

    /// An update derives from the stored values merged with the record's: refused there too, the stored row kept.
    @Test(arguments: StoreKind.testable)
    func anUpdateRefusedByTheCheckLeavesTheStoredObject(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: checkedDerivedMap)
        try store.importJSON(#"[{"id":1,"title":"Heat"}]"#)
        let before = try store.rows()
        #expect(store.recordFailure(#"[{"id":4,"title":"Up"},{"id":1,"title":"Heat 2","director":{"id":10,"name":"Mann"}}]"#) != nil)
        #expect(try store.rows() == before)
        var skipped: [RecordError] = []
        let summary = try store.run(
            #"[{"id":1,"title":"Heat 2","director":{"id":10,"name":"Mann"}},{"id":4,"title":"Up"}]"#, options: ImportOptions(skipInvalid: true),
            onSkip: { skipped.append($0) })
        #expect(skipped.map(\.member) == ["Movie.short"])
        #expect(countsByEntity(summary)["Movie"] == [1, 0, 0, 1])
        #expect(try store.select("SELECT id, title, short FROM movies ORDER BY id") == [["1", "Heat", "Heat"], ["4", "Up", "Up"]])
        #expect(try store.value("SELECT count(*) FROM people") == "0")
    }
}

private let extrasMap = """
    records at $[*] as Repo
    entity Repo
      key id
      extras unmapped
      id : Int
      name : String
      login <- owner.login : String?
      status : String default "new"
    """

/// Each repo's `unmapped` JSON, by id, decoded here: both stores hold it as the same text.
private func extras(_ fixture: MappedStore) throws -> [[String: Any]] {
    try fixture.select("SELECT unmapped FROM repos ORDER BY id").map { row in
        try JSONSerialization.jsonObject(with: Data(row[0].utf8)) as? [String: Any] ?? [:]
    }
}

@Suite("Extras")
struct ExtrasTests {
    @Test(arguments: StoreKind.testable)
    func unmappedKeysAreKeptAsJSONAndQueryable(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: extrasMap)
        try fixture.importJSON(
            #"[{"id":1,"name":"a","owner":{"login":"x","site":"s"},"stars":5,"topics":["t","u"]},{"id":2,"name":"b","stars":1}]"#)
        #expect(try extras(fixture).map { $0["stars"] as? Int } == [5, 1])
        #expect(try (extras(fixture).first?["topics"] as? [String])?[1] == "u")
        // Mapped keys are not repeated there, nor is a partly mapped nested object.
        #expect(try fixture.value("SELECT unmapped FROM repos WHERE id = 1") == #"{"stars":5,"topics":["t","u"]}"#)
    }

    @Test(arguments: StoreKind.testable)
    func summaryReportsTheExtraKeysWithHowManyObjectsHadEach(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: extrasMap)
        let summary = try fixture.importJSON(#"[{"id":1,"name":"a","stars":5,"topics":[]},{"id":2,"name":"b","stars":1},{"id":3,"name":"c"}]"#)
        #expect(summary.extrasKeys.map(\.entity) == ["Repo"])
        #expect(summary.extrasKeys.first?.keys.map { "\($0.key)=\($0.count)" } == ["stars=2", "topics=1"])
        #expect(try fixture.value("SELECT unmapped FROM repos WHERE id = 3") == "NULL")
    }

    /// An attribute without `<-` (here one with `default`) reads no key, so a key of its name is an extra.
    @Test(arguments: StoreKind.testable)
    func keyOfAnAttributeWithoutSourceIsAnExtra(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: extrasMap)
        let summary = try fixture.importJSON(#"[{"id":1,"name":"a","status":"closed"}]"#)
        #expect(summary.extrasKeys.first?.keys.map(\.key) == ["status"])
        #expect(try fixture.value("SELECT status FROM repos") == "new")
        #expect(try extras(fixture).map { $0["status"] as? String } == ["closed"])
    }

    @Test(arguments: StoreKind.testable)
    func feedWithoutExtraKeysReportsNone(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: extrasMap)
        let summary = try fixture.importJSON(#"[{"id":1,"name":"a","owner":{"login":"x"}}]"#)
        #expect(summary.extrasKeys.isEmpty)
    }
}
