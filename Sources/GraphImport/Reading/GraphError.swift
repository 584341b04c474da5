import GraphImportMapping
import GraphImportPostgres
import GraphImportSchema
import GraphImportStore

/// Why reading or deleting through an `ObjectGraph` failed, worded as a sentence with a hint.
public struct GraphError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// An entity, attribute or relationship name the map does not have.
        case unknownName
        /// A value asked for as a type it does not have, a key of the wrong length, a to-many
        /// asked for as one object.
        case misuse
        /// Condition text (`Condition(parsing:)`, `export --where`) that does not parse; the
        /// message says at which column.
        case syntax
        /// A `delete deny` rule refused the deletion; nothing was deleted.
        case denied
        /// The stored values do not decode into the Swift type asked for.
        case decoding
        /// The store failed (`store` holds SQLite's error, `server` PostgreSQL's).
        case store
        /// Another import or deletion held the store's lock past the wait, on either store (`store`
        /// or `server` holds the store's own error): retry later.
        case busy
        /// The store does not hold what the map describes: a table under the name an older
        /// graphimport gave it, which an import renames.
        case storeMismatch
    }

    public var kind: Kind
    public var message: String
    public var hint: String?
    /// SQLite's error, for `kind == .store` or `.busy`.
    public var store: StoreError?
    /// PostgreSQL's error, for `kind == .store` or `.busy` on a PostgreSQL store.
    public var server: PostgresError?

    package init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }

    init(_ error: StoreError) {
        self.init(error.isBusy ? .busy : .store, error.description, hint: error.isBusy ? Self.busyHint : nil)
        store = error
    }

    /// What to do about a busy store, either kind.
    static let busyHint = "another import or deletion holds the store; retry later"

    /// A read or a deletion through a graph that was closed.
    public static let closed = GraphError(.misuse, "the graph was closed", hint: "open a new ObjectGraph to read the store again")

    init(_ error: ReadError) {
        switch error {
        case .sqlite(let error as StoreError): self.init(error)
        case .sqlite(let error): self.init(.store, error.description)
        case .server(is ClosedReader.Closed): self = .closed
        case .server(let error):
            let failure = error as? PostgresError
            let busy = failure?.kind == .busy
            self.init(busy ? .busy : .store, failure?.message ?? error.description, hint: busy ? Self.busyHint : nil)
            server = failure
        }
    }

    /// A run's failure (`StoreSession`, `ObjectGraph.delete`), the same kind of graph error as a
    /// read's on either store, the store's own error kept.
    init(_ error: ImportError) {
        switch error {
        case .store(_, let failure):
            let busy = failure.kind == .busy
            self.init(busy ? .busy : .store, failure.message, hint: busy ? Self.busyHint : nil)
            store = failure.sqlite
            server = failure.server
        case .server(_, let error): self.init(ReadError.server(error))
        case .denied(let denied): self.init(denied)
        default: self.init(.store, error.description)
        }
    }

    public var description: String { message + (hint.map { "; " + $0 } ?? "") }

    /// `Tweet has no attribute 'lnag'` with `did you mean 'lang'?` when a name is close.
    static func unknown(_ what: String, _ name: String, in owner: String, among candidates: [String]) -> GraphError {
        let guess = closestMatch(to: name, among: candidates)
        return GraphError(
            .unknownName, "\(owner) has no \(what) '\(name)'",
            hint: guess.map { "did you mean '\($0)'?" } ?? (candidates.isEmpty ? nil : "it has " + candidates.map { "'\($0)'" }.joined(separator: ", ")))
    }
}

/// Runs store work, turning its error into a `GraphError`.
func reading<T>(_ body: () throws(StoreError) -> T) throws(GraphError) -> T {
    do { return try body() } catch { throw GraphError(error) }
}

/// Runs reads through the store's seam, turning their error into a `GraphError`.
func reading<T>(_ body: () throws(ReadError) -> T) throws(GraphError) -> T {
    do { return try body() } catch { throw GraphError(error) }
}
