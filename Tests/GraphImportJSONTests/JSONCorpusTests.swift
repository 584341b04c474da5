import Foundation
import GraphImportJSON
import GraphImportTestSupport
import Testing

extension CorpusSuite {
    /// Real payloads from the shared corpus, selected the way their mappings will select them.
    @Suite("Real payloads")
    struct PayloadTests {
        func bytes(_ name: String) throws -> [UInt8] {
            let url = try #require(Corpus.file(name), "the corpus directory was not found")
            return [UInt8](try Data(contentsOf: url))
        }

        @Test func readsEverySearchStatusWithExactIds() throws {
            let records = try readRecords(try bytes("twitter-v1.1/get_search_raw.json"), [pattern(.key("statuses"), .anyIndex)])
            #expect(records.count == 100)
            for record in records {
                guard case .object(let status) = record.value, case .number(let id)? = status["id"],
                    case .string(let idString)? = status["id_str"]
                else {
                    Issue.record("\(record.path) has no id")
                    continue
                }
                #expect(id.literal == idString)
                #expect(id.exactInt64.map { String($0) } == idString)
            }
        }

        @Test func readsTheHomeTimelineArray() throws {
            let records = try readRecords(try bytes("twitter-v1.1/get_home_timeline.json"), [.everyElement], bufferSize: 4096)
            #expect(records.count == 20)
            #expect(records.last?.path.description == "$[19]")
        }
    }
}
