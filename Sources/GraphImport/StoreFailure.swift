import GraphImportSchema
import GraphImportStore

/// A store error reduced to what a caller acts on: retry later, fix permissions, free space, or a bug.
public struct StoreFailure: Error, Equatable, Sendable {
    public enum Kind: Sendable, Equatable {
        /// Another process holds the store's write lock.
        case busy
        /// The file or its directory cannot be written or created.
        case cannotOpen
        case readOnly
        case diskFull
        case io
        /// The file is damaged (SQLITE_CORRUPT, or `PRAGMA quick_check` found damage).
        case corrupt
        /// The file is not a SQLite database (SQLITE_NOTADB).
        case notADatabase
        /// The file holds another program's tables and none of graphimport's, and was not adopted.
        case foreign
        /// A row broke a constraint the store has (SQLITE_CONSTRAINT).
        case constraint
        /// Anything else SQLite reports.
        case other
    }

    public var kind: Kind
    public var message: String
    /// For a busy store: who holds it, when the run history knows ("graphimport pid 123 on host, run 7 …").
    public var holder: String?

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
