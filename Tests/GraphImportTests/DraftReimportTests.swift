@testable import GraphImport
import GraphImportJSON
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// A draft made from one response of an endpoint imports the next: two responses of one
/// generator (other values, optional fields absent in other records, lists and objects keyed by
/// data of other lengths), the draft made from the first imports every record of the second.
@Suite("A draft imports the next response of its endpoint")
struct DraftReimportTests {
    /// One response of a made-up endpoint: a page of posts with an author, tags, owned lines, an
    /// object keyed by dates and optional fields. The first post holds every optional field and
    /// one element of each list, the second none: optional in every response, as an API's are.
    static func response(seed: UInt64, count: Int) -> String {
        var generator = MapDraftingShapeTests.Generator(state: seed)
        var ids: Set<Int> = []
        let posts = (0..<count).map { index -> String in
            var id = generator.int(1...9_999_999)
            while !ids.insert(id).inserted { id = generator.int(1...9_999_999) }
            let full = index == 0 || (index > 1 && generator.int(0...1) == 1)
            let author = generator.int(1...40)
            let lists = index == 0 ? 1 : index == 1 ? 0 : generator.int(0...4)
            let tags = (0..<lists).map { _ in #""tag\#(generator.int(1...30))""# }
            let lines = (0..<lists).map { _ in #"{"sku": "s\#(generator.int(1...99))", "qty": \#(generator.int(1...9))}"# }
            let history = (0..<lists).map { day in #""2024-02-\#(String(format: "%02d", day + 1))": \#(generator.int(0...500))"# }
            var fields = [
                #""id": \#(id)"#, #""title": "post \#(generator.hex(6))""#, #""score": \#(generator.int(0...99)).5"#,
                #""created_at": "2024-03-\#(String(format: "%02d", generator.int(1...28)))T10:\#(String(format: "%02d", generator.int(0...59))):00Z""#,
                #""author": {"id": \#(author), "login": "user\#(author)"\#(full ? #", "bio": "b\#(author)""# : "")}"#,
                #""tags": [\#(tags.joined(separator: ", "))]"#, #""lines": [\#(lines.joined(separator: ", "))]"#,
                #""history": {\#(history.joined(separator: ", "))}"#,
            ]
            if full { fields.append(#""note": "n\#(generator.hex(4))""#) }
            return "{" + fields.joined(separator: ", ") + "}"
        }
        return #"{"data": [\#(posts.joined(separator: ", "))], "meta": {"next": "c\#(generator.hex(8))", "count": \#(count)}}"#
    }

    @Test(arguments: StoreKind.testable, [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func aDraftOfOneResponseImportsTheNext(_ kind: StoreKind, _ seed: UInt64) throws {
        let first = Self.response(seed: seed, count: 2 + Int(seed % 5))
        let second = Self.response(seed: seed &+ 1_000, count: 2 + Int((seed * 7) % 11))
        let (draft, _) = try MapDraftingTests.drafted(first)
        let store = try MappedStore(kind, map: draft.text)
        let summary = try store.importJSON(second)
        #expect(summary.records == 2 + Int((seed * 7) % 11), "\(draft.text)")
        #expect(summary.skippedRecords == 0, "\(draft.text)")
    }
}
