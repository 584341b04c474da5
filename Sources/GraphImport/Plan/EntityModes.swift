import GraphImportMapping

/// What a run may do to the objects of each entity: the map's `mode` narrowed by the run's `--mode`.
/// What that makes of one object is `ObjectDecisions.fate`.
struct EntityModes: Sendable {
    /// Per entity: whether a new object is inserted (a stub included).
    let inserts: [Bool]
    /// Per entity: whether a stored object is updated.
    let updates: [Bool]
    /// Per entity: true for an upsert, the default, which writes as before modes existed.
    let upserts: [Bool]

    init(plan: ImportPlan, run: ImportMode?) {
        let modes = plan.entities.map { $0.mode.narrowed(by: run) }
        inserts = modes.map(\.inserts)
        updates = modes.map(\.updates)
        upserts = modes.map { $0.inserts && $0.updates }
    }
}
