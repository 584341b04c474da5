import GraphImportPostgres
import GraphImportSchema

/// Which of a batch's keys no row of a table holds: the keys are COPYed into a temporary table
/// and anti-joined with the table on its unique key. One COPY and one statement per table and
/// batch, whatever the number of keys (the unknown keys of `link existing`).
package struct PostgresKeyProbe: Sendable {
    package let table: String
    package let keyColumns: [String]

    package init(table: String, keyColumns: [String]) {
        precondition(!keyColumns.isEmpty, "a probe needs a key")
        self.table = table
        self.keyColumns = keyColumns
    }

    package var stagingTable: String { stagingName("graphimport_probe_", keyColumns, table: table) }

    /// COPY's columns: the key's place in the batch, then its values.
    package var stagingColumns: [String] { [PostgresUpsert.ordinalColumn] + keyColumns }

    /// The staging table, typed after the table's key columns; dropped at commit.
    package var createStaging: String {
        let columns = keyColumns.map(quoteIdentifier).joined(separator: ", ")
        return "CREATE TEMPORARY TABLE IF NOT EXISTS \(quoteIdentifier(stagingTable)) ON COMMIT DROP AS "
            + "SELECT 0::bigint AS \(quoteIdentifier(PostgresUpsert.ordinalColumn)), \(columns) FROM \(quoteIdentifier(table)) WITH NO DATA"
    }

    /// The places of the staged keys that no row holds, in order.
    package var statement: String {
        let ordinal = quoteIdentifier(PostgresUpsert.ordinalColumn)
        return "SELECT p.\(ordinal) FROM \(quoteIdentifier(stagingTable)) p "
            + "WHERE NOT EXISTS (SELECT 1 FROM \(quoteIdentifier(table)) t WHERE \(keyMatch)) ORDER BY p.\(ordinal)"
    }

    /// `keys` holds key after key (`keyColumns.count` values each); returns the places in it of
    /// the keys that no row of the table holds.
    package func missing(_ keys: [SQLValue], on connection: PostgresConnection) throws(PostgresError) -> [Int] {
        guard !keys.isEmpty else { return [] }
        try stage(keys, on: connection)
        var places: [Int] = []
        for row in try connection.rows(statement) {
            guard let text = row.first ?? nil, let place = Int(text) else {
                throw PostgresError(.other, message: "the probe of \(table)'s keys returned no place")
            }
            places.append(place)
        }
        return places
    }

    /// A row `t` of the table holds the staged key `p`.
    var keyMatch: String {
        keyColumns.map { "t.\(quoteIdentifier($0)) = p.\(quoteIdentifier($0))" }.joined(separator: " AND ")
    }

    /// Puts `keys` (key after key, numbered by their place) alone into the staging table.
    func stage(_ keys: [SQLValue], on connection: PostgresConnection) throws(PostgresError) {
        try connection.execute(createStaging)
        try connection.execute("TRUNCATE \(quoteIdentifier(stagingTable))")
        var text = PostgresCopyText()
        let width = keyColumns.count
        for row in 0..<(keys.count / width) {
            text.append(Int64(row))
            text.append(keys[(row * width)..<((row + 1) * width)])
            text.endRow()
        }
        try connection.copy(into: stagingTable, columns: stagingColumns, text: text)
    }
}
