import GraphImportPostgres
import GraphImportSchema

extension PostgresKeyProbe {
    /// The rows of the table that hold some of `keys` (key after key, `keyColumns.count` values
    /// each): per key found, its place in `keys` and the values of `columns`, typed as the SQLite
    /// store gives them. One COPY and one query, whatever the number of keys.
    package func rows(of keys: [SQLValue], columns: [String], on connection: PostgresConnection) throws(PostgresError) -> [(
        place: Int, values: [SQLValue]
    )] {
        guard !keys.isEmpty else { return [] }
        try stage(keys, on: connection)
        return try placed(rowsStatement(columns: columns), on: connection)
    }
}
