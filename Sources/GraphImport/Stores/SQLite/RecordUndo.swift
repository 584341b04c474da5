import GraphImportSchema
import GraphImportStore

/// How a store takes back the writes of one record (skipped under `--skip-invalid`).
protocol RecordUndo {
    /// Marks the start of a record.
    func begin() throws(StoreError)
    /// Keeps the record's writes.
    func commit() throws(StoreError)
    /// Takes back every write since `begin()`.
    func rollback() throws(StoreError)
}

/// A record's undo in SQLite: a savepoint inside the run's transaction.
struct SQLiteRecordUndo: RecordUndo {
    let database: Database

    func begin() throws(StoreError) { try database.execute("SAVEPOINT graphimport_record") }
    func commit() throws(StoreError) { try database.execute("RELEASE graphimport_record") }
    func rollback() throws(StoreError) { try database.execute("ROLLBACK TO graphimport_record; RELEASE graphimport_record") }
}
