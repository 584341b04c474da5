/// The tables graphimport keeps beside the data, named alike in every store (`graphimport_…`):
/// each store creates them in its own SQL, and the readers of either find them by these names.
package enum InternalTable {
    /// Every schema the store has been migrated to, with the map for reference.
    package static let schema = "graphimport_schema"
    /// Typed key-value metadata that a job keeps between runs, in the same store as its data.
    package static let meta = "graphimport_meta"
    /// One row per run of the importer: when, on what, with which map, and how it ended.
    package static let runs = "graphimport_runs"
    /// A row per object a run deleted (its entity, its key as JSON text, the run).
    package static let deleted = "graphimport_deleted"
    /// One row while an import writes its own drafts, none otherwise: the content digests'
    /// triggers stand aside while it holds a row (`SchemaSQL.digestStatements`).
    package static let importing = "graphimport_importing"
}
