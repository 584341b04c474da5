import GraphImport
import GraphImportMapping
import Testing

/// `check --sample` follows `where` conditions and fallback paths as an import does.
extension SampleCheckTests {
    static let filtered = """
        records at data[*] where type = "tweet" as Tweet
        records at data[*] where type = "user" as User
        entity Tweet
          key id
          id : Int
          title <- full_text, text : String
          inReplyTo <- refs where type = "replied_to" : Tweet each id
          quotes <- refs where type = "quoted" : [Tweet] each id
        entity User
          key id
          id : Int
          login <- username, screen_name : String

        """

    @Test func filtersAndFallbacksThatFitGiveNoWarning() throws {
        let sample = """
            {"data": [
              {"type": "tweet", "id": 1, "text": "a", "refs": [{"type": "quoted", "id": 2}, {"type": "replied_to", "id": 3}]},
              {"type": "tweet", "id": 2, "full_text": "b", "refs": [{"type": "replied_to", "id": 1}, {"type": "quoted", "id": "x"}]},
              {"type": "user", "id": 9, "screen_name": "ada"},
              {"type": "list", "id": 10}
            ]}
            """
        let report = try check(Self.filtered, sample: sample)
        #expect(report.records == 4)
        #expect(report.diagnostics.map(\.headline).count == 1)
        // The quoted "x" is the only element the map refuses: the replied_to elements are not read as quotes.
        #expect(report.diagnostics.first?.message.hasPrefix("1 of 2 elements of 'refs' (Tweet.quotes) do not") == true)
    }

    @Test func fallbackPathsNoObjectHoldsAreNamedTogether() throws {
        let map = Self.filtered.replacingOccurrences(of: "username, screen_name", with: "username, screen_nam")
        let report = try check(map, sample: #"{"data": [{"type": "user", "id": 9, "screen_name": "ada"}]}"#)
        #expect(
            report.diagnostics.map(\.headline) == [
                "test.map:12:12: warning: no record of the sample holds 'username, screen_nam' (User.login): 0 of 1 User object"
            ])
    }

    @Test func requiredToOneWithNoMatchingElementIsCounted() throws {
        let report = try check(Self.filtered, sample: #"{"data": [{"type": "tweet", "id": 1, "text": "a", "refs": [{"type": "quoted", "id": 2}]}]}"#)
        #expect(report.diagnostics.map(\.message).contains { $0.contains(#"nothing here holds for `where type = "replied_to"`"#) })
    }
}
