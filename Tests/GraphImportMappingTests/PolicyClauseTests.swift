import GraphImportMapping
import Testing

/// `merge` and `link existing` after a relationship's type, `mode` below an entity.
@Suite struct PolicyClauseTests {
    static let entity = "entity E\n  key id\n  id : Int\n"

    @Test func parsesMergeAndLinkExistingInAnyOrderWithOtherClauses() throws {
        let mapping = try parse(
            Self.entity + "  pages : [E] merge inverse book link existing\n  parent <- parent_id : E? link existing delete cascade\n")
        let relationships = mapping.entities[0].relationships
        #expect(relationships.map(\.mergesList) == [true, false])
        #expect(relationships.map(\.linksExistingOnly) == [true, true])
        #expect(relationships.map(\.inverse) == ["book", nil])
        #expect(relationships[1].deleteRule == .cascade)
    }

    @Test func relationshipsReplaceAndStubByDefault() throws {
        let mapping = try parse(Self.entity + "  pages : [E]\n  parent : E?\n")
        #expect(mapping.entities[0].relationships.map(\.mergesList) == [false, false])
        #expect(mapping.entities[0].relationships.map(\.linksExistingOnly) == [false, false])
        #expect(mapping.entities[0].mode == .upsert)
    }

    @Test(arguments: ImportMode.allCases)
    func parsesEveryMode(mode: ImportMode) throws {
        let mapping = try parse("entity E\n  key id\n  mode \(mode.rawValue)\n  id : Int\nentity F\n  key id\n  id : Int\n")
        #expect(mapping.entities.map(\.mode) == [mode, .upsert])
    }

    @Test func anAttributeNamedModeIsStillAnAttribute() throws {
        let mapping = try parse(Self.entity + "  mode : String\n")
        #expect(mapping.entities[0].attributes.map(\.name) == ["id", "mode"])
    }

    @Test func rejectsMergeOnToOne() {
        let error = onlyError(Self.entity + "  parent : E? merge\n")
        #expect(error?.0 == "test.map:4:15: error: 'merge' applies only to a to-many relationship; 'parent' is a to-one")
        #expect(error?.1 == "a to-one holds one E: the feed's replaces the stored one; make the type `[E]` to keep a list")
    }

    @Test func rejectsLinkExistingOnRequiredToOne() {
        let error = onlyError(Self.entity + "  parent <- parent_id : E link existing\n")
        #expect(error?.0 == "test.map:4:27: error: 'link existing' needs an optional to-one; 'parent' is required")
        #expect(error?.1 == "an unknown E links nothing, so a new object could be left without one: write `E?`")
    }

    @Test(arguments: ["merge", "link existing"])
    func rejectsPolicyOnAttribute(clause: String) {
        let error = onlyError(Self.entity + "  name : String \(clause)\n")
        let keyword = clause.split(separator: " ")[0]
        #expect(error?.0 == "test.map:4:17: error: attribute 'name' cannot have '\(keyword)'")
    }

    @Test func rejectsPolicyOnLinkAttribute() {
        let error = onlyError(Self.entity + "  pages : [E]\n    link role : String merge\n")
        #expect(error?.0 == "test.map:5:24: error: link attribute 'role' cannot have 'merge'")
    }

    @Test func suggestsExistingForMisspelledLinkPolicy() {
        let error = onlyError(Self.entity + "  pages : [E] link existng\n")
        #expect(error?.0 == "test.map:4:20: error: unknown link policy 'existng'")
        #expect(error?.1 == "did you mean 'existing'? `link existing` links only objects already stored")
    }

    @Test func linkNeedsExisting() {
        let error = onlyError(Self.entity + "  pages : [E] link\n")
        #expect(error?.0 == "test.map:4:19: error: expected 'existing' after 'link' (link only objects already stored), found end of line")
    }

    @Test func rejectsRepeatedMerge() {
        let error = onlyError(Self.entity + "  pages : [E] merge merge\n")
        #expect(error?.0 == "test.map:4:21: error: 'merge' appears twice on 'pages'")
    }

    @Test func suggestsModeForMisspelledMode() {
        let error = onlyError("entity E\n  key id\n  mode upsrt\n  id : Int\n")
        #expect(error?.0 == "test.map:3:8: error: unknown mode 'upsrt'")
        #expect(error?.1 == "did you mean 'upsert'? a mode is 'insert', 'update' or 'upsert'")
    }

    /// A word nothing is close to is still named as an unknown mode, with the modes listed (as an
    /// unknown occurrence is).
    @Test func namesAnUnknownModeWithoutASuggestion() {
        let error = onlyError("entity E\n  key id\n  mode replace\n  id : Int\n")
        #expect(error?.0 == "test.map:3:8: error: unknown mode 'replace'")
        #expect(error?.1 == "a mode is 'insert', 'update' or 'upsert'")
        let missing = onlyError("entity E\n  key id\n  mode\n  id : Int\n")?.0
        #expect(missing == "test.map:3:7: error: expected 'insert', 'update' or 'upsert' after 'mode', found end of line")
    }

    @Test func rejectsSecondModeLine() {
        let error = onlyError("entity E\n  key id\n  mode insert\n  mode update\n  id : Int\n")
        #expect(error?.0 == "test.map:4:3: error: entity 'E' already has `mode` (line 3)")
    }

    @Test func suggestsFirstForMisspelledOccurrence() {
        let error = onlyError("entity E\n  key id\n  occurrence fist\n  id : Int\n")
        #expect(error?.0 == "test.map:3:14: error: unknown occurrence 'fist'")
        #expect(
            error?.1 == "did you mean 'first'? `occurrence first` keeps an object's first occurrence in a run, `occurrence last` (the default) its last")
    }

    @Test func rejectsSecondOccurrenceLineAndOccurrenceOnAnOwnedEntity() {
        #expect(
            onlyError("entity E\n  key id\n  occurrence first\n  occurrence last\n  id : Int\n")?.0
                == "test.map:4:3: error: entity 'E' already has `occurrence` (line 3)")
        let owned = "entity E\n  key id\n  id : Int\n  notes : [N]\nentity N owned\n  occurrence first\n  body : String\n"
        #expect(onlyError(owned)?.0 == "test.map:6:3: error: 'occurrence' applies to an entity with a key; 'N' is owned")
    }

    @Test func rejectsModeBeforeAnyEntity() {
        let error = onlyError("mode insert\n" + Self.entity)
        #expect(error?.0 == "test.map:1:1: error: 'mode' appears before any entity")
        #expect(error?.1 == "put `mode insert` below the `entity NAME` line it belongs to")
    }

    @Test func suggestsMergeForMisspelledClause() {
        let error = onlyError(Self.entity + "  pages : [E] merg\n")
        #expect(error?.0 == "test.map:4:15: error: unknown clause 'merg'")
        #expect(error?.1 == "did you mean 'merge'?")
    }
}
