import GraphImport
import Testing

/// `check --sample` reads `@parent` in the object that reached each child, and `@root` in the
/// response before each record, as an import reads them.
extension SampleCheckTests {
    static let repoIssues = """
        records at repos[*] as Repo
        entity Repo
          key id
          id : Int
          issues : [Issue]
        entity Issue
          key repoId, number
          repoId <- @parent.id : Int
          repoName <- @parent.full_name : String
          number : Int
        """

    @Test func sampleCheckReadsParentValuesWhereTheParentHoldsThem() throws {
        let fits = try check(Self.repoIssues, sample: #"{"repos": [{"id": 1, "full_name": "o/a", "issues": [{"number": 1}, {"number": 2}]}]}"#)
        #expect(fits.diagnostics.isEmpty, "\(fits.diagnostics.map(\.headline))")
        let report = try check(Self.repoIssues, sample: #"{"repos": [{"id": 1, "full_name": 7, "issues": [{"number": 1}]}]}"#)
        #expect(
            report.diagnostics.map(\.headline) == [
                "test.map:9:15: warning: no value of '@parent.full_name' (Issue.repoName) converts to String: 1 of 1 fail: "
                    + "expected a string, found a number (7) (first: record 0 at line 1, column 12, $.repos[0].full_name)"
            ])
    }

    @Test func sampleCheckReadsRootValuesBeforeTheRecords() throws {
        let map = "records at issues[*] as Issue\nentity Issue\n  key repoId, number\n  repoId <- @root.repository.id : Int\n  number : Int\n"
        let fits = try check(map, sample: #"{"repository": {"id": 7}, "issues": [{"number": 1}]}"#)
        #expect(fits.diagnostics.isEmpty, "\(fits.diagnostics.map(\.headline))")
        let report = try check(map, sample: #"{"repository": {"id": "7"}, "issues": [{"number": 1}]}"#)
        #expect(
            report.diagnostics.map(\.headline).first?.hasPrefix("test.map:4:13: warning: no value of '@root.repository.id' (Issue.repoId) converts to Int")
                == true)
        #expect(report.diagnostics.map(\.headline).first?.hasSuffix("$.repository.id)") == true, "\(report.diagnostics.map(\.headline))")
    }
}
