internal import CSQLite
import GraphImportSchema

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One SQLite connection: owns its `sqlite3*` handle and closes it in `deinit`,
/// also when opening failed (SQLite hands back a handle that must be released either way).
package final class Database {
    /// How a store file is opened.
    package struct Options: Sendable {
        /// Create the file when it does not exist (ignored when `readOnly`).
        package var create = true
        /// Open without write access; writes then fail with `isReadOnly`. Where this user may
        /// write the file and its directory, the connection is read-write with `PRAGMA
        /// query_only`, so that, as the last connection to close, it removes the -wal and -shm
        /// files (a read-only connection cannot, and leaves them beside the store).
        package var readOnly = false
        /// Seconds to wait for another connection's lock before failing with `isBusy`.
        package var busyTimeout: Double = 30
        /// Put the store in write-ahead-log mode (ignored when `readOnly`). Off, the connection
        /// keeps the mode the file has: the rollback journal for a new file.
        package var writeAheadLog = true

        /// Options with SQLite-friendly defaults: create, read-write, 30 s busy timeout, WAL.
        package init(create: Bool = true, readOnly: Bool = false, busyTimeout: Double = 30, writeAheadLog: Bool = true) {
            self.create = create
            self.readOnly = readOnly
            self.busyTimeout = busyTimeout
            self.writeAheadLog = writeAheadLog
        }
    }

    /// The path the connection was opened with.
    package let path: String
    let handle: OpaquePointer
    var statementCache: [String: Statement] = [:]

    /// Process-wide settings, made once before the first connection opens.
    private static let configured: Bool = graphimport_disable_memory_statistics() == SQLITE_OK

    /// Opens (and by default creates) the store at `path`, refusing a symbolic link.
    package init(path: String, options: Options = .init()) throws(StoreError) {
        self.path = path
        // SQLITE_OPEN_NOFOLLOW: a symlinked store path is refused rather than written through.
        // SQLITE_OPEN_EXRESCODE: extended result codes from the very first call.
        // SQLITE_OPEN_NOMUTEX: a Database is not Sendable, so one thread uses a connection at a
        // time; SQLite's own lock around every call on it (two per bind, step or column read)
        // only cost time.
        _ = Database.configured
        var flags = SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOMUTEX
        if options.readOnly && !Database.mayWrite(path) {
            flags |= SQLITE_OPEN_READONLY
        } else if options.readOnly {
            flags |= SQLITE_OPEN_READWRITE
        } else {
            flags |= SQLITE_OPEN_READWRITE | (options.create ? SQLITE_OPEN_CREATE : 0)
        }
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let error = Database.openError(code: code, handle: opened, path: path)
            // "Whether or not an error occurs when it is opened, resources associated with the
            // database connection handle should be released by passing it to sqlite3_close()."
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        // From here on, deinit closes the handle if configuration fails.
        do {
            try configure(options)
        } catch {
            // The first PRAGMA reads the file: a file that is no database, or a damaged one, fails
            // here, and the pragma's text would only distract from that.
            var failure = error
            failure.sql = nil
            throw failure
        }
    }

    deinit {
        // Statements must be finalized before the connection closes; close_v2 also defers the
        // close until any statement still held elsewhere is finalized.
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    private func configure(_ options: Options) throws(StoreError) {
        try check(sqlite3_extended_result_codes(handle, 1))
        try check(sqlite3_busy_timeout(handle, waitMilliseconds(options.busyTimeout)))
        try check(graphimport_disable_double_quoted_strings(handle))
        try execute("PRAGMA foreign_keys = ON")
        // "When query_only is enabled, any attempt to CREATE, DELETE, DROP, INSERT, or UPDATE
        // will cause an SQLITE_READONLY error" (https://www.sqlite.org/pragma.html#pragma_query_only).
        if options.readOnly { try execute("PRAGMA query_only = ON") }
        // An import touches every index of every mapped table. 32 MiB of page cache (a negative
        // size is in KiB) is most of a run's memory budget; a bigger cache raised peak memory at
        // 1M tweets for no measurable speed, the indexes being far bigger than either and pages
        // missed coming back from the OS's file cache (Benchmarks/README.md).
        try execute("PRAGMA cache_size = -32768")
        // Write-ahead logging, so that readers never wait for an import. An import is one
        // transaction; with the rollback journal, once its changes outgrow the page cache SQLite
        // writes them into the store and holds the EXCLUSIVE lock until COMMIT, and every reader
        // fails with "database is locked" for the rest of the run. In WAL mode "readers do not
        // block writers and a writer does not block readers" (https://www.sqlite.org/wal.html):
        // changed pages go to the -wal file, which the last connection to close copies back
        // and deletes. The mode is kept in the file, so it is set once; a read-only connection
        // cannot set it, and need not.
        // The switch writes the file's header: a caller that may still refuse the store opens
        // without it and calls `enterWriteAheadLog` once its checks have passed.
        if !options.readOnly && options.writeAheadLog {
            try enterWriteAheadLog()
        }
        // temp_store stays the default (files): a sort bigger than the page cache, such as
        // building a deferred index over a million rows, spills to a temporary file rather than
        // to the heap, where it would take the run's peak memory past its budget (Benchmarks/README.md).
    }

    /// Puts the store in WAL mode (see `configure`), unless another connection is writing it in
    /// the rollback journal's mode (a new store's first import): changing the mode needs the
    /// store to itself, and SQLite refuses at once rather than wait. This connection then keeps
    /// the file's mode and waits for the write lock as usual; a later import turns the store to WAL.
    package func enterWriteAheadLog() throws(StoreError) {
        do {
            try execute("PRAGMA journal_mode = WAL")
        } catch {
            guard error.isBusy else { throw error }
        }
    }

    /// True when the connection cannot write the store (opened read-only).
    package var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Whether this user may write the file at `path` and its directory (where SQLite puts the
    /// -wal and -shm files and removes them).
    private static func mayWrite(_ path: String) -> Bool {
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        return access(path, W_OK) == 0 && access(directory.isEmpty ? "/" : directory, W_OK) == 0
    }

    /// The rowid of the most recent successful INSERT on this connection.
    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows modified by the most recent INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes64(handle)) }

    /// True between BEGIN and COMMIT/ROLLBACK (the connection is not in autocommit mode).
    package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Throws the connection's current error unless `code` is SQLITE_OK.
    func check(_ code: Int32, sql: String? = nil) throws(StoreError) {
        guard code != SQLITE_OK else { return }
        throw error(code: code, sql: sql)
    }

    /// The connection's current error for a failed call that returned `code`.
    func error(code: Int32, sql: String?) -> StoreError {
        StoreError(extendedCode: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    private static func openError(code: Int32, handle: OpaquePointer?, path: String) -> StoreError {
        let failed = code == SQLITE_OK ? SQLITE_NOMEM : code
        let extended = handle.map { sqlite3_extended_errcode($0) } ?? failed
        var message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(failed))
        message += " at \(path)"
        if extended == cantOpenSymlink {
            message += " (a symbolic link; the store path must be the file itself)"
        }
        return StoreError(extendedCode: extended == SQLITE_OK ? failed : extended, message: message)
    }
}

/// SQLITE_CANTOPEN_SYMLINK, `(SQLITE_CANTOPEN | (6<<8))` in sqlite3.h, a macro Swift does not import.
private let cantOpenSymlink: Int32 = SQLITE_CANTOPEN | (6 << 8)
