internal import CLibPQ
internal import GraphImportSchema

/// The commit of an import whose connection is lost on the way: the reply may be what was lost,
/// not the commit, and an import that committed must not say that nothing was written.
extension PostgresConnection {
    /// Commits the transaction that marked run `runID` `succeeded`. When the connection is lost,
    /// a new one waits until the old session has ended and reads the run's row: `succeeded` only
    /// if the commit happened (then this returns), else the loss is thrown; `.commitUncertain`
    /// when no new connection can tell.
    package func commitRun(_ runID: Int64) throws(PostgresError) {
        let backend = PQbackendPID(handle)
        do {
            try commit()
        } catch let lost {
            guard lost.kind == .connectionLost else { throw lost }
            let outcome: String?
            do {
                let other = try reopened()
                // Waits (up to 10 s) for the old session to end, so that its commit is done or undone.
                _ = try other.scalar("SELECT pg_terminate_backend($1::int, 10000)", [String(backend)])
                outcome = try other.scalar("SELECT \"outcome\" FROM \(quoteIdentifier(InternalTable.runs)) WHERE \"id\" = $1", [String(runID)])
            } catch {
                throw PostgresError(
                    .commitUncertain, message: "\(lost.message) during COMMIT: the import may or may not have been committed", sqlState: lost.sqlState,
                    sql: "COMMIT")
            }
            if outcome == RunOutcome.succeeded.rawValue { return }
            throw lost
        }
    }
}
