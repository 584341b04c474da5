import GraphImport
import Testing

/// `check --sample` walks the paths of `link` attributes, read from each element of their to-many.
extension SampleCheckTests {
    static let members = """
        entity Team
          key id
          id : Int
          members <- memberships : [User] each user
            link role <- rol : String
            link since <- joined_at : Date? | iso8601
            link weight : Double?
        entity User
          key id
          id : Int

        """

    @Test func linkAttributePathsAreCheckedOverTheElements() throws {
        let sample = """
            [{"id": 1, "memberships": [{"role": "admin", "joined_at": "2020-01-02", "weight": 1, "user": {"id": 7}},
                                       {"role": "dev", "joined_at": "yesterday", "user": {"id": 8}}]},
             {"id": 2, "memberships": [{"role": "dev", "weight": "heavy", "user": {"id": 8}}]}]
            """
        let report = try check(Self.members, sample: sample)
        #expect(
            report.diagnostics.map(\.headline) == [
                "test.map:5:18: warning: no record of the sample holds 'rol' (Team.members.role): 0 of 3 elements of Team.members",
                "test.map:6:19: warning: 1 of 3 elements of 'joined_at' (Team.members.since) do not convert to Date: 'yesterday' is not an ISO 8601 date (first: record 0 at line 1, column 2, $[0].memberships[1].joined_at)",
                "test.map:7:10: warning: 1 of 3 elements of 'weight' (Team.members.weight) do not convert to Double: expected a number, found a string ('heavy') (first: record 1 at line 3, column 2, $[1].memberships[0].weight)",
            ])
        #expect(report.diagnostics.first?.hint == "did you mean 'role'?")
    }

    @Test func aRequiredLinkAttributeSomeElementsLackIsReported() throws {
        let map = Self.members.replacingOccurrences(of: "link role <- rol", with: "link role")
        let sample = #"[{"id": 1, "memberships": [{"role": "admin", "user": {"id": 7}}, {"user": {"id": 8}}]}]"#
        let report = try check(map, sample: sample)
        #expect(
            report.diagnostics.map(\.headline) == [
                "test.map:5:10: warning: 1 of 2 elements of 'role' (Team.members.role) do not fit the map: the element has no 'role', a required link attribute (first: record 0 at line 1, column 2, $[0].memberships[1])",
                "test.map:6:19: warning: no record of the sample holds 'joined_at' (Team.members.since): 0 of 2 elements of Team.members",
                "test.map:7:10: warning: no record of the sample holds 'weight' (Team.members.weight): 0 of 2 elements of Team.members",
            ])
    }
}
