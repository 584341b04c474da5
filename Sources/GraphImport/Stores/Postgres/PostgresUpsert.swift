import GraphImportPostgres
import GraphImportSchema

/// A set-based upsert of one entity's objects: the batch is COPYed into a temporary staging
/// table, then one `INSERT … ON CONFLICT … DO UPDATE … WHERE (…) IS DISTINCT FROM (…)` writes
/// the new and the changed rows and leaves the same ones alone, and the counts come back from
/// that statement. One round trip for the rows, one for the statement, whatever the batch's size.
///
/// Within a batch, an object that occurs more than once takes the values of its last occurrence
/// and, when new, its row id in the order of its first, as the SQLite store's writer gives them.
package struct PostgresUpsert: Sendable {
    /// The entity's table.
    package let table: String
    /// The columns of its unique key.
    package let keyColumns: [String]
    /// The other columns the batch writes.
    package let valueColumns: [String]
    /// The run's provenance columns (`inserted_run`, `changed_run`), set to the run's id.
    package let insertedRunColumn: String
    package let changedRunColumn: String

    /// Columns written only when a row is inserted (`default`, `always`, `onchange`), after `valueColumns` in each row.
    package let insertOnlyColumns: [String]
    /// The content digest's column, last in each row when there is one: written with the row,
    /// never compared (a row equal value by value is left as it is, its digest with it).
    package let digestColumn: String?

    package init(
        table: String, keyColumns: [String], valueColumns: [String], insertOnlyColumns: [String] = [], insertedRunColumn: String,
        changedRunColumn: String, digestColumn: String? = nil
    ) {
        precondition(!keyColumns.isEmpty, "an upsert needs a key")
        self.table = table
        self.keyColumns = keyColumns
        self.valueColumns = valueColumns
        self.insertOnlyColumns = insertOnlyColumns
        self.insertedRunColumn = insertedRunColumn
        self.changedRunColumn = changedRunColumn
        self.digestColumn = digestColumn
    }

    /// The columns after the key and the values: the insert-only ones, then the digest's.
    private var trailingColumns: [String] { insertOnlyColumns + (digestColumn.map { [$0] } ?? []) }

    /// The staging table: a temporary table dropped at COMMIT, one per table and set of columns
    /// (objects that lack some attributes in the feed keep their stored values: they go through
    /// an upsert of the columns they have, beside the one of those that have them all).
    package var stagingTable: String {
        stagingName("graphimport_batch_", keyColumns + [""] + valueColumns + (trailingColumns.isEmpty ? [] : [""] + trailingColumns), table: table)
    }

    /// The column of the staging table that numbers the batch's rows in the feed's order.
    static let ordinalColumn = "graphimport_ordinal"

    /// The columns COPY fills, in order: the ordinal, the key, the values.
    package var stagingColumns: [String] { [Self.ordinalColumn] + keyColumns + valueColumns + trailingColumns }

    /// Creates the staging table with the target's column types and no constraints, for this transaction.
    package var createStaging: String {
        let columns = (keyColumns + valueColumns + trailingColumns).map(quoteIdentifier).joined(separator: ", ")
        return "CREATE TEMPORARY TABLE IF NOT EXISTS \(quoteIdentifier(stagingTable)) ON COMMIT DROP AS "
            + "SELECT 0::bigint AS \(quoteIdentifier(Self.ordinalColumn)), \(columns) FROM \(quoteIdentifier(table)) WITH NO DATA"
    }

    /// Empties the staging table for the next batch.
    package var clearStaging: String { "TRUNCATE \(quoteIdentifier(stagingTable))" }

    /// The upsert; `$1` is the run's id. Its one row: the batch's distinct objects, how many were
    /// inserted, how many updated (the rest were unchanged).
    package var statement: String {
        let key = keyColumns.map(quoteIdentifier).joined(separator: ", ")
        let written = (keyColumns + valueColumns + trailingColumns).map(quoteIdentifier).joined(separator: ", ")
        let staging = quoteIdentifier(stagingTable)
        let ordinal = quoteIdentifier(Self.ordinalColumn)
        var conflict = "ON CONFLICT (\(key)) DO NOTHING"
        if !valueColumns.isEmpty {
            let values = valueColumns.map(quoteIdentifier)
            let assignments = (values + [quoteIdentifier(changedRunColumn)] + (digestColumn.map { [quoteIdentifier($0)] } ?? [])).map {
                "\($0) = EXCLUDED.\($0)"
            }.joined(separator: ", ")
            let stored = values.map { "stored.\($0)" }.joined(separator: ", ")
            let incoming = values.map { "EXCLUDED.\($0)" }.joined(separator: ", ")
            conflict = "ON CONFLICT (\(key)) DO UPDATE SET \(assignments) WHERE ROW(\(stored)) IS DISTINCT FROM ROW(\(incoming))"
        }
        return """
            WITH batch AS (\
            SELECT DISTINCT ON (\(key)) \(written), min(\(ordinal)) OVER (PARTITION BY \(key)) AS first \
            FROM \(staging) ORDER BY \(key), \(ordinal) DESC), \
            upserted AS (\
            INSERT INTO \(quoteIdentifier(table)) AS stored (\(written), \(quoteIdentifier(insertedRunColumn)), \(quoteIdentifier(changedRunColumn))) \
            SELECT \(written), $1::bigint, $1::bigint FROM batch ORDER BY first \
            \(conflict) \
            RETURNING (stored.xmax = 0) AS inserted) \
            SELECT (SELECT count(*) FROM batch), count(*) FILTER (WHERE inserted), count(*) FILTER (WHERE NOT inserted) FROM upserted
            """
    }

    /// How a batch went.
    package struct Counts: Sendable, Equatable {
        package var inserted: Int
        package var updated: Int
        package var unchanged: Int

        package init(inserted: Int, updated: Int, unchanged: Int) {
            self.inserted = inserted
            self.updated = updated
            self.unchanged = unchanged
        }
    }

    /// Writes one batch: `rows` holds, row after row, each object's key values, its values, then its insert-only values
    /// (`keyColumns.count + valueColumns.count + insertOnlyColumns.count` to a row), in the feed's order. Inside a transaction.
    package func write(_ rows: [SQLValue], run: Int64, on connection: PostgresConnection) throws(PostgresError) -> Counts {
        let width = keyColumns.count + valueColumns.count + trailingColumns.count
        precondition(rows.count % width == 0, "rows must be whole")
        try connection.execute(createStaging)
        try connection.execute(clearStaging)
        var staged: [SQLValue] = []
        staged.reserveCapacity(rows.count + rows.count / width)
        for row in 0..<(rows.count / width) {
            staged.append(.integer(Int64(row)))
            staged += rows[(row * width)..<((row + 1) * width)]
        }
        try connection.copy(into: stagingTable, columns: stagingColumns, values: staged)
        let result = try connection.rows(statement, [String(run)])
        guard let row = result.first, row.count == 3, let total = row[0].flatMap({ Int($0) }), let inserted = row[1].flatMap({ Int($0) }),
            let updated = row[2].flatMap({ Int($0) })
        else {
            throw PostgresError(.other, message: "the upsert into \(table) returned no counts")
        }
        return Counts(inserted: inserted, updated: updated, unchanged: total - inserted - updated)
    }
}

/// A staging table's name: `prefix` and an FNV-1a digest of the table and `parts`, so that each
/// gets a table of its own whatever their length (PostgreSQL would cut a long name short).
func stagingName(_ prefix: String, _ parts: [String], table: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in ([table] + parts).joined(separator: "\u{1f}").utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    return prefix + String(hash, radix: 36)
}
