internal import CSQLite
import GraphImportSchema

/// The plain indexes of tables that hold no rows, dropped for the length of an import that will
/// fill them and created again before it commits.
///
/// A first import adds every row of its tables; each row also went into the table's plain indexes
/// (foreign-key columns, join-table targets) one at a time, in random order. Building an index
/// once over the finished table sorts instead, which is faster (Benchmarks/README.md, session 3).
/// Unique indexes stay: the import looks objects up by key and relies on them being unique.
/// Both steps run inside the import's transaction, so a failed import rolls back to the indexes as
/// they were, and no other connection ever sees the tables without them.
package struct DeferredIndexes: Sendable, Equatable {
    /// The CREATE INDEX statements to run again, in schema order.
    package let statements: [String]

    /// Nothing deferred.
    package static let none = DeferredIndexes(statements: [])
}

extension Store {
    /// The tables of `schema` (migrated to) that hold no rows: what an import may treat as new,
    /// for deferring their indexes and for inserting without looking keys up.
    package func emptyTables(in schema: SchemaDescription) throws(StoreError) -> Set<String> {
        var empty = Set<String>()
        for table in schema.tables where try database.scalar("SELECT EXISTS (SELECT 1 FROM \(quoteIdentifier(table.name)))") == .integer(0) {
            empty.insert(table.name)
        }
        return empty
    }

    /// Drops the plain indexes of `schema`'s tables named in `emptyTables` (as `emptyTables(in:)`
    /// gives them) that exist in the store. Must be called inside the caller's transaction, before
    /// the import writes.
    package func deferIndexes(of emptyTables: Set<String>, in schema: SchemaDescription) throws(StoreError) -> DeferredIndexes {
        try requireTransaction("deferring indexes")
        var statements: [String] = []
        for table in schema.tables where emptyTables.contains(table.name) {
            for columns in table.indexes {
                let name = TableDescription.indexName(table: table.name, columns: columns, unique: false)
                let exists = try database.scalar(
                    "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ? AND tbl_name = ?)",
                    [.text(name), .text(table.name)])
                guard exists == .integer(1) else { continue }
                try database.execute("DROP INDEX \(quoteIdentifier(name))")
                statements.append(SchemaSQL.createIndex(on: table.name, columns: columns, unique: false))
            }
        }
        return DeferredIndexes(statements: statements)
    }

    /// Creates the indexes `deferIndexes` dropped, in the same transaction.
    package func rebuild(_ deferred: DeferredIndexes) throws(StoreError) {
        guard !deferred.statements.isEmpty else { return }
        try requireTransaction("rebuilding indexes")
        // CREATE INDEX sorts in memory up to the page cache's size, then in temporary files (on
        // disk: see Database). The cache shrinks while it runs, so that the sort fits in memory the
        // cache gave back and a first import's peak memory stays that of an import without
        // deferred indexes (figures in Benchmarks/README.md).
        guard case .integer(let cacheSize)? = try database.scalar("PRAGMA cache_size") else {
            throw StoreError(extendedCode: SQLITE_ERROR, message: "PRAGMA cache_size gave no number")
        }
        try database.execute("PRAGMA cache_size = \(Self.sortingCacheKiB)")
        do throws(StoreError) {
            for statement in deferred.statements {
                try database.execute(statement)
            }
        } catch {
            try? database.execute("PRAGMA cache_size = \(cacheSize)")
            throw error
        }
        try database.execute("PRAGMA cache_size = \(cacheSize)")
    }

    /// The page cache while indexes are built, in KiB (negative, as PRAGMA cache_size takes it).
    static let sortingCacheKiB = -2048

    private func requireTransaction(_ step: String) throws(StoreError) {
        guard database.isInTransaction else {
            throw StoreError(extendedCode: SQLITE_MISUSE, message: "\(step) must run inside a transaction")
        }
    }
}
