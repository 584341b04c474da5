import Foundation
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// The converters users asked for (issue 19, item 7), through the built binary and read back from
/// either store. Expected values were computed from the JSON with python3's datetime and bytes.hex().
@Suite("Converters end to end")
struct ConverterEndToEndTests {
    static let map = """
        records at $[*]
        entity Device table devices
          key id
          id : Int
          active : Bool | yesNo
          seenAt <- seen_us : Date | epochMicros
          loggedAt <- logged_ns : Date | epochNanos
          modelYear <- model_year : Date | date("yyyy")
          released : Date | date("yyyy-MM")
          stamp : Date | iso8601
          photo : Data? | base64
          note : Data? | utf8
          legacy : Data?
          edited : Date? | nullIfFalse | epochSeconds

        """

    static let feed = """
        [
          {"id": 1, "active": "Yes", "seen_us": 1453580385123456, "logged_ns": "1453580385123456789",
           "model_year": "2011", "released": "2011-04", "stamp": "20110422T133348.123+0200",
           "photo": "aGk=", "note": "aGk=", "legacy": "aGk=", "edited": false},
          {"id": 2, "active": "OFF", "seen_us": "-1", "logged_ns": 1453580385123999999,
           "model_year": "1999", "released": "1999-12", "stamp": "20110422",
           "photo": null, "note": "héllo", "legacy": null, "edited": 1595068400.5}
        ]
        """

    @Test(arguments: StoreKind.testable)
    func newConvertersStoreWhatTheFeedMeans(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let result = try runBinary([dir.write("devices.json", Self.feed), "--map", dir.write("devices.map", Self.map), "--store", store.location])
        #expect(result.status == 0, "\(result.stderr)")
        EndToEnd.expectRows(
            store,
            [
                ("SELECT active, seen_at, logged_at FROM devices WHERE id = 1", "1|2016-01-23T20:19:45.123Z|2016-01-23T20:19:45.123Z"),
                // -1 µs rounds toward the past; ...123999999 ns stays in its millisecond.
                ("SELECT active, seen_at, logged_at FROM devices WHERE id = 2", "0|1969-12-31T23:59:59.999Z|2016-01-23T20:19:45.123Z"),
                (
                    "SELECT model_year, released FROM devices ORDER BY id",
                    "2011-01-01T00:00:00.000Z|2011-04-01T00:00:00.000Z\n1999-01-01T00:00:00.000Z|1999-12-01T00:00:00.000Z"
                ),
                ("SELECT stamp FROM devices ORDER BY id", "2011-04-22T11:33:48.123Z\n2011-04-22T00:00:00.000Z"),
                // The same text "aGk=" as base64 ("hi"), as UTF-8, and without a converter (base64).
                ("SELECT photo, note, legacy FROM devices WHERE id = 1", "\\x6869|\\x61476b3d|\\x6869"),
                ("SELECT photo, note FROM devices WHERE id = 2", "NULL|\\x68c3a96c6c6f"),
                ("SELECT id, edited FROM devices ORDER BY id", "1|NULL\n2|2020-07-18T10:33:20.500Z"),
            ])
    }

    @Test(arguments: StoreKind.testable)
    func aWordYesNoDoesNotKnowFailsTheImportNamingIt(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let feed = dir.write("devices.json", Self.feed.replacingOccurrences(of: "\"OFF\"", with: "\"nope\""))
        let result = try runBinary([feed, "--map", dir.write("devices.map", Self.map), "--store", store.location])
        #expect(result.status == 65)
        #expect(result.stderr.contains("Device.active"), "\(result.stderr)")
        #expect(result.stderr.contains("'nope' is not a boolean (expected yes, no, y, n, on, off, t, f, true, false, 1 or 0)"), "\(result.stderr)")
        #expect(try store.holdsNoData())
    }

    // No store: `check` reads the map alone.
    @Test func checkWarnsOfADataAttributeThatDoesNotSayWhichBytesItMeans() {
        let dir = TemporaryDirectory()
        let map = dir.write("devices.map", Self.map)
        let check = runInProcess(["check", "--map", map])
        #expect(check.status == 0)
        #expect(check.stdout == "\(map): ok: 1 entity (Device)\n")
        // `legacy` only: `photo` says `| base64`, `note` says `| utf8`.
        #expect(
            check.stderr == """
                \(map):13:3: warning: 'Device.legacy' is Data without a converter: its text is read as base64
                 13 |   legacy : Data?
                    |   ^
                help: write `| base64` to say so, or `| utf8` to store the text's own UTF-8 bytes

                """)
        let explicit = dir.write("explicit.map", Self.map.replacingOccurrences(of: "legacy : Data?", with: "legacy : Data? | base64"))
        let quiet = runInProcess(["check", "--map", explicit])
        #expect(quiet.status == 0)
        #expect(quiet.stderr == "")
    }

    @Test func checkRefusesADatePatternWithATimeButNoDay() {
        let dir = TemporaryDirectory()
        let map = dir.write("devices.map", Self.map.replacingOccurrences(of: "date(\"yyyy-MM\")", with: "date(\"yyyy-MM HH:mm\")"))
        let check = runInProcess(["check", "--map", map])
        #expect(check.status == 78)
        #expect(check.stderr.contains("\(map):9:21: error: date format 'yyyy-MM HH:mm' has a time but no day (dd)"), "\(check.stderr)")
    }

    @Test func checkSuggestsTheConverterForAMisspelling() {
        let dir = TemporaryDirectory()
        let map = dir.write("devices.map", Self.map.replacingOccurrences(of: "| epochMicros", with: "| epochMicro"))
        let check = runInProcess(["check", "--map", map])
        #expect(check.status == 78)
        #expect(check.stderr.contains("unknown converter 'epochMicro'"), "\(check.stderr)")
        #expect(check.stderr.contains("did you mean 'epochMicros'?"), "\(check.stderr)")
    }
}
