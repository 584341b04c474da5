import GraphImportJSON
import GraphImportMapping
import GraphImportPostgres

/// A record that cannot be imported: where it is, which value, and why.
///
/// Rendered as `record 41 (line 12, column 3): User.createdAt: 'x' is not a date … (at $[41].user.created_at)`.
public struct RecordError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 0-based ordinal of the record in the input.
    public var recordIndex: Int
    /// Where the record starts in the input.
    public var position: JSONPosition
    /// The JSON path of the offending value, from the document's root (`$[41].user.created_at`).
    public var path: String
    /// `Entity.member` the value was meant for, when there is one.
    public var member: String?
    public var message: String
    public var hint: String?

    package init(recordIndex: Int, position: JSONPosition, path: String, member: String?, message: String, hint: String?) {
        self.recordIndex = recordIndex
        self.position = position
        self.path = path
        self.member = member
        self.message = message
        self.hint = hint
    }

    public var description: String {
        "record \(recordIndex) (\(position)): " + (member.map { "\($0): " } ?? "") + message + " (at \(path))"
    }
}

/// Why an import stopped. Each case maps to one exit status in the command line.
public enum ImportError: Error, Sendable, CustomStringConvertible {
    /// The input is not well-formed JSON (or could not be read).
    case json(JSONError)
    /// A record does not fit the map, under the stop-on-first-error policy.
    case record(RecordError)
    /// The store refuses the map's schema; nothing was changed. Each refusal is placed at the map
    /// line that asks for the change, with what to do as its hint.
    case migration(store: String, refusals: [Diagnostic])
    /// The store holds a table under an older graphimport's name that cannot be renamed to the
    /// map's (the store has both names, or the map gives the older one to another table);
    /// nothing was changed. Each refusal at the entity's line, with what to do.
    case storeConflict(store: String, refusals: [Diagnostic])
    /// The store failed while opening, reading or writing it, either kind (`StoreFailure.kind`
    /// tells what to do: a busy store is `.busy` on both); `store` is the SQLite path or the
    /// PostgreSQL connection string as shown, without its password.
    case store(store: String, StoreFailure)
    /// The PostgreSQL server or the connection to it failed in a way a SQLite file cannot (a login,
    /// an unreachable host, a lost connection: `PostgresError.kind` tells which); `store` is the
    /// connection string as shown, without its password.
    case server(store: String, PostgresError)
    /// The map asks for what this version does not do on the store: each refusal at its map line.
    case unsupported(store: String, message: String, refusals: [Diagnostic])
    /// The input held no JSON at all and that was not allowed.
    case emptyInput
    /// The map's records paths fit nothing in the input (`path` is the first that does not),
    /// or one meets a value of the wrong kind; `position` is where the walk stopped.
    case noRecords(path: String, message: String, hint: String?, position: JSONPosition)
    /// A response-level value for `meta` does not convert.
    case meta(name: String, message: String, hint: String?)
    /// A `delete deny` rule forbids deleting an object the feed no longer holds.
    case denied(DeletionDenied)
    /// `isCancelled` said stop (the process got SIGINT or SIGTERM); nothing was written.
    case interrupted
    /// An error graphimport does not expect: a bug.
    case internalError(String)

    public var description: String {
        switch self {
        case .json(let error): error.description
        case .record(let error): error.description
        case .migration(let store, let refusals):
            "the store \(store) cannot be migrated to this map: " + refusals.map(\.message).joined(separator: "; ")
        case .storeConflict(let store, let refusals):
            "the store \(store) holds tables this map's names cannot be matched with: " + refusals.map(\.message).joined(separator: "; ")
        case .store(let store, let failure): failure.server?.description ?? "\(store): \(failure.message)"
        case .server(_, let error): error.description
        case .unsupported(_, let message, let refusals): ([message] + refusals.map(\.description)).joined(separator: "\n")
        case .emptyInput: "the input is empty"
        case .noRecords(_, let message, _, let position): "\(position): \(message)"
        case .meta(let name, let message, _): "metadata '\(name)': \(message)"
        case .denied(let denied): denied.message
        case .interrupted: "interrupted"
        case .internalError(let message): "internal error: \(message)"
        }
    }
}
