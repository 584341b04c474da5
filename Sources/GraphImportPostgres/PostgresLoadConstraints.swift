internal import GraphImportSchema

/// A first import into an empty store loads its rows as pg_restore does: the foreign keys of the
/// store's tables and their secondary (not unique) indexes are dropped inside the import's
/// transaction before the first rows are written, and made again after the last batch, each
/// foreign key checked with one set-wise query when it is added instead of one check per row at
/// COMMIT, each index built once instead of maintained row by row. The unique keys stay: the
/// writer reads and upserts through them. A failure anywhere rolls the whole transaction back,
/// the dropped keys and indexes with it; meanwhile other sessions that read the tables wait for
/// the import to end (the tables are locked as `ALTER TABLE` locks them).
package struct PostgresLoadConstraints: Sendable {
    /// `ALTER TABLE … ADD CONSTRAINT …` and `CREATE INDEX …` statements that make them again, in order.
    package private(set) var restoring: [String] = []

    /// Whether every table of `tables` holds no row (one query).
    package static func areEmpty(_ tables: [String], on connection: PostgresConnection) throws(PostgresError) -> Bool {
        guard !tables.isEmpty else { return true }
        let probes = tables.map { "NOT EXISTS (SELECT 1 FROM \(quoteIdentifier($0)))" }.joined(separator: " AND ")
        return try connection.scalar("SELECT \(probes)") == "t"
    }

    /// Drops the foreign keys that `tables` hold and their indexes that are neither unique nor
    /// primary, keeping what makes them again (`restore`).
    package static func drop(on tables: [String], connection: PostgresConnection) throws(PostgresError) -> PostgresLoadConstraints {
        var result = PostgresLoadConstraints()
        guard !tables.isEmpty else { return result }
        let relations = tables.map { SQLValue.text(quoteIdentifier($0)).description + "::regclass" }.joined(separator: ", ")
        let keys = try connection.rows(
            "SELECT c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid) FROM pg_constraint c "
                + "WHERE c.contype = 'f' AND c.conrelid IN (\(relations)) ORDER BY c.conrelid::regclass::text, c.conname")
        let indexes = try connection.rows(
            "SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i "
                + "WHERE i.indrelid IN (\(relations)) AND NOT i.indisunique AND NOT i.indisprimary ORDER BY i.indexrelid::regclass::text")
        for key in keys {
            guard key.count == 3, let table = key[0], let name = key[1], let definition = key[2] else { continue }
            try connection.execute("ALTER TABLE \(table) DROP CONSTRAINT \(quoteIdentifier(name))")
            result.restoring.append("ALTER TABLE \(table) ADD CONSTRAINT \(quoteIdentifier(name)) \(definition)")
        }
        for index in indexes {
            guard index.count == 2, let name = index[0], let definition = index[1] else { continue }
            try connection.execute("DROP INDEX \(name)")
            result.restoring.append(definition)
        }
        return result
    }

    /// Makes the dropped keys and indexes again: the indexes first, then the keys (each checks
    /// every row of its table at once). Runs once; a later call does nothing.
    package mutating func restore(on connection: PostgresConnection) throws(PostgresError) {
        let statements = restoring.filter { !$0.hasPrefix("ALTER TABLE") } + restoring.filter { $0.hasPrefix("ALTER TABLE") }
        restoring = []
        for statement in statements { try connection.execute(statement) }
    }
}
