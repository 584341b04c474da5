import GraphImportMapping
import Testing

/// `[*?]` in a `records` path: where it may stand and how it is written back.
@Suite struct LoneObjectPathTests {
    @Test func recordsPathMayEndInLoneObjectStep() throws {
        let mapping = try parse("records at data[*?], included[*], $[*?]\nentity E\n key id\n id : Int")
        #expect(
            mapping.records[0].paths == [
                KeyPath([.key("data"), .anyIndexOrOne]), KeyPath([.key("included"), .anyIndex]), KeyPath([.anyIndexOrOne]),
            ])
        #expect(mapping.records[0].paths.map(\.description) == ["data[*?]", "included[*]", "$[*?]"])
    }

    @Test func loneObjectStepMustBeLast() {
        let error = onlyError("records at data[*?].attributes\nentity E\n key id\n id : Int\n")
        #expect(error?.0 == "test.map:1:16: error: '[*?]' must be the last step of a `records` path")
        #expect(error?.1 == "a lone object counts as the one element only where the records are; write `[*]` further in")
    }

    @Test func loneObjectStepIsRefusedInMemberPaths() {
        let error = onlyError("entity E\n key id\n id : Int\n tags <- tags[*?] : JSON?\n")
        #expect(error?.0 == "test.map:4:14: error: '[*]' is allowed only in a `records` path")
    }

    @Test func questionMarkMustTouchTheStar() {
        #expect(onlyError("records at data[* ?]\nentity E\n key id\n id : Int\n")?.0 == "test.map:1:19: error: expected ']', found '?'")
    }
}
