/// What to export: the whole document the map reads, or one entity's objects.
public struct ExportRequest: Sendable {
    /// The entity whose objects are written; nil for the document (records where the map reads
    /// them, inside the wrapper, with the `meta` values).
    public var entity: String?
    /// Only the objects with these keys, in this order (a compound key's values separated by
    /// commas, in key order); empty for all.
    public var keys: [String]
    /// `lang = "en" and retweetCount >= 10`: only the objects it holds for (see `Condition(parsing:)`).
    public var condition: String?
    /// How many levels of relationships are written as nested objects; deeper ones, and objects
    /// already on the way down, are written by their key. Nil: as deep as the graph goes.
    public var depth: Int?
    /// One object per line (JSON Lines) instead of a JSON array; with an entity only.
    public var jsonLines: Bool

    public init(entity: String? = nil, keys: [String] = [], condition: String? = nil, depth: Int? = nil, jsonLines: Bool = false) {
        self.entity = entity
        self.keys = keys
        self.condition = condition
        self.depth = depth
        self.jsonLines = jsonLines
    }
}

/// What an export wrote.
public struct ExportSummary: Sendable, Equatable {
    /// Top-level objects: records of the document, or objects of the entity.
    public var objects: Int
    /// Records the document had no place for (the records inside another line's objects, when
    /// that line has none), named as not written.
    public var unwritten: [ExportCaveat] = []
}
