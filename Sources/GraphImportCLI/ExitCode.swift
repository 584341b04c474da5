/// The exit statuses, in the sysexits tradition, so that a cron wrapper can tell
/// "retry later" (75) from "fix the feed" (65) from "fix the map" (78).
package enum ExitCode: Int32, CaseIterable, Sendable {
    case ok = 0
    /// `meta get`: the key is not set and no `--default` was given.
    case notFound = 1
    /// The import completed, but some records were skipped under `--skip-invalid`.
    case partial = 3
    /// The command line is wrong.
    case usage = 64
    /// The input is not valid JSON, a record does not fit the map, or the map's records paths
    /// (or a required meta value) find nothing in it.
    case dataError = 65
    /// The input file or the map file does not exist or cannot be read.
    case noInput = 66
    /// A bug in graphimport.
    case software = 70
    /// The store is damaged: SQLite reports corruption, or `PRAGMA quick_check` finds it
    /// (EX_OSFILE: a file the tool depends on has an error). Restore it from a backup.
    case damagedStore = 72
    /// The store cannot be created or opened at that path, or the file there is not a store.
    case cannotCreate = 73
    /// Reading or writing the store failed (disk full, I/O error).
    case ioError = 74
    /// The store is locked by another import; try again later.
    case temporaryFailure = 75
    /// The store or its directory is not writable.
    case permission = 77
    /// The map has errors, or the store cannot be migrated to it.
    case configuration = 78

    /// One line for `--help`.
    var meaning: String {
        switch self {
        case .ok: "success (also: nothing changed, or --if-changed found the same input)"
        case .notFound: "meta get: the key is not set (and no --default)"
        case .partial: "imported, but some records were skipped (--skip-invalid)"
        case .usage: "the command line is wrong"
        case .dataError:
            "the input is not valid JSON, a record does not fit the map, or the map's records paths match nothing in it (check --strict: the sample does not fit)"
        case .noInput: "the input, the sample or the map cannot be read"
        case .software: "internal error (a bug: please report it)"
        case .damagedStore: "the store is damaged (SQLite reports corruption); restore it from a backup"
        case .cannotCreate: "the store cannot be created or opened, or the file is not a graphimport store"
        case .ioError: "reading or writing the store failed (disk full, I/O error)"
        case .temporaryFailure: "the store is busy (another import holds it), or the import was interrupted; retry later"
        case .permission: "the store or its directory is not writable"
        case .configuration: "the map has errors, or the store cannot be migrated to it"
        }
    }
}
