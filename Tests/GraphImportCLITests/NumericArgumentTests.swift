import Foundation
@testable import GraphImportCLI
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// Every number the command line takes is parsed and bounded before use: the largest and the
/// unrepresentable values are a usage error (64) or work, and none traps.
@Suite("Command line, numeric arguments")
struct NumericArgumentTests {
    static let map = """
        records at $[*] as Post
        entity Post
          key id
          id : Int
        """

    /// A store with one run, and its map.
    static func store(_ dir: TemporaryDirectory) -> String {
        let map = dir.write("posts.map", Self.map)
        let feed = dir.write("1.json", #"[{"id":1}]"#)
        #expect(runInProcess([feed, "--map", map, "--quiet"]).status == 0)
        return map
    }

    /// On both stores: the largest run reaches the store's query as a number it holds.
    @Test(arguments: StoreKind.testable)
    func theLargestRunIsListedAsNothingNewAndOneMoreIsRefused(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = dir.write("posts.map", Self.map)
        #expect(runInProcess([dir.write("1.json", #"[{"id":1}]"#), "--map", map, "--store", store.location, "--quiet"]).status == 0)
        let largest = runInProcess(["changes", "--map", map, "--since-run", String(Int64.max), "--store", store.location])
        #expect(largest.status == 0, "\(largest.stderr)")
        #expect(largest.stdout == "" && largest.stderr == "")
        for text in ["9223372036854775808", "99999999999999999999999", "-1", "1.5", "0x10", " 1", ""] {
            let result = runInProcess(["changes", "--map", map, "--since-run", text])
            #expect(result.status == 64, "\(text): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: The value '\(text)' is invalid for '--since-run'\n"), "\(text): \(result.stderr)")
        }
    }

    @Test func theDeletionWarningCountsRunsUpToTheLargestId() {
        #expect(ChangesCommand.deletionWarning(since: Int64.max, recordedSince: 1) == nil)
        #expect(ChangesCommand.deletionWarning(since: Int64.max - 1, recordedSince: Int64.max) == nil)
        #expect(
            ChangesCommand.deletionWarning(since: Int64.max - 2, recordedSince: Int64.max)
                == "this store records deleted objects from run \(Int64.max) on; objects deleted by run \(Int64.max - 1) are not listed")
        #expect(
            ChangesCommand.deletionWarning(since: 0, recordedSince: 3)
                == "this store records deleted objects from run 3 on; objects deleted by runs 1 to 2 are not listed")
    }

    /// `--wait` of every command that waits: an infinity, NaN, a negative or a wait longer than
    /// SQLite and PostgreSQL can hold is refused; the longest they hold is taken.
    @Test(arguments: ["inf", "nan", "-1", "1e300", "2147484", "soon"])
    func aWaitOutOfRangeIsAUsageErrorForEveryCommand(_ text: String) throws {
        let dir = TemporaryDirectory()
        let map = Self.store(dir)
        let feed = dir.path("1.json")
        for arguments in [
            [feed, "--map", map], ["meta", "set", "k", "v", "--map", map], ["meta", "unset", "k", "--map", map], ["export", "--map", map],
        ] {
            let result = runInProcess(arguments + ["--wait", text])
            #expect(result.status == 64, "\(arguments[0]) --wait \(text): \(result.stderr)")
            #expect(
                result.stderr.hasPrefix(
                    "Error: The value '\(text)' is invalid for '--wait'\nGive a number of seconds from 0 to 2147483, such as 30 or 0.5.\n"),
                "\(arguments[0]) --wait \(text): \(result.stderr)")
        }
        #expect(try sqlite(dir.path("posts.sqlite"), "SELECT count(*) FROM sqlite_schema WHERE name = 'graphimport_meta'") == "0")
    }

    /// On both stores: each holds the longest wait (PostgreSQL's lock timeout is in milliseconds).
    @Test(arguments: StoreKind.testable)
    func theLongestWaitIsTaken(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = dir.write("posts.map", Self.map)
        let feed = dir.write("1.json", #"[{"id":1}]"#)
        let named = ["--store", store.location, "--wait", "2147483"]
        let imported = runInProcess([feed, "--map", map, "--quiet"] + named)
        #expect(imported.status == 0, "\(imported.stderr)")
        let set = runInProcess(["meta", "set", "k", "v", "--map", map] + named)
        #expect(set.status == 0, "\(set.stderr)")
        let export = runInProcess(["export", "--map", map] + named)
        #expect(export.status == 0, "\(export.stderr)")
    }

    /// The largest count reaches the store's query on both stores; one more is refused before.
    @Test(arguments: StoreKind.testable)
    func countsBeyondTheLargestIntegerAreUsageErrors(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let store = try StoreUnderTest(kind)
        let map = dir.write("posts.map", Self.map)
        #expect(runInProcess([dir.write("1.json", #"[{"id":1}]"#), "--map", map, "--store", store.location, "--quiet"]).status == 0)
        let runs = runInProcess(["runs", "--map", map, "--last", String(Int64.max), "--store", store.location])
        #expect(runs.status == 0, "\(runs.stderr)")
        for (command, option) in [("runs", "--last"), ("export", "--depth")] {
            for text in ["9223372036854775808", "-5", "1e3"] {
                let result = runInProcess([command, "--map", map, option, text])
                #expect(result.status == 64, "\(command) \(option) \(text): \(result.stderr)")
                #expect(result.stderr.hasPrefix("Error: The value '\(text)' is invalid for '\(option)'\n"), "\(result.stderr)")
            }
        }
        let deep = runInProcess(["export", "--map", map, "Post", "--depth", String(Int64.max), "--store", store.location])
        #expect(deep.status == 0, "\(deep.stderr)")
    }
}
