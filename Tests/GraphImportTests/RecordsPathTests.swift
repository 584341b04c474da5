import GraphImport
import GraphImportStoreTestSupport
import GraphImportJSON
import GraphImportSchema
import Testing

private func itemsMap(_ records: String = "records at items[*] as Item", meta: String = "") -> String {
    """
    \(meta)
    \(records)
    entity Item
      key id
      id : Int
    """
}

/// A records path that fits nothing in the input fails the import; an empty array or a null on
/// the way is an empty feed.
@Suite("Records paths that match nothing")
struct RecordsPathTests {
    @Test(arguments: StoreKind.testable)
    func renamedEnvelopeFailsNamingTheKeysFoundAndTheClosestPath(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: itemsMap())
        let error = fixture.failure(#"{"data":[{"id":1}],"meta":{"count":1}}"#)
        guard case .noRecords(let path, let message, let hint, let position)? = error else {
            Issue.record("expected noRecords, got \(String(describing: error))")
            return
        }
        #expect(path == "items[*]")
        #expect(message == "the records path `items[*]` matches nothing: the top level is an object with keys data, meta")
        #expect(hint?.hasPrefix("did you mean `data[*]`? ") == true)
        #expect(hint?.contains("`missing empty`") == true)
        #expect(position == JSONPosition(offset: 0, line: 1, column: 1))
        #expect(try fixture.holdsNoData())
        #expect(try fixture.value("SELECT outcome FROM graphimport_runs") == "failed")
        #expect(try fixture.value("SELECT error FROM graphimport_runs")?.contains("matches nothing") == true)
    }

    @Test(arguments: StoreKind.testable)
    func emptyArrayAtThePathIsAnEmptyFeed(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: itemsMap())
        let summary = try fixture.importJSON(#"{"items":[]}"#)
        #expect(summary.records == 0)
    }

    @Test(arguments: [#"{"items":null}"#, #"{"meta":1,"items":null}"#, "[]"])
    func nullOrEmptyArrayOnTheWayIsAnEmptyFeed(json: String) throws {
        for kind in StoreKind.testable {
            let fixture = try MappedStore(kind, map: itemsMap())
            #expect(try fixture.importJSON(json).records == 0)
        }
    }

    @Test(arguments: [
        (#"{"items":{"a":[{"id":1}],"b":1}}"#, "`items` is an object with keys a, b, not an array", "did you mean `items.a[*]`? "),
        (#"{"items":"none"}"#, "`items` is a string, not an array", ""),
        (#"{"items":3}"#, "`items` is a number, not an array", ""),
        (#"[{"id":1}]"#, "the top level is an array of 1 element, not an object", "did you mean `$[*]`? "),
    ])
    func pathMeetingTheWrongKindFails(json: String, found: String, guess: String) throws {
        for kind in StoreKind.testable {
            let fixture = try MappedStore(kind, map: itemsMap())
            guard case .noRecords(_, let message, let hint, _)? = fixture.failure(json) else {
                Issue.record("expected noRecords")
                return
            }
            #expect(message == "the records path `items[*]` matches nothing: " + found)
            #expect(hint == guess + "fix the `records at` line of the map")
        }
    }

    @Test(arguments: StoreKind.testable)
    func suggestsNoPathWhenNoKeyIsClose(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: itemsMap())
        guard case .noRecords(_, _, let hint, _)? = fixture.failure(#"{"a":[1],"b":[2]}"#) else {
            Issue.record("expected noRecords")
            return
        }
        #expect(hint?.hasPrefix("fix the `records at` line") == true)
    }

    @Test(arguments: StoreKind.testable)
    func deepPathNamesTheLevelWhereItStopped(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: itemsMap("records at data.children[*].data as Item"))
        guard case .noRecords(_, let message, _, let position)? = fixture.failure(#"{"data":{"children":[{"kind":"t1","dat":{"id":1}}]}}"#)
        else {
            Issue.record("expected noRecords")
            return
        }
        #expect(message == "the records path `data.children[*].data` matches nothing: `data.children[0]` is an object with keys kind, dat")
        #expect(position.column == 22)
    }

    @Test(arguments: StoreKind.testable)
    func missingEmptyMakesAnAbsentPathAnEmptyFeed(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: itemsMap("records at items[*] as Item missing empty"))
        #expect(try fixture.importJSON(#"{"kind":"youtube#searchListResponse"}"#).records == 0)
        #expect(try fixture.importJSON(#"{"items":[{"id":1}]}"#).records == 1)
    }

    @Test(arguments: StoreKind.testable)
    func missingEmptyStillRefusesTheWrongKind(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: itemsMap("records at items[*] as Item missing empty"))
        guard case .noRecords? = fixture.failure(#"{"items":{"id":1}}"#) else {
            Issue.record("expected noRecords")
            return
        }
    }

    /// Several roots serve several shapes of a feed: the import fails only when none fits.
    @Test(arguments: StoreKind.testable)
    func failsOnlyWhenNoRecordsPathFits(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: itemsMap("records at items[*], $[*] as Item"))
        #expect(try fixture.importJSON(#"[{"id":1}]"#).records == 1)
        let twoLines = try MappedStore(kind, map: itemsMap("records at items[*] as Item\nrecords at included[*] as Item"))
        #expect(try twoLines.importJSON(#"{"items":[{"id":1}]}"#).records == 1)
        guard case .noRecords(let path, _, _, _)? = twoLines.failure(#"{"data":[{"id":1}]}"#) else {
            Issue.record("expected noRecords")
            return
        }
        #expect(path == "items[*]")
    }

    @Test(arguments: StoreKind.testable)
    func dryRunThatMatchesNothingFailsAndIsRecordedAsFailed(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: itemsMap())
        guard case .noRecords? = fixture.failure(#"{"data":[]}"#, options: ImportOptions(dryRun: true)) else {
            Issue.record("expected noRecords")
            return
        }
        #expect(try fixture.value("SELECT outcome FROM graphimport_runs") == "failed")
    }

    @Test(arguments: StoreKind.testable)
    func requiredMetaThatIsAbsentFails(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: itemsMap(meta: "meta cursor <- paging.next : String"))
        let error = fixture.failure(#"{"items":[{"id":1}],"paging":{"nxt":"abc"}}"#)
        guard case .meta(let name, let message, let hint)? = error else {
            Issue.record("expected meta, got \(String(describing: error))")
            return
        }
        #expect(name == "cursor")
        #expect(message == "is required but the input has no value at paging.next: `paging` is an object with key nxt")
        #expect(hint == "did you mean `paging.nxt`? declare it optional (`: String?`) if the service may leave it out")
        #expect(try fixture.holdsNoData())
    }

    @Test(arguments: StoreKind.testable)
    func optionalMetaMayBeAbsent(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: itemsMap(meta: "meta cursor <- paging.next : String?"))
        #expect(try fixture.importJSON(#"{"items":[{"id":1}]}"#).records == 1)
    }
}
