@testable import GraphImport
import GraphImportJSON
import Testing

/// What a document holds where a records path stops matching, for each way a step can miss.
@Suite struct InputShapeTests {
    static func describe(_ json: String, _ rest: [JSONPathPattern.Component]) throws -> String? {
        let reader = JSONRecordReader(source: BytesSource(Array(json.utf8)), patterns: [.root])
        let value = try #require(try reader.next()).value
        return InputShape.describeMiss(of: rest, in: value, at: .root)?.description
    }

    @Test(arguments: [
        (#"{"data": {"a": 1}}"#, [JSONPathPattern.Component.key("data"), .key("b")], "$.data is an object without 'b'; its keys are 'a'"),
        (#"{"data": {}}"#, [.key("data"), .key("b")], "$.data is an empty object, without 'b'"),
        (#"[1, 2]"#, [.key("items"), .anyIndex], "$ is an array of 2 elements, not an object with 'items'"),
        (#"{"items": {"a": 1}}"#, [.key("items"), .anyIndex], "$.items is an object, not an array"),
        (#"{"items": []}"#, [.key("items"), .anyIndex], "$.items is an empty array"),
        (#"{"items": [1]}"#, [.key("items"), .index(3)], "$.items is an array of 1 element, without [3]"),
        (#"{"items": [{"x": 1}]}"#, [.key("items"), .anyIndex, .key("data")], "$.items[0] is an object without 'data'; its keys are 'x'"),
        (#"{"items": [{"x": 1}]}"#, [.key("items"), .anyIndex, .key("x")], nil),
    ])
    func describesTheFirstStepThatMisses(json: String, rest: [JSONPathPattern.Component], expected: String?) throws {
        #expect(try Self.describe(json, rest) == expected)
    }

    @Test func listsAtMostEightKeysThenACount() {
        #expect(InputShape.listed((1...10).map { "k\($0)" }) == "'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8' and 2 more")
    }
}
