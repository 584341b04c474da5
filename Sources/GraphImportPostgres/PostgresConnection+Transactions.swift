internal import GraphImportSchema

/// One transaction per import, and the store's lock: an advisory lock per (database, schema), held
/// until the transaction ends, so that imports from any number of processes and hosts into one
/// store run one after another instead of interleaving.
extension PostgresConnection {
    /// The advisory lock's first key: graphimport's ("gi" in ASCII), so that it does not meet
    /// another program's advisory locks on the same database.
    static let lockClass: Int32 = 0x6769
    /// The first key of the lock under which the store's own tables are made (`lockOwnTables`).
    static let ownTablesLockClass: Int32 = 0x6774

    /// Begins a READ COMMITTED transaction: PostgreSQL's default, named so that a server whose
    /// `default_transaction_isolation` says otherwise changes nothing. Each statement after
    /// `lockStore` then sees every run committed before the lock was granted (`claimRunID`).
    package func begin() throws(PostgresError) { try execute("BEGIN ISOLATION LEVEL READ COMMITTED") }

    /// Commits; the deferred foreign keys are checked here, and a failure rolls back.
    package func commit() throws(PostgresError) { try execute("COMMIT") }

    /// Rolls back; harmless outside a transaction or on a lost connection.
    package func rollback() { try? execute("ROLLBACK") }

    /// Takes the store's lock for the rest of the transaction: at once when `wait` is 0, else
    /// waiting up to `wait` seconds. Another import holding it past that is `.busy`.
    ///
    /// The lock is keyed by the connection's current schema (the first of `search_path`), so
    /// stores in two schemas of one database do not wait for each other.
    package func lockStore(wait seconds: Double) throws(PostgresError) {
        let key = "hashtext(current_schema())"
        if seconds <= 0 {
            let taken = try scalar("SELECT pg_try_advisory_xact_lock(\(Self.lockClass), \(key))")
            guard taken == "t" else {
                throw PostgresError(.busy, message: "another import holds the store's lock", sqlState: "55P03")
            }
            return
        }
        // lock_timeout bounds the wait for a lock; SET LOCAL ends with the transaction.
        try execute("SET LOCAL lock_timeout = \(max(1, waitMilliseconds(seconds)))")
        do {
            _ = try scalar("SELECT pg_advisory_xact_lock(\(Self.lockClass), \(key))")
        } catch {
            if error.kind == .busy {
                throw PostgresError(
                    .busy, message: "another import held the store's lock for longer than --wait (\(seconds) s)", sqlState: error.sqlState)
            }
            throw error
        }
        try execute("SET LOCAL lock_timeout = 0")
    }

    /// Takes the lock under which the store's own tables are made, for the rest of the
    /// transaction: two first runs must not both create them. It is not the store's lock (an
    /// import holds that until it commits) and is held only by the short transactions that may
    /// create those tables; one that holds both takes the store's first.
    package func lockOwnTables() throws(PostgresError) {
        _ = try scalar("SELECT pg_advisory_xact_lock(\(Self.ownTablesLockClass), hashtext(current_schema()))")
    }

    /// Runs `body` with the planner's hash and merge joins off, so that statements joining a
    /// batch's keys with a large table probe its key indexes row by row instead of reading the
    /// whole table, and with JIT compilation off: a table never analyzed (a first import's, or a
    /// store copied before autovacuum came) makes the planner guess hundreds of rows per key, a
    /// cost above `jit_above_cost`, and each statement was compiled with LLVM for tens of
    /// milliseconds that a probe of a few thousand keys never earns back (Benchmarks/README.md,
    /// Session 17). All are set back to the server's own settings afterwards
    /// (a failure ends the transaction, and `SET LOCAL` with it). Only for statements whose one
    /// side is small: an anti-join of a whole table against an unindexed temporary table must not
    /// run under it.
    package func withIndexProbes<T>(_ body: () throws(PostgresError) -> T) throws(PostgresError) -> T {
        try execute("SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off; SET LOCAL jit = off")
        let result = try body()
        try execute("SET LOCAL enable_hashjoin TO DEFAULT; SET LOCAL enable_mergejoin TO DEFAULT; SET LOCAL jit TO DEFAULT")
        return result
    }
}
