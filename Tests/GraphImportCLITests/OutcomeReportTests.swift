import Foundation
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// How the input reaches the command: a file named on the command line, or standard input.
enum InputKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case file, pipe
    var testDescription: String { rawValue }
}

/// `--json` and `-v` say exactly what a run did, in each of its outcomes (imported, unchanged,
/// skipped as an unchanged input, dry run, failed), for a file and for a pipe, on both stores.
@Suite("Command line: --json and -v per outcome")
struct OutcomeReportTests {
    static let map = """
        records at items[*] as Item
        entity Item
          key id
          id : Int
          name : String
        """
    static let base = #"{"items":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}"#
    static let changed = #"{"items":[{"id":1,"name":"a"},{"id":2,"name":"B"},{"id":3,"name":"c"}]}"#

    /// One store and map, fed by files or by a pipe.
    struct Feeder {
        let input: InputKind
        let store: StoreUnderTest
        let dir = TemporaryDirectory()
        let map: String

        init(_ input: InputKind, _ kind: StoreKind) throws {
            self.input = input
            store = try StoreUnderTest(kind)
            map = dir.write("feed.map", OutcomeReportTests.map)
        }

        /// What the summary and errors call the input.
        var inputName: String { input == .file ? dir.path("feed.json") : "<stdin>" }

        func run(_ body: String, _ options: [String] = []) -> CommandResult {
            let arguments = ["--map", map, "--store", store.location] + options
            switch input {
            case .file: return runInProcess([dir.write("feed.json", body)] + arguments)
            case .pipe: return runInProcess(arguments, stdinText: body)
            }
        }

        /// Stderr with the input, the store and the timing made constant.
        func normalized(_ text: String) -> String {
            let named = text.replacingOccurrences(of: inputName, with: "INPUT").replacingOccurrences(of: store.location, with: "STORE")
            return named.replacingOccurrences(of: #"\d+\.\d\d s\)"#, with: "T s)", options: .regularExpression)
        }

        func names() throws -> [String] { try store.lines("SELECT id || '=' || name FROM items ORDER BY id") }
    }

    private func object(_ text: String) throws -> [String: Any] {
        let lines = text.split(separator: "\n")
        try #require(lines.count == 1, "expected one line on stdout, got \(text.debugDescription)")
        return try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
    }

    private func counts(_ summary: [String: Any]) -> [String: Int]? {
        (summary["entities"] as? [String: [String: Int]])?["Item"]
    }

    @Test(arguments: StoreKind.testable, InputKind.allCases)
    func importedSaysWhatWentInAndWhatChanged(kind: StoreKind, input: InputKind) throws {
        let feeder = try Feeder(input, kind)
        #expect(feeder.run(Self.base, ["--quiet"]).status == 0)
        let result = feeder.run(Self.changed, ["--json", "-v"])
        #expect(result.status == 0)
        let summary = try object(result.stdout)
        #expect(summary["outcome"] as? String == "imported")
        #expect(summary["exit_status"] as? Int == 0)
        #expect(summary["run"] as? Int == 2)
        #expect(summary["records"] as? Int == 3)
        #expect(summary["imported_records"] as? Int == 3)
        #expect(summary["bytes"] as? Int == Self.changed.utf8.count)
        #expect(summary["changed"] as? Bool == true)
        #expect(summary["dry_run"] as? Bool == false)
        #expect(summary["unchanged_input"] as? Bool == false)
        #expect(counts(summary) == ["inserted": 1, "updated": 1, "unchanged": 1, "skipped": 0, "deleted": 0])
        #expect(
            feeder.normalized(result.stderr) == """
                graphimport: imported 3 records from INPUT into STORE (T s)
                  entity  inserted  updated  unchanged  skipped
                  Item           1        1          1        0
                graphimport: Item: changed 2 objects
                  ~ 2
                      name: 'b' -> 'B'
                  + 3 (new)

                """)
        #expect(try feeder.names() == ["1=a", "2=B", "3=c"])
    }

    @Test(arguments: StoreKind.testable, InputKind.allCases)
    func unchangedCountsTheRecordsThatWentInAndListsNoChange(kind: StoreKind, input: InputKind) throws {
        let feeder = try Feeder(input, kind)
        #expect(feeder.run(Self.base, ["--quiet"]).status == 0)
        let result = feeder.run(Self.base, ["--json", "-v"])
        #expect(result.status == 0)
        let summary = try object(result.stdout)
        #expect(summary["outcome"] as? String == "unchanged")
        #expect(summary["records"] as? Int == 2)
        #expect(summary["imported_records"] as? Int == 2)
        #expect(summary["bytes"] as? Int == Self.base.utf8.count)
        #expect(summary["changed"] as? Bool == false)
        #expect(counts(summary) == ["inserted": 0, "updated": 0, "unchanged": 2, "skipped": 0, "deleted": 0])
        #expect(
            feeder.normalized(result.stderr) == """
                graphimport: nothing changed: 2 records from INPUT already in STORE (T s)
                  entity  inserted  updated  unchanged  skipped
                  Item           0        0          2        0

                """)
    }

    /// A file is hashed and not parsed (its records are not counted: `null`); standard input is
    /// parsed to be hashed and rolled back: its records were read, and none was imported.
    @Test(arguments: StoreKind.testable, InputKind.allCases)
    func skippedUnchangedInputImportsNothingAndSaysWhatWasRead(kind: StoreKind, input: InputKind) throws {
        let feeder = try Feeder(input, kind)
        let first = try object(feeder.run(Self.base, ["--quiet", "--json", "--if-changed"]).stdout)
        let result = feeder.run(Self.base, ["--json", "-v", "--if-changed"])
        #expect(result.status == 0)
        let summary = try object(result.stdout)
        #expect(summary["outcome"] as? String == "skipped_unchanged_input")
        #expect(summary["exit_status"] as? Int == 0)
        #expect(summary["run"] as? Int == 2)
        if input == .file {
            #expect(summary["records"] is NSNull)
        } else {
            #expect(summary["records"] as? Int == 2)
        }
        #expect(summary["imported_records"] as? Int == 0)
        #expect(summary["skipped_records"] as? Int == 0)
        #expect(summary["bytes"] as? Int == Self.base.utf8.count)
        #expect(summary["sha256"] as? String == first["sha256"] as? String)
        #expect((summary["sha256"] as? String)?.count == 64)
        #expect(summary["changed"] as? Bool == false)
        #expect(summary["unchanged_input"] as? Bool == true)
        #expect(summary["schema_changes"] as? [String] == [])
        #expect(counts(summary) == ["inserted": 0, "updated": 0, "unchanged": 0, "skipped": 0, "deleted": 0])
        #expect(feeder.normalized(result.stderr) == "graphimport: skipped: INPUT is the same as the last successful run's input (--if-changed)\n")
        let recorded = try feeder.store.lines(
            "SELECT outcome || ' ' || coalesce(CAST(records AS TEXT), 'uncounted') || ' ' || input_bytes FROM graphimport_runs WHERE id = 2")
        #expect(recorded == ["skipped \(input == .file ? "uncounted" : "2") \(Self.base.utf8.count)"])
    }

    /// Every count is what the import would have done; nothing is written.
    @Test(arguments: StoreKind.testable, InputKind.allCases)
    func dryRunCountsWhatWouldHappenAndWritesNothing(kind: StoreKind, input: InputKind) throws {
        let feeder = try Feeder(input, kind)
        #expect(feeder.run(Self.base, ["--quiet"]).status == 0)
        let result = feeder.run(Self.changed, ["--json", "-v", "--dry-run"])
        #expect(result.status == 0)
        let summary = try object(result.stdout)
        #expect(summary["outcome"] as? String == "dry_run")
        #expect(summary["records"] as? Int == 3)
        #expect(summary["imported_records"] as? Int == 3)
        #expect(summary["changed"] as? Bool == true)
        #expect(summary["dry_run"] as? Bool == true)
        #expect(counts(summary) == ["inserted": 1, "updated": 1, "unchanged": 1, "skipped": 0, "deleted": 0])
        #expect(
            feeder.normalized(result.stderr) == """
                graphimport: dry run: 3 records from INPUT checked against STORE; nothing was written (T s)
                  entity  inserted  updated  unchanged  skipped
                  Item           1        1          1        0
                graphimport: Item: would change 2 objects
                  ~ 2
                      name: 'b' -> 'B'
                  + 3 (new)

                """)
        #expect(try feeder.names() == ["1=a", "2=b"])
    }

    @Test(arguments: StoreKind.testable, InputKind.allCases)
    func failedSaysWhereAndLeavesTheStoreAsItWas(kind: StoreKind, input: InputKind) throws {
        let feeder = try Feeder(input, kind)
        #expect(feeder.run(Self.base, ["--quiet"]).status == 0)
        let result = feeder.run(#"{"items":[{"id":1,"name":"z"},{"id":"x","name":"y"}]}"#, ["--json", "-v"])
        #expect(result.status == 65)
        let failure = try object(result.stdout)
        #expect(failure["outcome"] as? String == "failed")
        #expect(failure["exit_status"] as? Int == 65)
        #expect(failure["run"] as? Int == 2)
        #expect(failure["input"] as? String == feeder.inputName)
        #expect((failure["position"] as? [String: Any])?["record"] as? Int == 1)
        #expect(feeder.normalized(result.stderr).hasPrefix("graphimport: error: INPUT:1:31: Item.id: "))
        #expect(!result.stderr.contains("changed"))
        #expect(try feeder.names() == ["1=a", "2=b"])
    }
}
