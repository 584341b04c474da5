import Foundation
import GraphImport
import GraphImportStoreTestSupport
import Testing

/// The model-based test: a random graph (`GeneratedGraph`), written in one of the shapes real APIs
/// use with the map that reads it (`GraphRendering`), must be stored exactly, a re-import of the
/// same inputs must change nothing, and the export must import again to the same graph, naming
/// no limit. On both stores.
///
/// A fixed budget of seeds runs in CI. `GRAPHIMPORT_GENERATOR_SEEDS=N` runs seeds 1…N (from
/// `GRAPHIMPORT_GENERATOR_FIRST_SEED=F` on, F…F+N-1, as `Fuzz/schemas` draws them),
/// `GRAPHIMPORT_GENERATOR_SEED=S` runs seed S alone (a failure prints it, with the map and the inputs),
/// `GRAPHIMPORT_GENERATOR_STORE=sqlite` (or `postgresql`) runs them on that store alone, and
/// `GRAPHIMPORT_GENERATOR_PRINT=1` prints each seed's map, inputs and expected graph.
@Suite("Generated graphs, rendered in API shapes")
struct GeneratedGraphTests {
    /// Seeds per store in CI (`sqlite` and `postgresql` of them): PostgreSQL's round trips are
    /// slower, so it takes fewer.
    static func seeds(_ kind: StoreKind, sqlite: UInt64 = 40, postgresql: UInt64 = 8) -> [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let only = environment["GRAPHIMPORT_GENERATOR_STORE"], only != kind.rawValue { return [] }
        if let text = environment["GRAPHIMPORT_GENERATOR_SEED"], let seed = UInt64(text) { return [seed] }
        if let text = environment["GRAPHIMPORT_GENERATOR_SEEDS"], let count = UInt64(text), count > 0 {
            let first = environment["GRAPHIMPORT_GENERATOR_FIRST_SEED"].flatMap { UInt64($0) } ?? 1
            return (0..<count).map { first &+ $0 }
        }
        return Array(1...(kind == .sqlite ? sqlite : postgresql))
    }

    @Test(arguments: StoreKind.testable)
    func storeHoldsExactlyTheGeneratedGraph(kind: StoreKind) throws {
        var tally = Tally()
        for seed in Self.seeds(kind) {
            do {
                try Self.check(seed: seed, kind: kind, tally: &tally)
            } catch {
                Issue.record("seed \(seed) on \(kind) (replay: GRAPHIMPORT_GENERATOR_SEED=\(seed) GRAPHIMPORT_GENERATOR_STORE=\(kind.rawValue)): \(error)")
            }
        }
        // Every rendering exports whole: each seed's round trip ran.
        #expect(tally.roundTrips == tally.seeds, "\(tally.roundTrips) of \(tally.seeds) exports round-trip; named limits: \(tally.limits)")
    }

    struct Tally {
        var seeds = 0
        var roundTrips = 0
        var limits: [String: Int] = [:]
    }

    static func check(seed: UInt64, kind: StoreKind, tally: inout Tally) throws {
        tally.seeds += 1
        var random = GraphRandom(state: seed)
        let graph = GeneratedGraph.generate(&random)
        let rendering = GraphRendering.random(&random)
        let inputs = rendering.inputs(of: graph, random: &random)
        try verify(map: rendering.map, inputs: inputs, expected: graph.lines, what: "\(rendering)", seed: seed, kind: kind, tally: &tally)
    }

    /// The three properties, for a map, its inputs in import order and the lines of the graph they
    /// hold: the store holds exactly that graph, a re-import changes nothing, and the export names
    /// no limit and imports again to the same graph.
    static func verify(map: String, inputs: [String], expected: [String], what: String, seed: UInt64, kind: StoreKind, tally: inout Tally) throws {
        let replay =
            "seed \(seed) on \(kind) (replay: GRAPHIMPORT_GENERATOR_SEED=\(seed) GRAPHIMPORT_GENERATOR_STORE=\(kind.rawValue)), \(what)\nmap:\n\(map)\ninputs:\n"
            + inputs.joined(separator: "\n--- next input ---\n")
        if ProcessInfo.processInfo.environment["GRAPHIMPORT_GENERATOR_PRINT"] != nil { print(replay + "\nexpected:\n" + expected.joined(separator: "\n")) }
        let plan: ImportPlan
        do {
            plan = try ImportPlan.compile(text: map, fileName: "generated.map")
        } catch {
            Issue.record("the map does not compile: \(error)\n\(replay)")
            return
        }

        // The store holds exactly the graph.
        let store = try StoreUnderTest(kind)
        for input in inputs {
            guard case .failure(let failure) = store.importJSON(input, plan: plan) else { continue }
            Issue.record("the import fails: \(failure.text)\n\(replay)")
            return
        }
        guard try same(StoredGraph.lines(of: store, plan: plan), expected, "after the import", replay) else { return }

        // A re-import of the same inputs changes nothing.
        for input in inputs {
            switch store.importJSON(input, plan: plan) {
            case .failure(let failure):
                Issue.record("the re-import fails: \(failure.text)\n\(replay)")
                return
            case .success(let summary):
                let changes = summary.entities.filter { $0.counts.inserted + $0.counts.updated + $0.counts.deleted + $0.counts.notInserted > 0 }
                guard changes.isEmpty else {
                    Issue.record("the re-import changes \(changes.map { "\($0.name): \($0.counts)" })\n\(replay)")
                    return
                }
            }
        }
        guard try same(StoredGraph.lines(of: store, plan: plan), expected, "after the re-import", replay) else { return }

        // The export imports again to the same graph, with no limit named (overlapping issues
        // records included: `Repo.issues` writes them; JSON Lines are written back as lines).
        let exporter = GraphExporter(plan: plan)
        let collected = ExportedText()
        let summary = try exporter.run(storePath: store.location, request: ExportRequest(), busyTimeout: 0) { collected.bytes += $0 }
        let limits = exporter.caveats + summary.unwritten
        guard limits.isEmpty else {
            for limit in limits { tally.limits[limit.description, default: 0] += 1 }
            Issue.record("the export names a limit where it must write the whole graph: \(limits.map(\.description))\n\(replay)")
            return
        }
        let exported = String(decoding: collected.bytes, as: UTF8.self)
        let again = try StoreUnderTest(kind)
        guard case .success = again.importJSON(exported, plan: plan) else {
            Issue.record("the export does not import again: \(again.importJSON(exported, plan: plan))\nexport: \(exported)\n\(replay)")
            return
        }
        if try same(StoredGraph.lines(of: again, plan: plan), expected, "after importing the export \(exported)", replay) { tally.roundTrips += 1 }
    }

    /// Records the difference between what the store holds and the model, line by line.
    static func same(_ stored: [String], _ expected: [String], _ when: String, _ replay: String) -> Bool {
        guard stored != expected else { return true }
        let missing = expected.filter { !stored.contains($0) }
        let extra = stored.filter { !expected.contains($0) }
        let difference =
            "expected, not stored:\n  " + missing.joined(separator: "\n  ") + "\nstored, not expected:\n  " + extra.joined(separator: "\n  ")
        Issue.record("\(when), the store differs from the graph.\n\(difference)\n\(replay)")
        return false
    }
}

private final class ExportedText: @unchecked Sendable {
    var bytes: [UInt8] = []
}
