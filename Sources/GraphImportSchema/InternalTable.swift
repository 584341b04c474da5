/// The tables graphimport keeps beside the data, named alike in every store (`graphimport_…`):
/// each store creates them in its own SQL, and the readers of either find them by these names.
public enum InternalTable {
    /// Every schema the store has been migrated to, with the map for reference.
    public static let schema = "graphimport_schema"
    /// Typed key-value metadata that a job keeps between runs, in the same store as its data.
    public static let meta = "graphimport_meta"
    /// One row per run of the importer: when, on what, with which map, and how it ended.
    public static let runs = "graphimport_runs"
    /// A row per object a run deleted (its entity, its key as JSON text, the run).
    public static let deleted = "graphimport_deleted"
}
