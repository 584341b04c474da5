import Foundation
@testable import GraphImport
import GraphImportJSON
import GraphImportMapping
import GraphImportSchema
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

extension MappedStore {
    /// The export of the store as text.
    func export(_ request: ExportRequest = ExportRequest()) throws(ExportError) -> String {
        try store.export(plan: plan, request)
    }

    /// The error an export fails with, or nil.
    func exportFailure(_ request: ExportRequest) -> ExportError? {
        do {
            _ = try export(request)
            return nil
        } catch { return error }
    }
}

private final class Collected: @unchecked Sendable {
    var bytes: [UInt8] = []
}

@Suite("Export: the map turned around")
struct ExportTests {
    @Test(arguments: StoreKind.testable) func writesEachAttributeAtItsPathWithItsConvertersInverted(_ kind: StoreKind) throws {
        let fixture = try MappedStore(
            kind,
            map: """
                records at $[*] as Post
                entity Post
                  key id
                  id : Int | int
                  title : String | trim
                  authorName <- author.name : String?
                  createdAt <- created_at : Date | date("EEE MMM dd HH:mm:ss Z yyyy")
                  editedAt <- edited : Date? | epochSeconds
                  sentAt <- sent_ms : Date? | epochMillis
                  point <- geo.coordinates[1] : Double?
                  body : Data? | utf8
                """)
        try fixture.importJSON(
            #"""
            [{"id": "7", "title": " Hi ", "author": {"name": "Ann"}, "created_at": "Wed Dec 09 19:40:11 +0000 2015",
              "edited": 1449690011.5, "sent_ms": "1449690011827", "geo": {"coordinates": [1, 2.5]}, "body": "a\"b"},
             {"id": 8, "title": "x", "author": {"name": null}, "created_at": "Thu Jan 01 00:00:00 +0000 1970", "edited": null}]
            """#)
        #expect(
            try fixture.export() == #"""
                [{"id":7,"title":"Hi","author":{"name":"Ann"},"created_at":"Wed Dec 09 19:40:11 +0000 2015","edited":1449690011.5,"sent_ms":1449690011827,"geo":{"coordinates":[null,2.5]},"body":"a\"b"},{"id":8,"title":"x","author":{"name":null},"created_at":"Thu Jan 01 00:00:00 +0000 1970","edited":null,"sent_ms":null,"geo":{"coordinates":[null,null]},"body":null}]

                """#)
    }

    /// Every date converter reads its inverse's output back as the same instant (to the precision
    /// its text holds), over the years a date may have.
    @Test(arguments: [
        (#"date("EEE MMM dd HH:mm:ss Z yyyy")"#, 1000), (#"date("yyyy-MM-dd'T'HH:mm:ss.SSSXXX")"#, 1), (#"date("h:mm:ss a, EEEE d MMMM yyyy")"#, 1000),
        (#"date("yyyyMMdd HHmmss.SS zzz")"#, 10), (#"date("yyyy-MM-dd HH:mm:ss.SSSSS X")"#, 1), ("rfc1123", 1000), ("iso8601", 1), ("epochSeconds", 1),
        ("epochMillis", 1), ("epochMicros", 1), ("epochNanos", 1),
    ])
    func dateConvertersReadTheirInverseBack(_ converter: String, precision: Int64) throws {
        let text = "records at $[*] as Event\nentity Event\n  key id\n  id : Int\n  at : Date | \(converter)\n"
        let mapping = try MapParser.parse(
            text, fileName: "e.map", converters: ConverterCatalog.standard.signatures, validators: ValidatorCatalog.standard.signatures)
        let call = try #require(mapping.entities.first?.attributes.last?.converters.first)
        let convert = try ConverterCatalog.standard.compile(call)
        let inverse = try ConverterCatalog.standard.compileInverse(call)
        let instants: [Int64] = [0, -1, 999, 1_449_690_011_827, -62_167_219_200_000, 253_402_300_799_999, 951_782_400_000, 43_200_000, 86_399_999]
        for milliseconds in instants {
            let instant = milliseconds - ((milliseconds % precision) + precision) % precision
            let written = inverse.map { $0(.date(Timestamp(milliseconds: instant))) } ?? .string(Coercion.isoText(Timestamp(milliseconds: instant)))
            let json: Value =
                switch written {
                case .string(let text): .json(.string(text))
                default: written
                }
            #expect(try convert(json) == .date(Timestamp(milliseconds: instant)), "\(converter) at \(instant): \(written)")
        }
    }

    /// A `yy` pattern writes the two digits that read back to the same year, at both ends of its
    /// window (1969–2068) and across the pivot.
    @Test func twoDigitYearsWriteTheDigitsThatReadBack() throws {
        let call = ConverterCall(name: "date", arguments: [.string("dd/MM/yy")], location: SourceLocation(line: 1, column: 1, offset: 0))
        let convert = try ConverterCatalog.standard.compile(call)
        let inverse = try #require(try ConverterCatalog.standard.compileInverse(call))
        let written: [(Int64, String)] = [
            (-31_536_000_000, "01/01/69"), (946_598_400_000, "31/12/99"), (946_684_800_000, "01/01/00"), (3_124_137_600_000, "31/12/68"),
        ]
        for (milliseconds, text) in written {
            #expect(inverse(.date(Timestamp(milliseconds: milliseconds))) == .string(text))
            #expect(try convert(.json(.string(text))) == .date(Timestamp(milliseconds: milliseconds)))
        }
    }

    @Test func epochInversesAreExactDecimals() {
        func epoch(_ milliseconds: Int64, _ digits: Int) -> Value {
            StandardConverters.epochNumber(.date(Timestamp(milliseconds: milliseconds)), digitsBelowUnit: digits)
        }
        func number(_ literal: String) -> Value { .json(.number(JSONNumber(literal: literal))) }
        #expect(epoch(-1500, 3) == number("-1.5"))
        #expect(epoch(7, 3) == number("0.007"))
        #expect(epoch(3000, 3) == number("3"))
        #expect(epoch(0, -6) == number("0"))
        #expect(epoch(253_402_300_799_999, -6) == number("253402300799999000000"))
    }

    static let people = """
        records at $[*] as Person
        entity Person
          key id
          id : Int
          name : String
          age : Int?
          friend : Person? inverse friendOf
          team : [Person] inverse memberOf
        """

    @Test(arguments: StoreKind.testable) func aCycleIsBrokenByWritingTheKeyOfAnObjectAlreadyOnThePath(_ kind: StoreKind) throws {
        let plan = try ImportPlan.compile(text: Self.people, fileName: "people.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(#"[{"id":1,"name":"a","friend":{"id":2,"name":"b","friend":1},"team":[{"id":2,"name":"b"},1]}]"#, plan: plan).get()
        #expect(
            try store.export(plan: plan) == #"""
                [{"id":1,"name":"a","age":null,"friend":{"id":2,"name":"b","age":null,"friend":1,"team":[]},"team":[{"id":2,"name":"b","age":null,"friend":1,"team":[]},1]},{"id":2,"name":"b","age":null,"friend":{"id":1,"name":"a","age":null,"friend":2,"team":[2,1]},"team":[]}]

                """#)
    }

    @Test(arguments: StoreKind.testable) func aStubIsWrittenByItsKeyAndNotAsARecord(_ kind: StoreKind) throws {
        let plan = try ImportPlan.compile(text: Self.people, fileName: "people.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(#"[{"id":1,"name":"a","friend":9}]"#, plan: plan).get()
        #expect(try store.export(plan: plan) == #"[{"id":1,"name":"a","age":null,"friend":9,"team":[]}]"# + "\n")
    }

    @Test(arguments: StoreKind.testable) func depthZeroWritesEveryRelationshipByItsKey(_ kind: StoreKind) throws {
        let plan = try ImportPlan.compile(text: Self.people, fileName: "people.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(#"[{"id":1,"name":"a","friend":{"id":2,"name":"b"},"team":[{"id":2,"name":"b"}]}]"#, plan: plan).get()
        #expect(
            try store.export(plan: plan, ExportRequest(entity: "Person", keys: ["1"], depth: 0))
                == #"[{"id":1,"name":"a","age":null,"friend":2,"team":[2]}]"# + "\n")
    }

    @Test(arguments: StoreKind.testable) func anEntitysObjectsAreSelectedByKeyOrConditionAsJSONLines(_ kind: StoreKind) throws {
        let plan = try ImportPlan.compile(text: Self.people, fileName: "people.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(#"[{"id":1,"name":"a","age":30},{"id":2,"name":"b","age":40},{"id":3,"name":"c"}]"#, plan: plan).get()
        #expect(
            try store.export(plan: plan, ExportRequest(entity: "Person", condition: #"age >= 30 and name != "b""#, depth: 0, jsonLines: true))
                == #"{"id":1,"name":"a","age":30,"friend":null,"team":[]}"# + "\n")
        #expect(
            try store.export(plan: plan, ExportRequest(entity: "Person", keys: ["3", "1"], depth: 0, jsonLines: true))
                == #"{"id":3,"name":"c","age":null,"friend":null,"team":[]}"# + "\n" + #"{"id":1,"name":"a","age":30,"friend":null,"team":[]}"# + "\n")
        #expect(try store.export(plan: plan, ExportRequest(entity: "Person", condition: "age is null", depth: 0)).contains(#""id":3"#))
    }

    @Test(arguments: StoreKind.testable) func aConditionsValuesAreBoundNeverExecuted(_ kind: StoreKind) throws {
        let plan = try ImportPlan.compile(text: Self.people, fileName: "people.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(#"[{"id":1,"name":"a"}]"#, plan: plan).get()
        let hostile = #"name = "x' OR 1=1; DROP TABLE person; --""#
        #expect(try store.export(plan: plan, ExportRequest(entity: "Person", condition: hostile)) == "[]\n")
        #expect(try store.export(plan: plan, ExportRequest(entity: "Person", condition: #"name = "a\" OR \"1\"=\"1""#)) == "[]\n")
        #expect(try store.export(plan: plan, ExportRequest(entity: "Person", depth: 0, jsonLines: true)).split(separator: "\n").count == 1)
    }

    @Test(arguments: StoreKind.testable) func unknownNamesAreErrorsThatSuggestTheClosest(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.people)
        try fixture.importJSON(#"[{"id":1,"name":"a"}]"#)
        let entity = try #require(fixture.exportFailure(ExportRequest(entity: "Persn")))
        #expect(entity.message == "unknown entity 'Persn'")
        #expect(entity.hint == "did you mean 'Person'?")
        let attribute = try #require(fixture.exportFailure(ExportRequest(entity: "Person", condition: "nme = 1")))
        #expect(attribute.message == "Person has no attribute or to-one relationship 'nme'")
        #expect(attribute.hint == "did you mean 'name'?")
        let toMany = try #require(fixture.exportFailure(ExportRequest(entity: "Person", condition: "team = 1")))
        #expect(toMany.message == "Person.team is a to-many relationship; a condition compares attributes and to-ones")
        let value = try #require(fixture.exportFailure(ExportRequest(entity: "Person", condition: "age = \"old\"")))
        #expect(value.message.hasPrefix(#""old" cannot be compared with Person.age (Int)"#))
        let syntax = try #require(fixture.exportFailure(ExportRequest(entity: "Person", condition: "age ~ 3")))
        #expect(syntax.message == "in the condition, expected =, !=, <, <=, > or >= at column 5, found '~ 3'")
    }

    @Test(arguments: StoreKind.testable) func aToOneIsComparedByItsTargetsKey(_ kind: StoreKind) throws {
        let plan = try ImportPlan.compile(text: Self.people, fileName: "people.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(#"[{"id":1,"name":"a","friend":{"id":2,"name":"b"}},{"id":3,"name":"c","friend":1}]"#, plan: plan).get()
        #expect(
            try store.export(plan: plan, ExportRequest(entity: "Person", condition: "friend = 2", depth: 0))
                == #"[{"id":1,"name":"a","age":null,"friend":2,"team":[]}]"#
                + "\n")
    }

    @Test(arguments: StoreKind.testable) func aPolymorphicDocumentIsWrittenInItsWrapperWithItsKindAndMeta(_ kind: StoreKind) throws {
        let fixture = try MappedStore(
            kind,
            map: """
                records at data.children[*] by kind
                  "t1" -> Comment at data
                  "t3" -> Post at data
                  "more" -> ignore
                meta after <- data.after : String?
                meta fetched <- fetched : Date | rfc1123
                entity Post
                  key name
                  extras raw
                  name : String
                  title : String
                entity Comment
                  key name
                  name : String
                  post <- link_id : Post inverse comments
                  replies <- replies.data.children : [Comment] each data inverse parent
                """)
        try fixture.importJSON(
            #"""
            {"fetched": "Sun, 06 Nov 1994 08:49:37 GMT", "data": {"after": "t3_x", "children": [
              {"kind": "t3", "data": {"name": "t3_a", "title": "T", "score": 5, "media": {"x": [1]}}},
              {"kind": "t1", "data": {"name": "t1_b", "link_id": "t3_a", "replies": {"data": {"children": [{"kind": "t1", "data": {"name": "t1_c", "link_id": "t3_a", "replies": ""}}]}}}},
              {"kind": "more", "data": {}}]}}
            """#)
        #expect(
            try fixture.export() == #"""
                {"data":{"after":"t3_x","children":[{"kind":"t1","data":{"name":"t1_c","link_id":{"name":"t3_a","title":"T","score":5,"media":{"x":[1]}},"replies":{"data":{"children":[]}}}},{"kind":"t1","data":{"name":"t1_b","link_id":{"name":"t3_a","title":"T","score":5,"media":{"x":[1]}},"replies":{"data":{"children":[{"data":{"name":"t1_c","link_id":{"name":"t3_a","title":"T","score":5,"media":{"x":[1]}},"replies":{"data":{"children":[]}}}}]}}}},{"kind":"t3","data":{"name":"t3_a","title":"T","score":5,"media":{"x":[1]}}}]},"fetched":"Sun, 06 Nov 1994 08:49:37 GMT"}

                """#)
    }

    @Test(arguments: StoreKind.testable) func keyedRecordsAreWrittenAsMembersNamedByTheirKey(_ kind: StoreKind) throws {
        let fixture = try MappedStore(
            kind,
            map: """
                records at users{*} as User
                entity User
                  key login
                  login <- $key : String
                  name : String
                """)
        try fixture.importJSON(#"{"users": {"ann": {"name": "Ann"}, "bob": {"name": "Bob"}}}"#)
        #expect(try fixture.export() == #"{"users":{"ann":{"name":"Ann"},"bob":{"name":"Bob"}}}"# + "\n")
    }

    @Test(arguments: StoreKind.testable) func linkAttributesAndWhereFieldsAreWrittenIntoEachElement(_ kind: StoreKind) throws {
        let fixture = try MappedStore(
            kind,
            map: """
                records at $[*] as Tweet
                entity Tweet
                  key id
                  id : Int
                  mentions <- entities.mentions : [User] inverse mentionedIn
                    link start <- indices[0] : Int
                    link end <- indices[1] : Int
                  quotes <- refs where type = "quoted" : Tweet? each id inverse quotedBy
                  replyTo <- refs where type = "replied_to" : Tweet? each id inverse replies
                entity User
                  key id
                  id : Int
                  name : String
                """)
        try fixture.importJSON(
            #"""
            [{"id": 1, "entities": {"mentions": [{"id": 5, "name": "e", "indices": [0, 2]}]}, "refs": [{"type": "replied_to", "id": 2}, {"type": "quoted", "id": 3}]},
             {"id": 2, "refs": []}, {"id": 3}]
            """#)
        #expect(
            try fixture.export() == #"""
                [{"id":3,"entities":{"mentions":[]},"refs":[]},{"id":2,"entities":{"mentions":[]},"refs":[]},{"id":1,"entities":{"mentions":[{"id":5,"name":"e","indices":[0,2]}]},"refs":[{"type":"quoted","id":{"id":3,"entities":{"mentions":[]},"refs":[]}},{"type":"replied_to","id":{"id":2,"entities":{"mentions":[]},"refs":[]}}]}]

                """#)
    }

    @Test func aConverterWithoutAnInverseIsNamedAndItsValueWrittenAsStored() throws {
        var converters = ConverterCatalog.standard
        converters.register(
            Converter(signature: ConverterSignature(name: "hours", parameters: [], summary: "hours as a date")) { _ throws(ConversionError) in
                { value throws(ConversionError) in
                    guard case .json(.number(let number)) = value, let hours = number.exactInt64 else { throw ConversionError("not hours") }
                    return .date(Timestamp(milliseconds: hours * 3_600_000))
                }
            })
        let map = """
            entity Shift
              key id
              id : Int
              start : Date | hours
            """
        let plan = try ImportPlan.compile(text: map, fileName: "shifts.map", converters: converters)
        let exporter = GraphExporter(plan: plan, converters: converters)
        #expect(
            exporter.caveats.map(\.description) == [
                "Shift.start: `hours` has no inverse: it declares no inverse; written as stored (ISO 8601 text)"
            ])
        #expect(GraphExporter(plan: try ImportPlan.compile(text: Self.people, fileName: "p.map")).caveats.isEmpty)
    }

    /// An import holds the write lock with changes not committed: the export neither waits (no
    /// busy timeout at all) nor sees them.
    @Test(arguments: StoreKind.testable) func anExportDuringAnImportsWriteTransactionSeesTheLastCommit(_ kind: StoreKind) throws {
        let plan = try ImportPlan.compile(text: Self.people, fileName: "people.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(#"[{"id":1,"name":"a"}]"#, plan: plan).get()
        _ = try store.importJSON(#"[{"id":2,"name":"b"}]"#, plan: plan).get()  // the second import turns a SQLite store to WAL
        try store.whileWriting("UPDATE people SET name = 'changed'; INSERT INTO people (id, name) VALUES (3, 'c')") {
            let during = try store.export(plan: plan, ExportRequest(entity: "Person", depth: 0, jsonLines: true))
            #expect(
                during == #"{"id":1,"name":"a","age":null,"friend":null,"team":[]}"# + "\n" + #"{"id":2,"name":"b","age":null,"friend":null,"team":[]}"# + "\n")
        }
        #expect(try store.export(plan: plan, ExportRequest(entity: "Person", keys: ["3"], depth: 0, jsonLines: true)).contains(#""name":"c""#))
    }

    @Test(arguments: StoreKind.testable) func anExportAskedToStopEndsInterrupted(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: Self.people)
        try fixture.importJSON(#"[{"id":1,"name":"a"},{"id":2,"name":"b"}]"#)
        let asked = Collected()
        do {
            try GraphExporter(plan: fixture.plan).run(
                storePath: fixture.store.location, request: ExportRequest(),
                shouldStop: {
                    asked.bytes.append(0); return asked.bytes.count > 1
                }
            ) { _ in }
            Issue.record("the export did not stop")
        } catch {
            guard case .interrupted = error else { throw error }
        }
        #expect(asked.bytes.count == 2)
    }

    @Test(arguments: StoreKind.testable) func recordsLinesOverOnePathShareAnArrayEachWithItsConditionsValue(_ kind: StoreKind) throws {
        let fixture = try MappedStore(
            kind,
            map: """
                records at data[*] where type = "tweet" as Tweet
                records at data[*] where type in ("user", "account") as User
                entity Tweet
                  key id
                  id : Int
                  text : String
                entity User
                  key id
                  id : Int
                  name : String
                """)
        try fixture.importJSON(#"{"data": [{"type": "tweet", "id": 1, "text": "hi"}, {"type": "account", "id": 6, "name": "v"}, {"type": "other"}]}"#)
        #expect(try fixture.export() == #"{"data":[{"id":1,"text":"hi","type":"tweet"},{"id":6,"name":"v","type":"user"}]}"# + "\n")
        #expect(GraphExporter(plan: fixture.plan).caveats.isEmpty)
    }
}
