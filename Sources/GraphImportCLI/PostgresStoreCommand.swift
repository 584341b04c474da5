import GraphImport
import GraphImportMapping
import GraphImportPostgres

/// `--store postgresql://…` (or a libpq keyword string such as `host=db1 dbname=feeds`) on the
/// command line: how its failures read, with which exit status.
///
/// The store is always shown by `ConnectionString.description`: its password is `***`.
enum PostgresStoreCommand {
    /// Prints a PostgreSQL failure and returns its exit status.
    static func fail(_ error: PostgresError, store: ConnectionString, io: ToolIO) -> ExitCode {
        let failure = report(error, store: store.description)
        failure.write(io: io)
        return failure.status
    }

    /// How an import refused because the map asks for what the store does not do is shown.
    static func unsupported(store: String, message: String, refusals: [Diagnostic]) -> FailureReport {
        var failure = FailureReport(
            .configuration, "\(store): \(message); nothing was imported", hint: refusals.isEmpty ? "import into a SQLite store meanwhile" : nil)
        failure.details = refusals.map(\.description)
        return failure
    }

    /// How a PostgreSQL failure is shown, and its exit status (the table in README.md).
    static func report(_ error: PostgresError, store: String) -> FailureReport {
        let unchanged = "nothing was written; the database is as it was"
        switch error.kind {
        case .badConnectionString:
            return FailureReport(.usage, error.message, hint: "write a libpq URI (postgresql://user@host/db) or keyword string (host=… dbname=…)")
        case .unreachable:
            return FailureReport(
                .temporaryFailure, "cannot reach the PostgreSQL server of \(store): \(error.message)",
                hint: "check that the server is running and the host, port or socket directory; retry later")
        case .authentication:
            return FailureReport(
                .permission, "the PostgreSQL server refused the login to \(store): \(error.message)",
                hint: "check the user, and the password in PGPASSWORD or ~/.pgpass (not on the command line)")
        case .noDatabase:
            return FailureReport(.cannotCreate, "the database of \(store) does not exist: \(error.message)", hint: "create it first (createdb NAME)")
        case .connectionLost:
            return FailureReport(
                .temporaryFailure, "the connection to \(store) was lost: \(error.message)", hint: "retry when the server is back; \(unchanged)")
        case .commitUncertain:
            return FailureReport(
                .temporaryFailure, "the connection to \(store) was lost: \(error.message)",
                hint: "graphimport runs tells: the run is succeeded if it was committed, running if not; importing again is safe")
        case .timeout:
            return FailureReport(
                .temporaryFailure, "a statement on \(store) was cancelled: \(error.message)",
                hint: "raise statement_timeout for this user, or retry later; \(unchanged)")
        case .busy:
            return FailureReport(.temporaryFailure, "the store \(store) is busy: \(error.message)", hint: "retry later, or wait longer with --wait SECONDS")
        case .diskFull:
            return FailureReport(
                .ioError, "the PostgreSQL server's disk is full while writing \(store): \(error.message)",
                hint: "free space on the server, then retry; \(unchanged)")
        case .permission:
            return FailureReport(
                .permission, "the PostgreSQL user may not write \(store): \(error.message)",
                hint: "grant the user CREATE and USAGE on the schema, and rights on its tables")
        case .unstorable:
            return FailureReport(
                .dataError, "\(store): \(error.message)", hint: "remove the character from the feed, or import into a SQLite store; \(unchanged)")
        case .clientLibraryMissing:
            return FailureReport(
                .configuration, "\(store): PostgreSQL's client library cannot be loaded: \(error.message)",
                hint: "install libpq (Debian and Ubuntu: apt-get install libpq5)")
        case .constraint, .other:
            return FailureReport(.ioError, "\(store): \(error.message)", hint: unchanged)
        }
    }
}
