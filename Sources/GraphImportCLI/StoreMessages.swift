import GraphImport
import GraphImportSchema
import GraphImportStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the commands word a store failure that is no I/O fault, and the exit status of each kind.
enum StoreMessages {
    /// The error line and hint for `failure` of the store at `path`; a nil hint means "nothing was
    /// imported" for an import.
    static func describe(_ failure: StoreFailure, path: String) -> (message: String, hint: String?) {
        switch failure.kind {
        case .corrupt:
            (
                "the store \(path) is damaged: \(failure.message)",
                "nothing was written to it; restore it from a backup, or import into a new store with --store NEW.sqlite"
            )
        case .notADatabase:
            ("\(path) is not a SQLite database: \(failure.message)", "check the --store path; nothing was written to it")
        case .foreign:
            (
                "\(path) is not a graphimport store: \(failure.message)",
                "check the --store path; to import into this database anyway, pass --adopt-store: the map's tables and graphimport_schema, graphimport_runs and graphimport_meta are added beside its tables, which are left as they are"
            )
        case .constraint:
            (
                "the store \(path) refused a row: \(failure.message)",
                "the store has a constraint the map does not declare (added by hand, or by another map); nothing was imported"
            )
        default:
            ("\(path): \(failure.message)", nil)
        }
    }
}

extension StoreMessages {
    /// Warns, on standard error, when the store file has other hard links. SQLite's lock is on the
    /// file, but its rollback journal is named after the path: after a crash, a connection that
    /// opens another name finds no hot journal to roll back and reads a half-written store
    /// (https://www.sqlite.org/howtocorrupt.html#_multiple_links_to_the_same_file).
    static func warnIfHardLinked(_ path: String, io: ToolIO) {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_nlink > 1 else { return }
        io.writeError(
            "graphimport: warning: the store \(escapeControlCharacters(path)) has \(info.st_nlink) hard links: SQLite names its journal after "
                + "the path, so after a crash an import or a reader through another name does not see the journal and may read a half-written store\n"
                + "hint: keep one name for the store: remove the other links (find / -samefile STORE lists them)\n")
    }
}

extension ExitCode {
    /// The exit status of a store failure of `kind`.
    init(_ kind: StoreFailure.Kind) {
        self =
            switch kind {
            case .busy: .temporaryFailure
            case .cannotOpen, .notADatabase, .foreign: .cannotCreate
            case .readOnly: .permission
            case .diskFull, .io, .other: .ioError
            case .corrupt: .damagedStore
            case .constraint: .dataError
            }
    }

    /// The exit status of `error` from a command that reads or writes a store.
    init(_ error: StoreError) { self.init(StoreFailure(error).kind) }
}
