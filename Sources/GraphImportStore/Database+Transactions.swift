internal import CSQLite
import GraphImportSchema

extension Database {
    /// Starts a write transaction now (BEGIN IMMEDIATE), waiting up to `busyTimeout` for
    /// another writer, so a busy store is reported before any work instead of at COMMIT.
    package func beginImmediate() throws(StoreError) {
        try execute("BEGIN IMMEDIATE")
    }

    /// Starts a read transaction (BEGIN, deferred): until it ends, every read sees the store as
    /// it was committed at the first one, whatever commits meanwhile. End it with `rollback()`.
    package func beginRead() throws(StoreError) {
        try execute("BEGIN")
    }

    /// Commits; when COMMIT fails the transaction is rolled back, never left open.
    ///
    /// SQLite keeps the transaction open after a deferred foreign key violation at COMMIT
    /// ("the transaction remains active"); one transaction per import means rolling back here.
    package func commit() throws(StoreError) {
        do {
            try execute("COMMIT")
        } catch {
            rollback()
            throw error
        }
    }

    /// Rolls back the open transaction, if any. Never throws: it is the cleanup path.
    package func rollback() {
        guard isInTransaction else { return }
        try? execute("ROLLBACK")
    }
}
