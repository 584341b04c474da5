import GraphImportSchema

/// The read seam on a SQLite store: its connection's cached statements, its read transactions.
public final class SQLiteReader: StoreReader {
    public let store: Store
    public var dialect: SQLDialect { .sqlite }

    public init(store: Store) {
        self.store = store
    }

    public func rows(_ sql: String, _ values: [SQLValue]) throws(ReadError) -> [[SQLValue]] {
        do { return try store.database.rows(sql, values) } catch { throw .sqlite(error) }
    }

    /// Steps a statement of its own, so that `body` may run the cached ones.
    public func scan(_ sql: String, _ values: [SQLValue], _ body: ([SQLValue]) throws(ReadError) -> Bool) throws(ReadError) {
        let statement: Statement
        do {
            statement = try store.database.prepare(sql)
            try statement.bind(values)
        } catch { throw .sqlite(error) }
        let count = statement.columnCount
        while true {
            let more: Bool
            do { more = try statement.step() } catch { throw .sqlite(error) }
            guard more, try body((0..<count).map { statement.column($0) }) else { return }
        }
    }

    public func beginRead() throws(ReadError) {
        do { try store.database.beginRead() } catch { throw .sqlite(error) }
    }

    public func endRead() { store.database.rollback() }

    public func tables() throws(ReadError) -> [String: Set<String>] {
        let rows = try rows(
            "SELECT lower(m.\"name\"), lower(p.\"name\") FROM sqlite_schema AS m JOIN pragma_table_info(m.\"name\") AS p WHERE m.\"type\" = 'table'", [])
        var tables: [String: Set<String>] = [:]
        for row in rows {
            guard case .text(let table) = row[0], case .text(let column) = row[1] else { continue }
            tables[table, default: []].insert(column)
        }
        return tables
    }

    public func meta(_ key: String) throws(ReadError) -> MetaValue? {
        do { return try store.meta(key) } catch { throw .sqlite(error) }
    }
}
