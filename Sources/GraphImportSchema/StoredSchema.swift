/// The schema a store really has, read back from `sqlite_schema` and the table PRAGMAs, so that a
/// migration compares a map with the tables as they are (several maps may feed one store, a store
/// may come from `graphimport schema | sqlite3`) rather than with the last map recorded.
package struct StoredSchema: Sendable, Equatable {
    /// The data tables (not `sqlite_…` nor `graphimport_…`), described as the store would create them.
    package var schema: SchemaDescription
    /// Every name in `sqlite_schema` (tables, indexes, views, triggers), folded as SQLite compares
    /// names, with what it names: a new table or index may not take one of them.
    package var names: [String: String]
    /// The schema recorded by the latest migration, if any: what "not in this map; kept" is said of.
    package var recorded: SchemaDescription?

    /// A stored schema of `schema`, naming its tables and the indexes SchemaSQL gives them.
    package init(schema: SchemaDescription, names: [String: String]? = nil, recorded: SchemaDescription? = nil) {
        self.schema = schema
        self.recorded = recorded
        if let names {
            self.names = names
        } else {
            var described: [String: String] = [:]
            for table in schema.tables {
                described[foldedName(table.name)] = "table"
                for key in table.uniqueKeys { described[foldedName(TableDescription.indexName(table: table.name, columns: key, unique: true))] = "index" }
                for key in table.indexes { described[foldedName(TableDescription.indexName(table: table.name, columns: key, unique: false))] = "index" }
            }
            self.names = described
        }
    }

    /// `names` keyed as `StoredSchema.names` is: each name folded as the planner compares names,
    /// with what it names ("table", "index", "view", …); for a store read from another catalog.
    package static func foldedNames(_ objects: [(name: String, type: String)]) -> [String: String] {
        Dictionary(objects.map { (foldedName($0.name), $0.type) }, uniquingKeysWith: { first, _ in first })
    }
}

/// `name` as SQLite compares identifiers: ASCII letters without case, every other character as is.
package func foldedName(_ name: String) -> String {
    String(String.UnicodeScalarView(name.unicodeScalars.map { $0.value >= 65 && $0.value <= 90 ? Unicode.Scalar($0.value + 32)! : $0 }))
}
