import GraphImportSchema
import GraphImportStore

/// One statement a store runs often, known by its purpose: its SQL text, and the statement
/// prepared from it on first use. Looking a statement up by its text hashed the text every time.
struct StatementSlot {
    let sql: String
    private var prepared: Statement?

    init(_ sql: String) { self.sql = sql }

    /// The statement, prepared on `database` the first time.
    mutating func statement(_ database: Database) throws(StoreError) -> Statement {
        if let prepared { return prepared }
        let statement = try database.prepare(sql)
        prepared = statement
        return statement
    }
}
