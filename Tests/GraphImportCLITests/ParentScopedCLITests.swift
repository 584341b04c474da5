import Foundation
import GraphImportCLI
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// Issues numbered per repository, through the command line: keyed with `@parent`, deleted
/// within their repository's list, a wrapped response's repository read with `@root`.
@Suite("Command line: keys and deletion scoped by the parent")
struct ParentScopedCLITests {
    static let map = """
        records at $[*] as Repo
        entity Repo
          key id
          id : Int
          name <- full_name : String
          issues : [Issue] inverse repo
        entity Issue
          key repoId, number
          delete missing within repo
          repoId <- @parent.id : Int
          number : Int
          title : String

        """

    static func repos(_ first: [Int], _ second: [Int]?) -> String {
        func issues(_ numbers: [Int], _ repo: String) -> String {
            numbers.map { #"{"number": \#($0), "title": "\#(repo)#\#($0)"}"# }.joined(separator: ", ")
        }
        var repos = [#"{"id": 1, "full_name": "octo/a", "issues": [\#(issues(first, "a"))]}"#]
        if let second { repos.append(#"{"id": 2, "full_name": "octo/b", "issues": [\#(issues(second, "b"))]}"#) }
        return "[" + repos.joined(separator: ",\n") + "]\n"
    }

    @Test(arguments: StoreKind.testable)
    func dryRunListsTheIssuesOneRepositoryDroppedAndTheImportDeletesOnlyThose(kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("issues.map", Self.map)
        let storeUnderTest = try StoreUnderTest(kind)
        let store = storeUnderTest.location
        #expect(runInProcess([dir.write("one.json", Self.repos([1, 2, 3], [1, 2])), "--map", map, "--store", store, "--quiet"]).status == 0)
        #expect(try storeUnderTest.value("SELECT count(*) FROM issues") == "5")
        let page = dir.write("two.json", Self.repos([1, 3], nil))
        let dry = runInProcess([page, "--map", map, "--store", store, "--dry-run"])
        #expect(dry.status == 0)
        #expect(dry.stderr.contains("  would delete Issue: (1, 2)\n"), "\(dry.stderr)")
        #expect(try storeUnderTest.value("SELECT count(*) FROM issues") == "5")
        let run = runInProcess([page, "--map", map, "--store", store])
        #expect(run.status == 0)
        #expect(run.stderr.contains("  deleted Issue: (1, 2)\n"), "\(run.stderr)")
        #expect(
            try storeUnderTest.lines("SELECT repo_id, number, title FROM issues ORDER BY repo_id, number") == ["1|1|a#1", "1|3|a#3", "2|1|b#1", "2|2|b#2"])
    }

    // One store: the record is refused as it is drafted, before any object is written.
    @Test func anIssueGivenAsARecordHasNoParentAndExits65SayingWhy() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("issues.map", Self.map.replacingOccurrences(of: "records at $[*] as Repo", with: "records at issues[*] as Issue"))
        let feed = dir.write("issues.json", #"{"issues": [{"number": 1, "title": "x"}]}"#)
        let result = runInProcess([feed, "--map", map])
        #expect(result.status == 65)
        #expect(
            result.stderr == """
                graphimport: error: \(feed):1:13: Issue.repoId: the object has no '@parent.id', the key of Issue at $.issues[0] (record 0)
                hint: `@parent` is the object whose relationship reached this Issue, and a record has none: list a path the record holds before it (`<- repo_id, @parent.id`), or reach Issue objects through their parent

                """)
    }

    static let wrapped = """
        records at issues[*] as Issue
        entity Issue
          key repoId, number
          repoId <- @root.repository.id : Int
          number : Int

        """

    @Test func sampleCheckSaysWhenARootValueComesOnlyAfterTheRecords() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("wrapped.map", Self.wrapped)
        let fits = runInProcess(["check", "--map", map, "--sample", dir.write("fits.json", #"{"repository": {"id": 7}, "issues": [{"number": 1}]}"#)])
        #expect(fits.status == 0)
        #expect(fits.stderr.hasPrefix("check: no warnings"), "\(fits.stderr)")
        let late = dir.write("late.json", #"{"issues": [{"number": 1}], "repository": {"id": 7}}"#)
        let result = runInProcess(["check", "--map", map, "--sample", late])
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(
                """
                \(map):4:13: warning: the sample holds '@root.repository.id' (Issue.repoId) only after records that read it
                 4 |   repoId <- @root.repository.id : Int
                   |             ^
                help: an import reads the response once, front to back: `@root` values are those that come before the records

                """), "\(result.stderr)")
    }
}
