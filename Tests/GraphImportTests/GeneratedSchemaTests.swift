import GraphImportStoreTestSupport
import Testing

/// The model-based test over random schemas: each seed draws a schema (`GeneratedSchema`), a graph
/// that conforms to it (`SchemaGraph`) and a rendering with its map (`SchemaRendering`); the three
/// properties of `GeneratedGraphTests` (the fixed family) must hold, on both stores. The same
/// environment variables choose the seeds and the store (`GRAPHIMPORT_GENERATOR_SEED=S` replays one).
@Suite("Generated schemas, rendered in API shapes")
struct GeneratedSchemaTests {
    @Test(arguments: StoreKind.testable)
    func storeHoldsExactlyTheGeneratedGraph(kind: StoreKind) throws {
        var tally = GeneratedGraphTests.Tally()
        // Each seed is a small graph: more of them than the fixed family's, in as much time.
        for seed in GeneratedGraphTests.seeds(kind, sqlite: 100, postgresql: 24) {
            do {
                try Self.check(seed: seed, kind: kind, tally: &tally)
            } catch {
                Issue.record("seed \(seed) on \(kind) (replay: GRAPHIMPORT_GENERATOR_SEED=\(seed) GRAPHIMPORT_GENERATOR_STORE=\(kind.rawValue)): \(error)")
            }
        }
        #expect(tally.roundTrips == tally.seeds, "\(tally.roundTrips) of \(tally.seeds) exports round-trip; named limits: \(tally.limits)")
    }

    static func check(seed: UInt64, kind: StoreKind, tally: inout GeneratedGraphTests.Tally) throws {
        tally.seeds += 1
        var random = GraphRandom(state: seed)
        var schema = GeneratedSchema.random(&random, entities: random.next(4) + 2, relationships: random.next(4) + 1, features: .all)
        let rendering = SchemaRendering.random(&schema, &random, shapes: .all)
        let graph = SchemaGraph.random(schema, &random)
        let inputs = rendering.inputs(of: graph, random: &random)
        try GeneratedGraphTests.verify(
            map: rendering.map(schema), inputs: inputs, expected: graph.lines(wrapped: rendering.wrapped), what: "random schema, \(rendering)", seed: seed,
            kind: kind, tally: &tally)
    }
}
