/// A store read by SQL, SQLite or PostgreSQL: the one seam the read side (export, changes, the read
/// API) goes through, so that one condition compiler, one export walk and one changes query serve
/// both stores.
///
/// The SQL is written once: `?` for each bound value (a PostgreSQL reader numbers them `$1…$n`),
/// quoted identifiers, no string literals; what the two servers spell differently comes from
/// `dialect`. Values come back as SQLite gives them: an integer column as `.integer`, a double as
/// `.real`, text as `.text`, bytes as `.blob`, NULL as `.null`.
package protocol StoreReader: AnyObject {
    var dialect: SQLDialect { get }

    /// Every row of one SELECT, with `values` bound to its `?`s in order.
    func rows(_ sql: String, _ values: [SQLValue]) throws(ReadError) -> [[SQLValue]]

    /// Each row of one SELECT, handed to `body` as it is read, so that memory does not grow with
    /// the result, until `body` returns false; `body` may run other queries of this reader.
    func scan(_ sql: String, _ values: [SQLValue], _ body: ([SQLValue]) throws(ReadError) -> Bool) throws(ReadError)

    /// Starts a read transaction: until `endRead`, every query sees the store as it was committed
    /// at the first one, whatever an import commits meanwhile, and holds up no import.
    func beginRead() throws(ReadError)
    func endRead()

    /// The store's tables, each with its columns, all by lower-cased name.
    func tables() throws(ReadError) -> [String: Set<String>]

    /// The metadata value under `key`, or nil when there is none.
    func meta(_ key: String) throws(ReadError) -> MetaValue?
}

/// What the two stores' SQL spells differently, for SQL the read side writes once.
package enum SQLDialect: Sendable {
    case sqlite, postgresql

    /// True when `left` and `right` differ, a NULL counting as a value (`IS NOT` in SQLite).
    package func isDistinct(_ left: String, _ right: String) -> String {
        switch self {
        case .sqlite: "\(left) IS NOT \(right)"
        case .postgresql: "\(left) IS DISTINCT FROM \(right)"
        }
    }

    /// True when text `part` occurs in text `text` (an empty part occurs in every text).
    package func contains(_ text: String, _ part: String) -> String {
        switch self {
        case .sqlite: "instr(\(text), \(part)) > 0"
        case .postgresql: "strpos(\(text), \(part)) > 0"
        }
    }

    /// A column that orders the rows of a table without a key of its own as they were inserted.
    package var insertionOrder: String {
        switch self {
        case .sqlite: "rowid"
        case .postgresql: "ctid"
        }
    }
}

/// Why reading a store failed: SQLite's error (a `StoreError`), or a server's (a `PostgresError`)
/// as it reported it; each store's own type, which this target does not know.
package enum ReadError: Error, Sendable, CustomStringConvertible {
    case sqlite(any Error & Sendable & CustomStringConvertible)
    case server(any Error & Sendable & CustomStringConvertible)

    package var description: String {
        switch self {
        case .sqlite(let error): error.description
        case .server(let error): error.description
        }
    }
}

extension StoreReader {
    /// The first value of the first row, or nil when there is no row.
    package func scalar(_ sql: String, _ values: [SQLValue] = []) throws(ReadError) -> SQLValue? {
        try rows(sql, values).first?.first
    }
}
