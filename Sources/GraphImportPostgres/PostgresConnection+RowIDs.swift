internal import GraphImportSchema

/// Row ids known to the client before the rows are written: a batch's new objects get theirs
/// from the table's identity sequence at once, so that they can be COPYed straight into the
/// table with their to-one foreign keys already set (one row version per object), and the rows
/// that point at them know their ids without a second `UPDATE`.
extension PostgresConnection {
    /// Takes `count` ids from the identity sequence of `table`'s `column`, ascending. Ids taken
    /// are never given again, whether the transaction commits or not (as `INSERT` takes them).
    package func reserveRowIDs(table: String, column: String, count: Int) throws(PostgresError) -> [Int64] {
        guard count > 0 else { return [] }
        let rows = try rows(
            "SELECT nextval(pg_get_serial_sequence($1, $2)) AS id FROM generate_series(1, $3::bigint) ORDER BY id",
            [quoteIdentifier(table), column, String(count)])
        var ids: [Int64] = []
        ids.reserveCapacity(count)
        for row in rows {
            guard let text = row.first ?? nil, let id = Int64(text) else { break }
            ids.append(id)
        }
        guard ids.count == count else {
            throw PostgresError(.other, message: "the identity sequence of \(table).\(column) gave \(ids.count) of \(count) row ids")
        }
        return ids
    }
}
