import GraphImportPostgres
import GraphImportStore

/// Why an export could not be made: a request that names what the map lacks or a condition that
/// does not parse (the command line's fault), or the store.
public enum ExportError: Error, Sendable, CustomStringConvertible {
    /// An entity, attribute or relationship the map does not have; the hint names the closest.
    case unknownName(String, hint: String?)
    /// A `--where` condition or `--key` value that cannot be used.
    case badRequest(String, hint: String?)
    /// Reading the store failed.
    case store(StoreError)
    /// Reading a PostgreSQL store failed: the server, or the connection to it.
    case server(PostgresError)
    /// The caller asked the export to stop (SIGINT, SIGTERM): what was written is a part.
    case interrupted

    public var message: String {
        switch self {
        case .unknownName(let message, _), .badRequest(let message, _): message
        case .store(let error): error.description
        case .server(let error): error.message
        case .interrupted: "interrupted: the export is incomplete"
        }
    }

    public var hint: String? {
        switch self {
        case .unknownName(_, let hint), .badRequest(_, let hint): hint
        case .store, .server, .interrupted: nil
        }
    }

    public var description: String { message }

    /// A failed read of either store.
    init(_ error: ReadError) {
        switch error {
        case .sqlite(let error): self = .store(error)
        case .server(let error): self = (error as? PostgresError).map(ExportError.server) ?? .badRequest(error.description, hint: nil)
        }
    }

    /// A `--where` condition's error as the request's: an unknown name stays one (with its hint).
    init(_ error: GraphError) {
        switch error.kind {
        case .unknownName: self = .unknownName(error.message, hint: error.hint)
        case .store: self = error.store.map(ExportError.store) ?? error.server.map(ExportError.server) ?? .badRequest(error.message, hint: error.hint)
        case .misuse, .syntax, .denied, .decoding: self = .badRequest(error.message, hint: error.hint)
        }
    }
}
