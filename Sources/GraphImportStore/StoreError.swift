internal import CSQLite

/// One SQLite error, worded as a sentence:
/// `SQLite error 19: UNIQUE constraint failed: user.id - while executing \`INSERT INTO …\``.
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The primary result code (`extendedCode & 0xff`), e.g. 19 for SQLITE_CONSTRAINT.
    public var code: Int32
    /// The extended result code, e.g. 2067 for SQLITE_CONSTRAINT_UNIQUE.
    public var extendedCode: Int32
    /// SQLite's message (sqlite3_errmsg), or ours when the failure is not SQLite's own.
    public var message: String
    /// The statement that failed, when there was one.
    public var sql: String?

    /// An error from a result code; the primary code is derived from the extended one.
    package init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.code = extendedCode & 0xff
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// Another connection holds a lock we need (SQLITE_BUSY or SQLITE_LOCKED).
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    /// The store or its directory cannot be written (SQLITE_READONLY).
    public var isReadOnly: Bool { code == SQLITE_READONLY }
    /// The disk is full (SQLITE_FULL).
    public var isFull: Bool { code == SQLITE_FULL }
    /// The operating system reported an I/O error (SQLITE_IOERR).
    public var isIOError: Bool { code == SQLITE_IOERR }
    /// The file could not be opened (SQLITE_CANTOPEN), e.g. a missing directory or a symbolic link.
    public var isCantOpen: Bool { code == SQLITE_CANTOPEN }
    /// The file is damaged (SQLITE_CORRUPT).
    public var isCorrupt: Bool { code == SQLITE_CORRUPT }
    /// The file is not a SQLite database (SQLITE_NOTADB).
    public var isNotADatabase: Bool { code == SQLITE_NOTADB }
    /// A row broke a constraint of the store (SQLITE_CONSTRAINT): UNIQUE, NOT NULL, CHECK, FOREIGN KEY.
    public var isConstraint: Bool { code == SQLITE_CONSTRAINT }
    /// Access was denied (SQLITE_PERM or SQLITE_AUTH).
    public var isPermission: Bool { code == SQLITE_PERM || code == SQLITE_AUTH }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql {
            text += " - while executing `\(sql.trimmingWhitespace())`"
        }
        return text
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and newlines (no Foundation).
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
