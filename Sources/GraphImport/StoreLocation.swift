import Foundation
import GraphImportPostgres

/// Where a store is: a SQLite file or a PostgreSQL database, read once from the text of a
/// `--store` (or the `store:` a library caller gives) so that every command and the engine
/// choose the store the same way.
///
/// A libpq URI (`postgresql://…`, `postgres://…`) or keyword string (`host=db1 dbname=feeds`)
/// names PostgreSQL; any other text is a file path, so a file whose name looks like a keyword
/// string is given as `./dbname=x`.
public enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    /// A SQLite store at `path`, as given (relative to the working directory when relative).
    case sqlite(path: String)
    /// A PostgreSQL store; its `description` keeps any password out of messages.
    case postgres(ConnectionString)

    /// The location `store` names: PostgreSQL when it is a connection string, else a file path.
    public init(_ store: String) {
        if let connection = ConnectionString(store) {
            self = .postgres(connection)
        } else {
            self = .sqlite(path: store)
        }
    }

    /// The store used when none is named: beside the map, named after it
    /// (`Mappings/tweets.map` -> `Mappings/tweets.sqlite`), so a cron job finds the same store
    /// whatever its working directory.
    ///
    /// Plain string steps, not Foundation's path functions: `NSString.deletingLastPathComponent`
    /// traps on a one-character path (`--map m`), and `URL(fileURLWithPath:)` reads the working
    /// directory for an empty one. A path whose file name is empty or only an extension keeps
    /// its whole name (`dir/` -> `dir/.sqlite` is never made: `dir.sqlite`).
    public static func defaultSQLitePath(forMap path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let slash = trimmed.lastIndex(of: "/")
        let directory = slash.map { trimmed[..<$0] }
        var file = slash.map { trimmed[trimmed.index(after: $0)...] } ?? trimmed
        if let dot = file.lastIndex(of: "."), dot != file.startIndex { file = file[..<dot] }
        if file.isEmpty { file = "store" }
        switch directory {
        case nil: return file + ".sqlite"
        case let directory? where directory.isEmpty: return "/" + file + ".sqlite"
        case let directory?: return directory + "/" + file + ".sqlite"
        }
    }

    /// The connection string, for a PostgreSQL store.
    public var connection: ConnectionString? {
        if case .postgres(let connection) = self { return connection }
        return nil
    }

    /// The file's path, for a SQLite store.
    public var sqlitePath: String? {
        if case .sqlite(let path) = self { return path }
        return nil
    }

    /// The path, or the connection string with its password replaced by `***`: what a message shows.
    public var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let connection): connection.description
        }
    }
}
