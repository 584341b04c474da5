import Foundation
import GraphImportCLI
import GraphImportSchema
import GraphImportStore
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// `graphimport meta get|set|unset|list`, in-process: what a shell script sees on stdout,
/// stderr and in the exit status, and what lands in `graphimport_meta`; on both stores, but for a
/// missing store file, the store beside the map and a busy store, which are SQLite's.
@Suite("Command line, meta")
struct MetaCommandTests {
    /// One value per type: the command-line text, what `get` prints back, and SQLite's storage class.
    struct TypedValue: Sendable, CustomStringConvertible {
        var type: String
        var text: String
        var printed: String
        var storage: String
        var description: String { "\(type) \(text)" }
    }

    static let typedValues: [TypedValue] = [
        TypedValue(type: "Bool", text: "true", printed: "true", storage: "integer"),
        TypedValue(type: "Bool", text: "0", printed: "false", storage: "integer"),
        TypedValue(type: "Int", text: "-7", printed: "-7", storage: "integer"),
        // A snowflake id above 2^53: a double on the way would round it.
        TypedValue(type: "Int", text: "674674925823787009", printed: "674674925823787009", storage: "integer"),
        TypedValue(type: "Double", text: "1.5", printed: "1.5", storage: "real"),
        TypedValue(type: "Double", text: "-2e3", printed: "-2000.0", storage: "real"),
        TypedValue(type: "String", text: #"W/"5e1-abc" spaced"#, printed: #"W/"5e1-abc" spaced"#, storage: "text"),
        TypedValue(type: "String", text: "", printed: "", storage: "text"),
        TypedValue(type: "Date", text: "2024-05-01T14:00:00+02:00", printed: "2024-05-01T12:00:00.000Z", storage: "text"),
        TypedValue(type: "JSON", text: #"{"after":"t3_x","n":[1,2]}"#, printed: #"{"after":"t3_x","n":[1,2]}"#, storage: "text"),
    ]

    @Test(arguments: StoreKind.testable, typedValues)
    func setThenGetPrintsTheBareValueOfEveryType(_ kind: StoreKind, _ value: TypedValue) throws {
        let store = try StoreUnderTest(kind)
        let set = runInProcess(["meta", "set", "key", value.text, "--type", value.type, "--store", store.location])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.isEmpty && set.stderr.isEmpty)
        let get = runInProcess(["meta", "get", "key", "--store", store.location])
        #expect(get.status == 0)
        #expect(get.stdout == value.printed + "\n")
        #expect(get.stderr.isEmpty)
        let list = runInProcess(["meta", "list", "--store", store.location])
        #expect(list.stdout == "key\t\(value.type)\t\(value.printed)\n")
        // The table keeps its own lower-case names, as stores made before the map's names were shown.
        let stored = try #require(MetaType(name: value.type)).rawValue
        if kind == .sqlite {
            #expect(try sqlite(store.location, "SELECT type || ' ' || typeof(value) FROM graphimport_meta WHERE key = 'key'") == "\(stored) \(value.storage)")
        } else {
            #expect(try store.lines("SELECT type FROM graphimport_meta WHERE key = 'key'") == [stored])
        }
    }

    /// A short option is a letter, so `-7` can only be a value; `--` is not needed, but works.
    @Test(arguments: StoreKind.testable, [("-7", "Int", "-7"), ("-2.5", "Double", "-2.5"), ("-.5", "Double", "-0.5"), ("-", "String", "-")])
    func negativeNumberIsAValueNotAnOption(kind: StoreKind, value: (text: String, type: String, printed: String)) throws {
        let (text, type, printed) = value
        let store = try StoreUnderTest(kind)
        let set = runInProcess(["meta", "set", "offset", text, "--type", type, "--store", store.location])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(runInProcess(["meta", "get", "offset", "--store", store.location]).stdout == printed + "\n")
        #expect(runInProcess(["meta", "set", "--store", store.location, "--type", type, "--", "again", text]).status == 0)
        #expect(runInProcess(["meta", "get", "again", "--store", store.location]).stdout == printed + "\n")
    }

    @Test(arguments: StoreKind.testable)
    func stringIsTheDefaultType(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        #expect(runInProcess(["meta", "set", "since", "42", "--store", store.location]).status == 0)
        #expect(runInProcess(["meta", "list", "--store", store.location]).stdout == "since\tString\t42\n")
    }

    @Test(arguments: StoreKind.testable)
    func setReplacesAValueOfAnotherType(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        #expect(runInProcess(["meta", "set", "n", "42", "--type", "Int", "--store", store.location]).status == 0)
        #expect(runInProcess(["meta", "set", "n", "forty-two", "--store", store.location]).status == 0)
        #expect(runInProcess(["meta", "list", "--store", store.location]).stdout == "n\tString\tforty-two\n")
    }

    @Test(arguments: StoreKind.testable)
    func getPrintsMultiLineValuesAsTheyAreButListEscapesThem(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        #expect(runInProcess(["meta", "set", "note", "a\nb\tc", "--store", store.location]).status == 0)
        #expect(runInProcess(["meta", "get", "note", "--store", store.location]).stdout == "a\nb\tc\n")
        #expect(runInProcess(["meta", "list", "--store", store.location]).stdout == "note\tString\ta\\nb\\tc\n")
    }

    @Test(arguments: StoreKind.testable)
    func missingKeyExits1WithAMessageAndPrintsNothing(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        #expect(runInProcess(["meta", "set", "etag", "x", "--store", store.location]).status == 0)
        let result = runInProcess(["meta", "get", "cursor", "--store", store.location])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "graphimport: meta key 'cursor' is not set in \(store.location)\n")
    }

    @Test func missingStoreIsAMissingKeyAndCreatesNoFile() {
        let dir = TemporaryDirectory()
        let store = dir.path("never.sqlite")
        let result = runInProcess(["meta", "get", "etag", "--store", store])
        #expect(result.status == 1)
        #expect(result.stderr == "graphimport: meta key 'etag' is not set in \(store)\n")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test(arguments: StoreKind.testable)
    func defaultIsPrintedOnlyWhenTheKeyIsMissing(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let empty = runInProcess(["meta", "get", "etag", "--default", "", "--store", store.location])
        #expect(empty.status == 0)
        #expect(empty.stdout == "\n")
        #expect(empty.stderr.isEmpty)
        #expect(runInProcess(["meta", "get", "etag", "--default=none", "--store", store.location]).stdout == "none\n")
        #expect(runInProcess(["meta", "set", "etag", #""v1""#, "--store", store.location]).status == 0)
        let set = runInProcess(["meta", "get", "etag", "--default", "none", "--store", store.location])
        #expect(set.status == 0)
        #expect(set.stdout == "\"v1\"\n")
    }

    @Test(arguments: StoreKind.testable)
    func unsetRemovesTheKeyAndAMissingKeyIsFine(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        #expect(runInProcess(["meta", "set", "cursor", "p2", "--store", store.location]).status == 0)
        let unset = runInProcess(["meta", "unset", "cursor", "--store", store.location])
        #expect(unset.status == 0)
        #expect(unset.stdout.isEmpty && unset.stderr.isEmpty)
        #expect(runInProcess(["meta", "get", "cursor", "--store", store.location]).status == 1)
        #expect(runInProcess(["meta", "unset", "cursor", "--store", store.location]).status == 0)
    }

    /// Types are shown as maps name them; the table's own lower-case names are still accepted.
    @Test(arguments: StoreKind.testable)
    func listJSONIsOneObjectSortedByKey(_ kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        for arguments in [
            ["since", "674674925823787009", "--type", "integer"], ["etag", #"W/"x""#], ["done", "true", "--type", "bool"],
            ["rate", "0.25", "--type", "double"], ["at", "2024-05-01T12:00:00Z", "--type", "date"], ["raw", #"[1,"a"]"#, "--type", "json"],
        ] {
            #expect(runInProcess(["meta", "set"] + arguments + ["--store", store.location]).status == 0)
        }
        let json = runInProcess(["meta", "list", "--json", "--store", store.location])
        #expect(json.status == 0)
        #expect(
            json.stdout
                == #"{"at":{"type":"Date","value":"2024-05-01T12:00:00.000Z"},"done":{"type":"Bool","value":"true"},"#
                + #""etag":{"type":"String","value":"W/\"x\""},"rate":{"type":"Double","value":"0.25"},"#
                + #""raw":{"type":"JSON","value":"[1,\"a\"]"},"since":{"type":"Int","value":"674674925823787009"}}"# + "\n")
        let text = runInProcess(["meta", "list", "--store", store.location])
        #expect(
            text.stdout == """
                at\tDate\t2024-05-01T12:00:00.000Z
                done\tBool\ttrue
                etag\tString\tW/"x"
                rate\tDouble\t0.25
                raw\tJSON\t[1,"a"]
                since\tInt\t674674925823787009

                """)
    }

    @Test func listOfAStoreWithoutMetadataIsEmpty() {
        let dir = TemporaryDirectory()
        let store = dir.path("none.sqlite")
        let text = runInProcess(["meta", "list", "--store", store])
        #expect(text.status == 0)
        #expect(text.stdout.isEmpty)
        #expect(runInProcess(["meta", "list", "--json", "--store", store]).stdout == "{}\n")
    }

    @Test func unknownTypeIsAUsageError() throws {
        let dir = TemporaryDirectory()
        let store = dir.path("feed.sqlite")
        let result = runInProcess(["meta", "set", "n", "1", "--type", "Number", "--store", store])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        let usage =
            "graphimport meta (get <key> [--default <value>] | set <key> <value> [--type <type>] | unset <key> | list [--json]) (--store <path> | --map <map>)"
        #expect(
            result.stderr == """
                Error: The value 'Number' is invalid for '--type'
                Use one of Bool, Int, Double, String, Date, JSON.
                Usage: \(usage)
                  See 'graphimport meta --help'.

                """)
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test(arguments: [
        ("bool", "yes", "expected true, false, 1 or 0"),
        ("integer", "4.0", "expected decimal digits with an optional sign, such as 42 or -7"),
        ("integer", "9223372036854775808", "it is out of the range of a 64-bit integer"),
        ("double", "nan", "expected a decimal number, such as 1.5 or -2e3"),
        ("double", "1e999", "it is out of the range of a double"),
        ("date", "2024-05-01", "expected an ISO 8601 date and time with a zone, such as 2024-05-01T12:00:00Z or 2024-05-01T14:00:00+02:00"),
        ("json", "{after: 1}", "expected valid JSON text"),
    ])
    func valueThatDoesNotFitItsTypeExits65AndWritesNothing(type: String, text: String, reason: String) throws {
        for kind in StoreKind.testable { try Self.expectValueThatDoesNotFitWritesNothing(kind, type: type, text: text, reason: reason) }
    }

    /// On a store of `kind` holding `key = old`: setting `text` as `type` exits 65 with `reason`
    /// and leaves `old`.
    static func expectValueThatDoesNotFitWritesNothing(_ kind: StoreKind, type: String, text: String, reason: String) throws {
        let store = try StoreUnderTest(kind)
        #expect(runInProcess(["meta", "set", "key", "old", "--store", store.location]).status == 0)
        let result = runInProcess(["meta", "set", "key", text, "--type", type, "--store", store.location])
        #expect(result.status == 65)
        let article = ["integer": "an integer", "json": "JSON"][type] ?? "a \(type)"
        #expect(result.stderr == "graphimport: error: cannot read '\(text)' as \(article): \(reason)\n")
        #expect(runInProcess(["meta", "get", "key", "--store", store.location]).stdout == "old\n")
    }

    @Test(arguments: [
        (["meta", "--store", "s.sqlite"], "Error: Missing expected argument '<action>' (get, set, unset or list)\n"),
        (["meta", "gat", "etag", "--store", "s.sqlite"], "Error: Unknown action 'gat'\nDid you mean 'get'?\n"),
        (["meta", "get", "etag"], "Error: Missing expected argument '--store <path>' (or '--map <map>' for the store beside it)\n"),
        (["meta", "get", "a", "b", "--store", "s.sqlite"], "Error: 'meta get' takes one KEY\n"),
        (["meta", "set", "a", "--store", "s.sqlite"], "Error: 'meta set' takes a KEY and a VALUE\n"),
        (["meta", "list", "a", "--store", "s.sqlite"], "Error: 'meta list' takes no KEY\n"),
    ])
    func malformedCommandsAreUsageErrors(arguments: [String], message: String) {
        let result = runInProcess(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("  See 'graphimport meta --help'.\n"))
    }

    @Test func mapNamesTheStoreBesideIt() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("feeds/items.map", CommandLineTests.map)
        let set = runInProcess(["meta", "set", "etag", "v7", "--map", map])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.path("feeds/items.sqlite")))
        #expect(runInProcess(["meta", "get", "etag", "--store", dir.path("feeds/items.sqlite")]).stdout == "v7\n")
        // The import with the same map finds the same store, and its metadata.
        let feed = dir.write("feed.json", #"[{"id":1,"name":"a"}]"#)
        #expect(runInProcess([feed, "--map", map, "--quiet", "--set-meta", "cursor=c1"]).status == 0)
        #expect(runInProcess(["meta", "list", "--map", map]).stdout == "cursor\tString\tc1\netag\tString\tv7\n")
    }

    @Test func storeBeatsMap() {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", CommandLineTests.map)
        #expect(runInProcess(["meta", "set", "k", "v", "--map", map, "--store", dir.path("other.sqlite")]).status == 0)
        #expect(FileManager.default.fileExists(atPath: dir.path("other.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: dir.path("items.sqlite")))
    }

    @Test func setOnABusyStoreExits75AfterTheWait() throws {
        let dir = TemporaryDirectory()
        let store = dir.path("feed.sqlite")
        #expect(runInProcess(["meta", "set", "etag", "old", "--store", store]).status == 0)
        let holder = try Database(path: store)
        try holder.beginImmediate()
        defer { holder.rollback() }
        let result = runInProcess(["meta", "set", "etag", "new", "--wait", "0.2", "--store", store])
        #expect(result.status == 75)
        #expect(result.stderr.hasPrefix("graphimport: error: cannot write the store \(store): "), "\(result.stderr)")
        // Readers are not blocked by a writer's reserved lock.
        #expect(runInProcess(["meta", "get", "etag", "--store", store]).stdout == "old\n")
    }
}
