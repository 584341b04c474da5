internal import CLibPQ
internal import CLibPQLoader

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One libpq connection to a PostgreSQL server; closed when released.
///
/// Every failure is a `PostgresError` whose message is scrubbed of the connection string's
/// password. The password itself comes from the string, `PGPASSWORD` or `~/.pgpass`, as libpq reads them.
package final class PostgresConnection {
    let handle: OpaquePointer
    /// Where the connection goes, as given (its `description` is redacted).
    package let location: ConnectionString

    /// Connects, in UTF-8, named `graphimport` in `pg_stat_activity` unless the string names itself.
    /// `defaults` are libpq keywords (`connect_timeout`) that apply unless the string gives them.
    package init(_ location: ConnectionString, defaults: [(keyword: String, value: String)] = []) throws(PostgresError) {
        self.location = location
        try Self.loadLibrary()
        var parseError: UnsafeMutablePointer<CChar>?
        if let options = PQconninfoParse(location.text, &parseError) {
            PQconninfoFree(options)
        } else {
            let message = parseError.map { String(cString: $0) } ?? "out of memory"
            if let parseError { PQfreemem(parseError) }
            throw PostgresError(
                .badConnectionString, message: "the connection string \(location) is not valid: \(location.scrub(message.oneLine()))")
        }
        // `dbname` carries the whole string (expand_dbname): it overrides the keywords before it
        // (the defaults), and the later ones override it.
        let defaults = Self.keepalives + defaults
        let keywords = defaults.map(\.keyword) + ["dbname", "fallback_application_name", "client_encoding"]
        let values = defaults.map(\.value) + [location.text, "graphimport", "UTF8"]
        let connection = Self.withCStrings(keywords) { keywordPointers in
            Self.withCStrings(values) { valuePointers in PQconnectdbParams(keywordPointers, valuePointers, 1) }
        }
        guard let connection else {
            throw PostgresError(.other, message: "cannot connect to \(location): libpq is out of memory")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = location.scrub(String(cString: PQerrorMessage(connection)).oneLine())
            let needsPassword = PQconnectionNeedsPassword(connection) == 1
            PQfinish(connection)
            let kind = PostgresError.connectionKind(message: message, needsPassword: needsPassword)
            // A value libpq refuses (`port=notaport`) is found only when connecting: the string's
            // fault, reported as one that does not parse.
            throw PostgresError(kind, message: kind == .badConnectionString ? "the connection string \(location) is not valid: \(message)" : message)
        }
        // Notices (`relation … already exists, skipping`) would go to stderr: library code prints nothing.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
    }

    deinit { PQfinish(handle) }

    /// TCP keepalives sooner than the system's (two hours idle): a server whose host vanished
    /// while the import waits for a statement's result ends the import within about two
    /// minutes, not hours. The connection string may set others; a unix socket has none.
    static let keepalives: [(keyword: String, value: String)] = [("keepalives_idle", "60"), ("keepalives_interval", "10"), ("keepalives_count", "6")]

    /// The value libpq uses for connection keyword `keyword`, nil when it has none.
    func setting(_ keyword: String) -> String? {
        guard let options = PQconninfo(handle) else { return nil }
        defer { PQconninfoFree(options) }
        var option = options
        while let name = option.pointee.keyword {
            if String(cString: name) == keyword { return option.pointee.val.map { String(cString: $0) } }
            option += 1
        }
        return nil
    }

    /// Opens libpq, which is loaded on the first use of a PostgreSQL store rather than when
    /// graphimport starts, so that runs into SQLite files never load it and its libraries.
    static var libraryLoads: Bool { clibpq_load(nil) == 1 }

    static func loadLibrary() throws(PostgresError) {
        var error: UnsafePointer<CChar>?
        guard clibpq_load(&error) != 1 else { return }
        throw PostgresError(.clientLibraryMissing, message: error.map { String(cString: $0) } ?? "libpq.so.5 could not be loaded")
    }

    /// Runs one or more statements that return no rows (`;`-separated, as psql would).
    package func execute(_ sql: String) throws(PostgresError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Runs one statement with text parameters (`$1`, `$2`, …; nil is NULL) and returns its rows,
    /// each value in PostgreSQL's text form, nil for NULL.
    package func rows(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> [[String?]] {
        let result = Self.withOptionalCStrings(parameters) { pointers in
            PQexecParams(handle, sql, Int32(parameters.count), nil, pointers, nil, nil, 0)
        }
        defer { PQclear(result) }
        try check(result, sql: sql)
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        var rows: [[String?]] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [String?] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                values.append(PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column)))
            }
            rows.append(values)
        }
        return rows
    }

    /// The first value of the first row, or nil when there is no row or it is NULL.
    package func scalar(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> String? {
        try rows(sql, parameters).first?.first ?? nil
    }

    /// The server's major version, e.g. 15.
    package var serverVersion: Int { Int(PQserverVersion(handle)) / 10000 }

    /// Throws the result's error, if it is one: classified by SQLSTATE, or as a lost connection.
    func check(_ result: OpaquePointer?, sql: String) throws(PostgresError) {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        switch status {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_COPY_IN, PGRES_COPY_OUT: return
        default: break
        }
        let sqlState = result.flatMap { PQresultErrorField($0, Self.sqlStateField) }.map { String(cString: $0) }
        let primary = result.flatMap { PQresultErrorField($0, Self.messageField) }.map { String(cString: $0) }
        let message = location.scrub(primary?.oneLine() ?? PostgresError.headline(ofLibpqMessage: String(cString: PQerrorMessage(handle))))
        let kind: PostgresError.Kind =
            if PQstatus(handle) == CONNECTION_BAD || (sqlState == nil && PostgresError.saysConnectionLost(message)) {
                .connectionLost
            } else {
                sqlState.map(PostgresError.kind(sqlState:)) ?? .other
            }
        throw PostgresError(kind, message: message.isEmpty ? "the server closed the connection" : message, sqlState: sqlState, sql: sql)
    }

    /// PG_DIAG_SQLSTATE and PG_DIAG_MESSAGE_PRIMARY (character constants Swift does not import).
    private static let sqlStateField = Int32(UInt8(ascii: "C"))
    private static let messageField = Int32(UInt8(ascii: "M"))

    /// Calls `body` with a NULL-terminated array of C strings that live for the call.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        withOptionalCStrings(strings.map(Optional.some), body)
    }

    /// Calls `body` with C strings (NULL for nil) that live for the call, NULL-terminated.
    private static func withOptionalCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies = strings.map { $0.map { strdup($0) } ?? nil }
        defer { for copy in copies { free(copy) } }
        return body(copies.map { $0.map { UnsafePointer($0) } } + [nil])
    }
}
