import GraphImportMapping

/// The limits an import enforces before and while it works, so that a hostile map or feed
/// fails fast with a message instead of exhausting memory or time. Documented in the README.
package enum ImportLimits {
    /// Deepest nesting of arrays and objects in the input.
    package static let maxJSONDepth = 512
    /// Longest string value or key in the input, in UTF-8 bytes.
    package static let maxStringBytes = 16 << 20
    /// Most elements one object may have under one to-many relationship.
    package static let maxToManyElements = 100_000
    /// Largest map file, in bytes.
    package static let maxMapBytes = 1 << 20
    /// Most entities in one map.
    package static let maxEntities = 1_000
    /// Most attributes and relationships in one entity (SQLite allows 2,000 columns a table).
    package static let maxMembersPerEntity = 1_000
    /// Longest table name a map may give.
    package static let maxTableNameLength = TableName.maxLength
}
