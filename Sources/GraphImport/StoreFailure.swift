import GraphImportPostgres
import GraphImportSchema
import GraphImportStore

/// A store error reduced to what a caller acts on: retry later, fix permissions, free space, or a bug.
///
/// A failure both stores can have is this on either store: a busy store, no right to write, a full
/// disk, a refused row (`ImportError.init(store:_:)` makes the PostgreSQL server's so, and keeps
/// the server's report in `server`). The server's failures a SQLite file cannot have (a login,
/// an unreachable host, a lost connection) stay `ImportError.server`.
public struct StoreFailure: Error, Equatable, Sendable {
    public enum Kind: Sendable, Equatable {
        /// Another process holds the store's write lock (SQLite's lock, or PostgreSQL's advisory
        /// lock, a lock timeout, a deadlock or a serialization failure): retry later.
        case busy
        /// The file or its directory cannot be written or created.
        case cannotOpen
        /// The store may not be written: a read-only file or directory, or a PostgreSQL user
        /// without the rights (SQLSTATE 42501).
        case readOnly
        /// The disk is full (on the server, for PostgreSQL).
        case diskFull
        case io
        /// The file is damaged (SQLITE_CORRUPT, or `PRAGMA quick_check` found damage).
        case corrupt
        /// The file is not a SQLite database (SQLITE_NOTADB).
        case notADatabase
        /// The file holds another program's tables and none of graphimport's, and was not adopted.
        case foreign
        /// A row broke a constraint the store has (SQLITE_CONSTRAINT, SQLSTATE class 23).
        case constraint
        /// Anything else SQLite reports.
        case other
    }

    public var kind: Kind
    public var message: String
    /// For a busy store: who holds it, when the run history knows ("graphimport pid 123 on host, run 7 …").
    public var holder: String?
    /// The PostgreSQL server's own report (its SQLSTATE, message and statement), on a PostgreSQL
    /// store; `message` is its message.
    public var server: PostgresError?
    /// SQLite's own error, on a SQLite store, for a caller that keeps it (`GraphError.store`).
    var sqlite: StoreError?

    package init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    init(_ failure: StoreFailure, holder: String?) {
        self = failure
        self.holder = holder
    }

    init(_ error: StoreError, holder: String?) {
        self.init(error)
        self.holder = holder
    }

    /// The failure `error` stands for.
    public init(_ error: StoreError) {
        message = error.description
        sqlite = error
        if error.isBusy {
            kind = .busy
        } else if error.isReadOnly {
            kind = .readOnly
        } else if error.isFull {
            kind = .diskFull
        } else if error.isCantOpen || error.isPermission {
            kind = .cannotOpen
        } else if error.isIOError {
            kind = .io
        } else if error.isCorrupt {
            kind = .corrupt
        } else if error.isNotADatabase {
            kind = .notADatabase
        } else if error.isConstraint {
            kind = .constraint
        } else {
            kind = .other
        }
    }
}

extension StoreFailure {
    /// The failure a SQLite store has too that the server's `error` is, or nil for one only a
    /// server has.
    init?(server error: PostgresError) {
        let kind: Kind
        switch error.kind {
        case .busy: kind = .busy
        case .diskFull: kind = .diskFull
        case .permission: kind = .readOnly
        case .constraint: kind = .constraint
        case .badConnectionString, .unreachable, .authentication, .noDatabase, .connectionLost, .commitUncertain, .timeout, .unstorable,
            .clientLibraryMissing, .other:
            return nil
        }
        self.init(kind: kind, message: error.message)
        server = error
    }
}

extension ImportError {
    /// The import's error for the PostgreSQL store `store` (shown without its password) that
    /// failed with `error`: `.store` for a failure a SQLite store has too, so that a caller handles
    /// a busy store (or a full disk, or no right to write) in one place for both; `.server` for
    /// the rest.
    init(store: String, _ error: PostgresError) {
        if let failure = StoreFailure(server: error) {
            self = .store(store: store, failure)
        } else {
            self = .server(store: store, error)
        }
    }
}
