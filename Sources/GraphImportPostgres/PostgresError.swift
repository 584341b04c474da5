/// One failure of the PostgreSQL store, worded as a sentence and classified, so that the command
/// line can choose an exit status and a hint. Its message never holds a password: connection
/// strings are scrubbed before one is made.
public struct PostgresError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, in the terms a user acts on.
    public enum Kind: Sendable, Equatable {
        /// The connection string does not parse.
        case badConnectionString
        /// No server answers there: it is not running, or the host, port or socket is wrong.
        case unreachable
        /// The server refused the user: a wrong or missing password, an unknown role, no pg_hba.conf entry.
        case authentication
        /// The database named in the connection string does not exist.
        case noDatabase
        /// The connection was lost in the middle: the server stopped or the network dropped it.
        case connectionLost
        /// The connection was lost during COMMIT and no new connection could tell whether it happened.
        case commitUncertain
        /// A statement ran past `statement_timeout` or was cancelled.
        case timeout
        /// The server's disk is full.
        case diskFull
        /// Another import holds the store's lock, or a lock could not be taken in time.
        case busy
        /// The user may not read or write there (SQLSTATE 42501).
        case permission
        /// A row broke a constraint of the store (SQLSTATE class 23).
        case constraint
        /// A value of the feed PostgreSQL cannot store (a text holding a NUL character).
        case unstorable
        /// libpq itself cannot be loaded (it is opened on the first use of a PostgreSQL store).
        case clientLibraryMissing
        /// Anything else the server or libpq reported.
        case other
    }

    public var kind: Kind
    /// The five-character SQLSTATE, when the server sent one.
    public var sqlState: String?
    /// The server's or libpq's message, one line, scrubbed of passwords.
    public var message: String
    /// The statement that failed, when there was one.
    public var sql: String?

    package init(_ kind: Kind, message: String, sqlState: String? = nil, sql: String? = nil) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
        self.sql = sql
    }

    /// The kind of a server error with this SQLSTATE.
    static func kind(sqlState: String) -> Kind {
        switch sqlState {
        case "57P01", "57P02", "57P03": .connectionLost  // admin_shutdown, crash_shutdown, cannot_connect_now
        case "57014": .timeout  // query_canceled, statement_timeout among its causes
        case "53100": .diskFull
        case "55P03", "40P01", "40001": .busy  // lock_not_available, deadlock_detected, serialization_failure
        case "28P01", "28000": .authentication
        case "3D000": .noDatabase
        case "42501": .permission
        default:
            if sqlState.hasPrefix("08") { .connectionLost } else if sqlState.hasPrefix("23") { .constraint } else { .other }
        }
    }

    /// Whether libpq's own message (no SQLSTATE: the client found it) says the connection is gone,
    /// which it may say before the connection's status turns bad.
    static func saysConnectionLost(_ message: String) -> Bool {
        ["server closed the connection unexpectedly", "no connection to the server", "could not receive data from server", "could not send data to server"]
            .contains { message.contains($0) }
    }

    /// The kind of a failed connection, from libpq's message (no SQLSTATE reaches the client then).
    static func connectionKind(message: String, needsPassword: Bool) -> Kind {
        if needsPassword { return .authentication }
        let lowered = message.lowercased()
        // libpq's checks of the string's values: `invalid integer value "x" for connection option
        // "port"`, `invalid sslmode value: "x"`, `invalid port number: "x"`.
        if lowered.hasPrefix("invalid ") || lowered.contains("for connection option") { return .badConnectionString }
        if lowered.contains("authentication failed") || lowered.contains("no pg_hba.conf entry")
            || lowered.contains("password") || (lowered.contains("role \"") && lowered.contains("does not exist"))
        {
            return .authentication
        }
        if lowered.contains("database \"") && lowered.contains("does not exist") { return .noDatabase }
        if lowered.contains("permission denied") { return .permission }
        return .unreachable
    }

    /// The first line of libpq's own message, without its severity: a lost connection's
    /// `FATAL:  terminating connection due to administrator command` (then `CONTEXT:` and
    /// `server closed the connection unexpectedly` lines, and their explanation) in one line.
    static func headline(ofLibpqMessage raw: String) -> String {
        let first = raw.split(separator: "\n").first { !$0.allSatisfy(\.isWhitespace) } ?? ""
        for severity in ["FATAL:", "ERROR:", "PANIC:"] where first.hasPrefix(severity) {
            return String(first.dropFirst(severity.count)).oneLine()
        }
        return String(first).oneLine()
    }

    public var description: String {
        var text = "PostgreSQL error\(sqlState.map { " \($0)" } ?? ""): \(message)"
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }
}

extension String {
    /// libpq's multi-line message as one line: line breaks and tabs folded, spaces collapsed.
    func oneLine() -> String {
        split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ")
    }
}
