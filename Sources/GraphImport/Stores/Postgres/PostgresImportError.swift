import GraphImportMapping
import GraphImportPostgres

/// Why an import into a PostgreSQL store stopped.
public enum PostgresImportError: Error, Sendable {
    /// What stops an import into any store: the feed, a record, the input.
    case importing(ImportError)
    /// The server's or the connection's failure (`PostgresError.kind` tells which).
    case server(PostgresError)
    /// The map asks for what this version does not do on PostgreSQL: each refusal at its map line.
    case unsupported(store: String, message: String, refusals: [Diagnostic])
}
