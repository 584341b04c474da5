import GraphImportMapping
import Testing

/// `unkeyed skip | reject` after a relationship's type: what an element without its key does.
@Suite struct UnkeyedRuleTests {
    static let entities = """
        entity Event
          key id
          id : Int

        """
    static let user = "entity User\n  key id\n  id : Int\n"

    @Test func parsesTheRuleInAnyOrderWithOtherClauses() throws {
        let mapping = try parse(
            Self.entities + "  actor : User? inverse events unkeyed skip\n  mentions : [User] unkeyed reject each user\n  seen : [User]\n"
                + Self.user)
        let relationships = mapping.entities[0].relationships
        #expect(relationships.map(\.unkeyedRule) == [.skip, .reject, .reject])
    }

    @Test func suggestsTheRuleForAMisspelledOne() {
        let error = onlyError(Self.entities + "  actor : User? unkeyed skp\n" + Self.user)
        #expect(error?.0 == "test.map:4:25: error: unknown unkeyed rule 'skp'")
        #expect(error?.1 == "did you mean 'skip'?")
    }

    @Test func saysWhatMayFollowUnkeyed() {
        let error = onlyError(Self.entities + "  actor : User? unkeyed\n" + Self.user)
        #expect(error?.0 == "test.map:4:24: error: expected 'skip' or 'reject' after 'unkeyed', found end of line")
    }

    @Test func refusesSkipOnARequiredToOne() {
        let error = onlyError(Self.entities + "  actor : User unkeyed skip\n" + Self.user)
        #expect(error?.0 == "test.map:4:24: error: `unkeyed skip` leaves 'actor' null when its User has no key, but 'actor' is required")
        #expect(error?.1 == "make it optional, `: User? unkeyed skip`, or drop the clause to refuse such records")
    }

    @Test func acceptsRejectOnARequiredToOne() throws {
        #expect(try parse(Self.entities + "  actor : User unkeyed reject\n" + Self.user).entities[0].relationships[0].unkeyedRule == .reject)
    }

    @Test func refusesTheRuleOnAnAttribute() {
        let error = onlyError(Self.entities + "  name : String? unkeyed skip\n")
        #expect(error?.0 == "test.map:4:18: error: attribute 'name' cannot have 'unkeyed'")
    }

    @Test func refusesTheRuleOnALinkAttribute() {
        let error = onlyError(Self.entities + "  seen : [User]\n    link role : String unkeyed skip\n" + Self.user)
        #expect(error?.0 == "test.map:5:24: error: link attribute 'role' cannot have 'unkeyed'")
    }

    @Test func refusesTheRuleTwice() {
        let error = onlyError(Self.entities + "  seen : [User] unkeyed skip unkeyed reject\n" + Self.user)
        #expect(error?.0 == "test.map:4:30: error: 'unkeyed' appears twice on 'seen'")
    }

    @Test func suggestsTheClauseForAMisspelledOne() {
        let error = onlyError(Self.entities + "  seen : [User] unkeyd skip\n" + Self.user)
        #expect(error?.1 == "did you mean 'unkeyed'?")
    }
}
