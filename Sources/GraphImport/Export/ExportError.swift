import GraphImportPostgres
import GraphImportSchema
import GraphImportStore

/// Why an export could not be made: a request that names what the map lacks or a condition that
/// does not parse (the command line's fault), or the store.
public enum ExportError: Error, Sendable, CustomStringConvertible {
    /// An entity, attribute or relationship the map does not have; the hint names the closest.
    case unknownName(String, hint: String?)
    /// A `--where` condition or `--key` value that cannot be used.
    case badRequest(String, hint: String?)
    /// Reading the store failed in a way both stores can have (busy, no right to read, a damaged
    /// file, an I/O error), whichever store it was: its `kind` says what to do, and on a PostgreSQL
    /// store its `server` holds the server's own report, as an import's `ImportError.store` does.
    case store(StoreFailure)
    /// Reading a PostgreSQL store failed in a way only a server has (a login, an unreachable host,
    /// a lost connection, a timeout).
    case server(PostgresError)
    /// The store does not hold what the map describes: another program's database, or a store
    /// made by another map (or an older version of this one) that lacks a table or column.
    case storeMismatch(String, hint: String)
    /// The caller asked the export to stop (SIGINT, SIGTERM): what was written is a part.
    case interrupted

    public var message: String {
        switch self {
        case .unknownName(let message, _), .badRequest(let message, _), .storeMismatch(let message, _): message
        case .store(let failure): failure.message
        case .server(let error): error.message
        case .interrupted: "interrupted: the export is incomplete"
        }
    }

    public var hint: String? {
        switch self {
        case .unknownName(_, let hint), .badRequest(_, let hint): hint
        case .storeMismatch(_, let hint): hint
        case .store, .server, .interrupted: nil
        }
    }

    public var description: String { message }

    /// The server's own report, whichever case holds it (nil on a SQLite store).
    package var serverReport: PostgresError? {
        switch self {
        case .store(let failure): failure.server
        case .server(let error): error
        default: nil
        }
    }

    /// The export's error for a failed read of a PostgreSQL store: `.store` for a failure a SQLite
    /// store has too (the rule `ImportError.init(store:_:)` follows), `.server` for the rest.
    init(server error: PostgresError) {
        self = StoreFailure(server: error).map(ExportError.store) ?? .server(error)
    }

    /// A failed read of either store.
    init(_ error: ReadError) {
        switch error {
        case .sqlite(let error as StoreError): self = .store(StoreFailure(error))
        case .sqlite(let error): self = .badRequest(error.description, hint: nil)
        case .server(let error): self = (error as? PostgresError).map(ExportError.init(server:)) ?? .badRequest(error.description, hint: nil)
        }
    }

    /// A `--where` condition's error as the request's: an unknown name stays one (with its hint).
    init(_ error: GraphError) {
        switch error.kind {
        case .unknownName: self = .unknownName(error.message, hint: error.hint)
        case .store, .busy:
            self = error.store.map { .store(StoreFailure($0)) } ?? error.server.map(ExportError.init(server:)) ?? .badRequest(error.message, hint: error.hint)
        case .storeMismatch: self = .storeMismatch(error.message, hint: error.hint ?? "")
        case .misuse, .syntax, .denied, .decoding: self = .badRequest(error.message, hint: error.hint)
        }
    }
}

extension ExportError {
    /// The first way the store's tables (`stored`, by lower-cased name, with their lower-cased
    /// columns) fall short of `schema`, the map's: nil when every table and column is there.
    /// Found before any query, so that a store of another map or program is not an SQL error.
    static func mismatch(of stored: [String: Set<String>], with schema: SchemaDescription) -> ExportError? {
        guard stored[InternalTable.schema] != nil else {
            return .storeMismatch(
                "it is not a graphimport store: it holds no \(InternalTable.schema) table",
                hint: "name a store graphimport imported into with --store (by default the one beside the map)")
        }
        var missing: [String] = []
        for table in schema.tables {
            guard let columns = stored[table.name.lowercased()] else {
                missing.append("no table '\(table.name)'")
                continue
            }
            var names = table.columns.map(\.name)
            if case .rowid(let key) = table.primaryKey { names.insert(key, at: 0) }
            for name in names where !columns.contains(name.lowercased()) { missing.append("no column '\(table.name).\(name)'") }
        }
        guard let first = missing.first else { return nil }
        let more = missing.count > 1 ? " (and \(missing.count - 1) more missing)" : ""
        return .storeMismatch(
            "the store was not made by this map: it has \(first)\(more)",
            hint: "export with the map that made the store, or import with this map first (an import adds what the map adds)")
    }
}
