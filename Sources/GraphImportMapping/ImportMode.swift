/// What an import may do to the objects of an entity (`mode …` in the map, `--mode` for a run):
/// mongoimport's `--mode`, Sync's operations.
public enum ImportMode: String, Sendable, Equatable, CaseIterable {
    /// New objects are inserted; objects already stored are left as they are (counted unchanged).
    case insert
    /// Stored objects are updated; new objects are not inserted (counted as not inserted).
    case update
    /// Both: the default.
    case upsert

    /// Whether a new object is inserted.
    package var inserts: Bool { self != .update }
    /// Whether a stored object is updated.
    package var updates: Bool { self != .insert }

    /// What both modes allow: a run's `--mode` narrows an entity's `mode`, never widens it.
    /// `insert` and `update` together allow neither.
    package func narrowed(by other: ImportMode?) -> (inserts: Bool, updates: Bool) {
        (inserts && (other?.inserts ?? true), updates && (other?.updates ?? true))
    }
}
