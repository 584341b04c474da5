import GraphImportPostgres
import GraphImportStore

extension StoreUnderTest {
    /// The rows of a query that both stores answer alike (plain SQL, its own ORDER BY), each
    /// value as text (NULL as `NULL`), in the order the query gives them.
    public func textRows(_ sql: String) throws -> [[String]] {
        switch kind {
        case .sqlite:
            let database = try Database(path: location, options: .init(create: false, readOnly: true))
            return try database.rows(sql).map { row in
                row.map { value in
                    switch value {
                    case .null: "NULL"
                    case .integer(let number): String(number)
                    case .real(let number): "\(number)"
                    case .text(let text): text
                    case .blob(let bytes): "\\x" + bytes.map { String($0, radix: 16) }.joined()
                    }
                }
            }
        case .postgresql:
            let connection = try PostgresConnection(ConnectionString(location)!)
            return try connection.rows(sql).map { row in row.map { $0 ?? "NULL" } }
        }
    }
}
