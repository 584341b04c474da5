import GraphImport
import Testing

/// `check --sample` follows `{*}` into an object's members, and reads `$key` and bare values.
extension SampleCheckTests {
    @Test func sampleCheckFollowsKeyedMembersAndBareValues() throws {
        let map = """
            records at teams{*} as Team
            entity Team
              key slug
              slug <- $key : String
              members <- members{*} : [User]
            entity User
              key id
              id <- $key : String
              since <- $ : Int
            """
        let fits = try check(map, sample: #"{"teams": {"core": {"members": {"alice": 2019, "bob": 2021}}}}"#)
        #expect(fits.records == 1)
        #expect(fits.diagnostics.isEmpty)
        let report = try check(map, sample: #"{"teams": {"core": {"members": {"alice": "2019"}}}}"#)
        #expect(
            report.diagnostics.map(\.headline) == [
                "test.map:9:12: warning: no value of '$' (User.since) converts to Int: 1 of 1 fail: "
                    + "expected an integer, found a string ('2019') (first: record 0 at line 1, column 20, $.teams.core.members.alice)"
            ])
    }
}
