import GraphImport
import GraphImportStoreTestSupport
import Testing

/// Records lines whose paths nest or overlap: every object that any records line reaches is a record.
@Suite("Nested and overlapping records lines")
struct NestedRecordsTests {
    static let entities = """
        entity A
          key id
          id : Int
        entity B
          key id
          id : Int
        """

    @Test(
        arguments: StoreKind.testable,
        [
            ("records at $ as A\nrecords at items[*] as B", #"{"id": 1, "items": [{"id": 10}, {"id": 11}]}"#, ["1"], ["10", "11"]),
            (
                "records at items[*] as A\nrecords at items[*].sub[*] as B", #"{"items": [{"id": 1, "sub": [{"id": 10}]}, {"id": 2, "sub": [{"id": 11}]}]}"#,
                ["1", "2"], ["10", "11"]
            ),
            (
                "records at items[*] as A\nrecords at items[*].snippet as B",
                #"{"items": [{"id": 1, "snippet": {"id": 10}}, {"id": 2, "snippet": {"id": 11}}]}"#,
                ["1", "2"], ["10", "11"]
            ),
            ("records at items[*].sub as B\nrecords at items[*] as A", #"{"items": [{"id": 1, "sub": {"id": 10}}]}"#, ["1"], ["10"]),
            // A `where` passes a record on to the next line of its path, as before.
            ("records at $[*] where id = 2 as B\nrecords at $[*] as A", #"[{"id": 1}, {"id": 2}]"#, ["1"], ["2"]),
            ("records at items[*] as A\nrecords at items[*] as B", #"{"items": [{"id": 1}, {"id": 2}]}"#, ["1", "2"], ["1", "2"]),
            (
                "records at items[*] where id = 1 as A\nrecords at items[*] as B\nrecords at items[*] where id = 2 as A\nrecords at items[*] as B",
                #"{"items": [{"id": 1}, {"id": 2}, {"id": 3}]}"#, ["1", "2"], ["1", "2", "3"]
            ),
            ("records at items[*] as A\nrecords at items[*?] as B", #"{"items": [{"id": 1}, {"id": 2}]}"#, ["1", "2"], ["1", "2"]),
            ("records at $[*] as A\nrecords at $ as B", #"{"id": 7}"#, ["7"], ["7"]),
            ("records at users{*} as A\nrecords at users{*}.friends[*] as B", #"{"users": {"x": {"id": 1, "friends": [{"id": 10}]}}}"#, ["1"], ["10"]),
        ])
    func everyRecordsLineDeliversItsObjects(kind: StoreKind, example: (map: String, json: String, a: [String], b: [String])) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: example.map + "\n" + Self.entities, fileName: "test.map")
        _ = try store.importJSON(example.json, plan: plan).get()
        #expect(try store.select("SELECT id FROM a ORDER BY id").map { $0[0] } == example.a)
        #expect(try store.select("SELECT id FROM bs ORDER BY id").map { $0[0] } == example.b)
    }

    @Test(arguments: StoreKind.testable)
    func theLastOccurrenceWinsAcrossNestedRecords(kind: StoreKind) throws {
        // The outer record comes first, then the records inside it: the inner occurrence is the later one.
        let map = """
            records at $ as Item
            records at items[*] as Item
            entity Item
              key id
              id : Int
              name : String
            """
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: map, fileName: "test.map")
        _ = try store.importJSON(#"{"id": 1, "name": "outer", "items": [{"id": 1, "name": "inner"}, {"id": 2, "name": "two"}]}"#, plan: plan).get()
        #expect(try store.select("SELECT id, name FROM items ORDER BY id") == [["1", "inner"], ["2", "two"]])
    }

    @Test(arguments: StoreKind.testable)
    func aNestedRecordsErrorSaysWhereInTheInput(kind: StoreKind) throws {
        let map = """
            records at $ as A
            records at items[*] as B
            entity A
              key id
              id : Int
            entity B
              key id
              id : Int
              name : String
            """
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: map, fileName: "test.map")
        let failure = store.importJSON("{\"id\": 1,\n \"items\": [{\"id\": 10}]}", plan: plan)
        guard case .failure(let error) = failure else {
            Issue.record("the import was accepted")
            return
        }
        #expect(error.text.contains("$.items[0]"))
        #expect(error.text.contains("line 2, column 12"))
        #expect(try store.tableNames().isEmpty || store.select("SELECT count(*) FROM a") == [["0"]])
    }
}

/// `check --sample` reads nested records lines as an import does.
extension SampleCheckTests {
    @Test func theRecordsInsideARecordAreCountedAndChecked() throws {
        let map = """
            records at $ as A
            records at items[*] as B
            entity A
              key id
              id : Int
            entity B
              key id
              id : Int
              name : String
            """
        let report = try check(map, sample: #"{"id": 1, "items": [{"id": 10, "name": "x"}, {"id": 11}]}"#)
        #expect(report.records == 3)
        #expect(report.diagnostics.map(\.message).contains { $0.contains("1 of 2 B objects") })
    }
}

extension NestedRecordsTests {
    @Test(
        arguments: StoreKind.testable,
        [
            ("records at $ as A\nrecords at items[*] as B", #"{"id": 1, "items": [{"id": 10}, {"id": 11}]}"#, #"{"id":1,"items":[{"id":10},{"id":11}]}"#),
            (
                "records at items[*] as A\nrecords at items[*].sub[*] as B", #"{"items": [{"id": 1, "sub": [{"id": 10}]}, {"id": 2, "sub": [{"id": 11}]}]}"#,
                #"{"items":[{"id":1,"sub":[{"id":10},{"id":11}]},{"id":2,"sub":[]}]}"#
            ),
            (
                "records at items[*] as A\nrecords at items[*].snippet as B",
                #"{"items": [{"id": 1, "snippet": {"id": 10}}, {"id": 2, "snippet": {"id": 11}}]}"#,
                #"{"items":[{"id":1,"snippet":{"id":10}},{"id":2,"snippet":{"id":11}}]}"#
            ),
        ])
    func exportWritesTheRecordsInsideRecordsWhereTheMapReadsThem(kind: StoreKind, example: (map: String, json: String, export: String)) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: example.map + "\n" + Self.entities, fileName: "test.map")
        _ = try store.importJSON(example.json, plan: plan).get()
        #expect(GraphExporter(plan: plan).caveats.isEmpty)
        let exported = try store.export(plan: plan)
        #expect(exported == example.export + "\n")
        let again = try StoreUnderTest(kind)
        _ = try again.importJSON(exported, plan: plan).get()
        #expect(try again.rows(plan: plan) == store.rows(plan: plan))
    }

    @Test(arguments: StoreKind.testable)
    func exportNamesTheRecordsItHasNoPlaceFor(_ kind: StoreKind) throws {
        // A writes `sub` itself: B's objects have no place inside A's.
        let map = """
            records at items[*] as A
            records at items[*].sub[*] as B
            entity A
              key id
              id : Int
              sub : JSON?
            entity B
              key id
              id : Int
            """
        #expect(
            GraphExporter(plan: try ImportPlan.compile(text: map, fileName: "test.map")).caveats.map(\.description) == [
                "records at items[*].sub[*]: its objects sit inside those of `records at items[*]`, where export finds no free place for them; not written"
            ])
        // No A to hold the Bs: the export says how many it leaves out.
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: "records at $[*] as A\nrecords at $[*].sub as B\n" + Self.entities, fileName: "test.map")
        _ = try store.importJSON(#"[{"id": 1, "sub": {"id": 10}}, {"id": 2, "sub": {"id": 11}}]"#, plan: plan).get()
        try store.execute("DELETE FROM a WHERE id = 2")
        let summary = try GraphExporter(plan: plan).run(storePath: store.location, request: ExportRequest(), busyTimeout: 0) { _ in }
        #expect(
            summary.unwritten.map(\.description) == [
                "records at $[*].sub: 1 objects not written: the document has one place for an object of this line, or one in each object of the line that holds them"
            ])
    }

    /// `A.sub` writes the Bs it links where `records at $[*].sub[*]` reads them.
    static let linked = """
        records at $[*] as A
        records at $[*].sub[*] as B
        entity A
          key id
          id : Int
          sub : [B]
        entity B
          key id
          id : Int
          name : String
        """
    static let linkedFeed = #"[{"id": 1, "sub": [{"id": 10, "name": "x"}, {"id": 11, "name": "y"}]}, {"id": 2, "sub": [{"id": 12, "name": "z"}]}]"#

    @Test(arguments: StoreKind.testable)
    func exportWritesTheRecordsAnOuterRelationshipLinksInsideItsObjects(kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: Self.linked, fileName: "test.map")
        _ = try store.importJSON(Self.linkedFeed, plan: plan).get()
        let exporter = GraphExporter(plan: plan)
        #expect(exporter.caveats.isEmpty)
        let collected = ExportedText()
        let summary = try exporter.run(storePath: store.location, request: ExportRequest(), busyTimeout: 0) { collected.bytes += $0 }
        #expect(summary.unwritten.isEmpty)
        let exported = String(decoding: collected.bytes, as: UTF8.self)
        #expect(exported == #"[{"id":1,"sub":[{"id":10,"name":"x"},{"id":11,"name":"y"}]},{"id":2,"sub":[{"id":12,"name":"z"}]}]"# + "\n")
        let again = try StoreUnderTest(kind)
        _ = try again.importJSON(exported, plan: plan).get()
        #expect(try again.rows(plan: plan) == store.rows(plan: plan))
    }

    @Test(arguments: StoreKind.testable)
    func exportWritesTheRecordAnOuterToOneLinksInsideItsObject(kind: StoreKind) throws {
        let map = """
            records at items[*] as A
            records at items[*].snippet as B
            entity A
              key id
              id : Int
              snippet : B?
            entity B
              key id
              id : Int
              name : String
            """
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: map, fileName: "test.map")
        _ = try store.importJSON(#"{"items": [{"id": 1, "snippet": {"id": 10, "name": "x"}}, {"id": 2, "snippet": {"id": 11, "name": "y"}}]}"#, plan: plan)
            .get()
        let exporter = GraphExporter(plan: plan)
        #expect(exporter.caveats.isEmpty)
        let collected = ExportedText()
        let summary = try exporter.run(storePath: store.location, request: ExportRequest(), busyTimeout: 0) { collected.bytes += $0 }
        #expect(summary.unwritten.isEmpty)
        let exported = String(decoding: collected.bytes, as: UTF8.self)
        let again = try StoreUnderTest(kind)
        _ = try again.importJSON(exported, plan: plan).get()
        #expect(try again.rows(plan: plan) == store.rows(plan: plan))
        // An A that links no B any more: B 11 is named, with its count.
        try store.execute("UPDATE a SET snippet_pk = NULL WHERE id = 2")
        let left = try exporter.run(storePath: store.location, request: ExportRequest(), busyTimeout: 0) { _ in }
        #expect(
            left.unwritten.map(\.description) == [
                "records at items[*].snippet: 1 objects not written: they are written inside the objects of `records at items[*]` "
                    + "that link them through A.snippet, and no written object links these"
            ])
    }

    @Test(arguments: StoreKind.testable)
    func exportCountsTheRecordsNoWrittenOuterObjectLinks(kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: Self.linked, fileName: "test.map")
        _ = try store.importJSON(Self.linkedFeed, plan: plan).get()
        let reason =
            "objects not written: they are written inside the objects of `records at $[*]` that link them through A.sub, "
            + "and no written object links these"
        // No link to B 12 any more: the export leaves it out and says so.
        let sub = plan.entities[0].toMany[0]
        try store.execute("DELETE FROM \(sub.joinTable) WHERE \(sub.targetColumn) = (SELECT pk FROM bs WHERE id = 12)")
        func unwritten(_ request: ExportRequest) throws -> [String] {
            try GraphExporter(plan: plan).run(storePath: store.location, request: request, busyTimeout: 0) { _ in }.unwritten.map(\.description)
        }
        #expect(try unwritten(ExportRequest()) == ["records at $[*].sub[*]: 1 \(reason)"])
        // `--depth 0` writes the linked Bs by their keys: none is written.
        #expect(try unwritten(ExportRequest(depth: 0)) == ["records at $[*].sub[*]: 3 \(reason)"])
    }

    /// Users read below owned history entries (`issues[*].history[*].author`): written inside
    /// each Change, which is written inside its Issue, so none is named as not written.
    @Test(arguments: StoreKind.testable)
    func exportWritesTheRecordsReachedThroughOwnedObjectsInsideThem(kind: StoreKind) throws {
        let map = """
            records at issues[*] as Issue
            records at issues[*].history[*].author as User
            entity Issue
              key id
              id : Int
              history <- history : [Change]
            entity Change owned
              at : String
              author <- author : User
            entity User
              key id
              id : Int
              login : String
            """
        let feed = #"""
            {"issues": [
              {"id": 1, "history": [{"at": "a", "author": {"id": 10, "login": "x"}}, {"at": "b", "author": {"id": 11, "login": "y"}}]},
              {"id": 2, "history": [{"at": "c", "author": {"id": 10, "login": "x"}}]}
            ]}
            """#
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(text: map, fileName: "test.map")
        _ = try store.importJSON(feed, plan: plan).get()
        let exporter = GraphExporter(plan: plan)
        #expect(exporter.caveats.isEmpty)
        let collected = ExportedText()
        let summary = try exporter.run(storePath: store.location, request: ExportRequest(), busyTimeout: 0) { collected.bytes += $0 }
        #expect(summary.unwritten.isEmpty)
        let exported = String(decoding: collected.bytes, as: UTF8.self)
        let again = try StoreUnderTest(kind)
        _ = try again.importJSON(exported, plan: plan).get()
        #expect(try again.rows(plan: plan) == store.rows(plan: plan))
        // No author on Issue 2's Change: User 10 is still written in Issue 1's; and when
        // the Change of User 11 has none either, User 11 alone is named.
        try store.execute("UPDATE changes SET author_pk = NULL WHERE at = 'c'")
        #expect(try exporter.run(storePath: store.location, request: ExportRequest(), busyTimeout: 0) { _ in }.unwritten.isEmpty)
        try store.execute("UPDATE changes SET author_pk = NULL WHERE at = 'b'")
        let left = try exporter.run(storePath: store.location, request: ExportRequest(), busyTimeout: 0) { _ in }
        #expect(
            left.unwritten.map(\.description) == [
                "records at issues[*].history[*].author: 1 objects not written: they are written inside the objects of `records at issues[*]` "
                    + "that link them through Issue.history, then Change.author, and no written object links these"
            ])
        // `--depth 1` writes the authors of the nested Changes by their keys: neither is written.
        let shallow = try exporter.run(storePath: store.location, request: ExportRequest(depth: 1), busyTimeout: 0) { _ in }
        #expect(shallow.unwritten.map(\.description).first?.hasPrefix("records at issues[*].history[*].author: 2 objects not written") == true)
    }
}

private final class ExportedText: @unchecked Sendable {
    var bytes: [UInt8] = []
}
