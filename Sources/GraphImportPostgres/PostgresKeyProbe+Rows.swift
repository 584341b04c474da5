public import GraphImportStore

extension PostgresKeyProbe {
    /// The statement that reads `columns` of the rows holding the staged keys, each row after
    /// its key's place.
    public func rowsStatement(columns: [String]) -> String {
        let read = ["p.\(quoteIdentifier(PostgresUpsert.ordinalColumn))"] + columns.map { "t.\(quoteIdentifier($0))" }
        return "SELECT \(read.joined(separator: ", ")) FROM \(quoteIdentifier(stagingTable)) p JOIN \(quoteIdentifier(table)) t ON \(keyMatch)"
    }

    /// The rows of the table that hold some of `keys` (key after key, `keyColumns.count` values
    /// each): per key found, its place in `keys` and the values of `columns`, typed as the SQLite
    /// store gives them. One COPY and one query, whatever the number of keys.
    public func rows(of keys: [SQLValue], columns: [String], on connection: PostgresConnection) throws(PostgresError) -> [(
        place: Int, values: [SQLValue]
    )] {
        guard !keys.isEmpty else { return [] }
        try stage(keys, on: connection)
        let statement = rowsStatement(columns: columns)
        var found: [(place: Int, values: [SQLValue])] = []
        for row in try connection.values(statement, [], statement: nil) {
            guard case .integer(let place)? = row.first else {
                throw PostgresError(.other, message: "the rows of \(table) read by key came without their place")
            }
            found.append((Int(place), Array(row.dropFirst())))
        }
        return found
    }
}
