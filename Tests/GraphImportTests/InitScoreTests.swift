import Foundation
@testable import GraphImport
import GraphImportJSON
import GraphImportTestSupport
import Testing

/// `init` measured against an expert's model of every payload of the shared corpus
/// (`ExpertModels`): the share of the model's entities and relationships each draft recovers,
/// and the rows where a draft merges objects the model keeps apart. Merged rows are a defect
/// (none allowed); the shares are held at the floor reached, so that no change lowers them.
@Suite("init scored against expert models", .enabled(if: Corpus.isPresent, Comment(rawValue: Corpus.skipReason)))
struct InitScoreTests {
    /// The floors: raise them when the drafter improves, never lower them.
    static let entityFloor = 0.90
    static let relationshipFloor = 0.76

    static func score(_ payload: String) throws -> DraftScorer.Score {
        let url = try #require(Corpus.file(payload))
        let bytes = Array(try Data(contentsOf: url))
        let model = try #require(ExpertModels.all[payload], "no expert model for \(payload)")
        let name = url.lastPathComponent
        let draft = try MapDrafter.draft(source: BytesSource(bytes), sampleName: name)
        let mapping = try ImportPlan.compile(text: draft.text, fileName: "draft.map").mapping
        let document = try JSONParser.parse(bytes, options: JSONReaderOptions(maxDepth: 1000))
        return DraftScorer.score(model, mapping: mapping, document: document)
    }

    @Test func everyPayloadHasAModelAndTheCorpusScoresAboveTheFloors() throws {
        let payloads = InitCorpusPayloads.all
        #expect(payloads.count >= 55)
        #expect(Set(ExpertModels.all.keys) == Set(payloads), "models without payloads or payloads without models")
        var total = DraftScorer.Score()
        var perAPI: [String: DraftScorer.Score] = [:]
        var lines: [String] = []
        for payload in payloads where ExpertModels.all[payload] != nil {
            let score = try Self.score(payload)
            let api = String(payload.split(separator: "/").first!)
            for keyPath in [\DraftScorer.Score.entities, \.entitiesFound, \.relationships, \.relationshipsFound, \.mergedRows] {
                total[keyPath: keyPath] += score[keyPath: keyPath]
                perAPI[api, default: .init()][keyPath: keyPath] += score[keyPath: keyPath]
            }
            lines.append(
                "\(payload): entities \(score.entitiesFound)/\(score.entities), relationships \(score.relationshipsFound)/\(score.relationships), merged rows \(score.mergedRows)"
                    + (score.missedEntities.isEmpty ? "" : "; missed \(score.missedEntities.joined(separator: ", "))")
                    + (score.missedRelationships.isEmpty ? "" : "; unlinked \(score.missedRelationships.joined(separator: ", "))")
                    + (score.merges.isEmpty ? "" : "; merged \(score.merges.joined(separator: "; "))"))
            #expect(score.mergedRows == 0, "\(payload) merges objects the expert model keeps apart: \(score.merges)")
        }
        for (api, score) in perAPI.sorted(by: { $0.key < $1.key }) {
            lines.append("API \(api): entities \(score.entitiesFound)/\(score.entities), relationships \(score.relationshipsFound)/\(score.relationships)")
        }
        let entityShare = Double(total.entitiesFound) / Double(max(1, total.entities))
        let relationshipShare = Double(total.relationshipsFound) / Double(max(1, total.relationships))
        lines.append(
            "corpus: entities \(total.entitiesFound)/\(total.entities), relationships \(total.relationshipsFound)/\(total.relationships), merged rows \(total.mergedRows)"
        )
        print(lines.joined(separator: "\n"))
        #expect(entityShare >= Self.entityFloor)
        #expect(relationshipShare >= Self.relationshipFloor)
        #expect(total.mergedRows == 0)
    }
}

/// The corpus's payloads (the JSONTestSuite files aside), as `folder/file.json`.
enum InitCorpusPayloads {
    static let all: [String] = {
        guard let directory = Corpus.directory,
            let folders = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return [] }
        return folders.filter { $0 != "JSONTestSuite" }.sorted().flatMap { folder in
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(folder).path)) ?? []
            return files.filter { $0.hasSuffix(".json") }.sorted().map { "\(folder)/\($0)" }
        }
    }()
}
