import Foundation
import GraphImport
import GraphImportJSON
import GraphImportMapping
import GraphImportPostgres
import GraphImportSchema
import GraphImportStore

/// `graphimport meta get|set|unset|list`: the store's typed metadata from a shell.
///
/// `get` prints the bare value, so that `etag=$(graphimport meta get etag --map feed.map)` works;
/// a key that is not set (and no `--default`) exits 1, as `git config` does.
enum MetaCommand {
    static let options: [ParsedArguments.OptionSpec] = [
        .init(name: "--store", takesValue: true, short: "s"), .init(name: "--map", takesValue: true, short: "m"), .init(name: "--default", takesValue: true),
        .init(name: "--type", takesValue: true), .init(name: "--json", takesValue: false), .init(name: "--wait", takesValue: true),
    ]

    /// What the command line asks of which store, checked as far as it can be without the store.
    struct Request {
        enum Action {
            case get(key: String, default: String?)
            /// `value` is the text as given; it is parsed as `type` when the command runs (a bad one is 65).
            case set(key: String, value: String, type: MetaType, wait: Double)
            case unset(key: String, wait: Double)
            case list(json: Bool)
        }
        var store: String
        var action: Action
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Request {
        let parsed = try ParsedArguments(arguments, options: options)
        guard let action = parsed.operands.first else {
            throw UsageError(message: "Missing expected argument '<action>' (get, set, unset or list)", hint: nil)
        }
        let operands = Array(parsed.operands.dropFirst())
        let path = try storePath(parsed)
        switch action {
        case "get":
            guard operands.count == 1 else { throw UsageError(message: "'meta get' takes one KEY", hint: nil) }
            return Request(store: path, action: .get(key: operands[0], default: parsed.values["--default"]))
        case "set":
            guard operands.count == 2 else { throw UsageError(message: "'meta set' takes a KEY and a VALUE", hint: nil) }
            let type = try metaType(parsed.values["--type"] ?? "string")
            return Request(
                store: path, action: .set(key: operands[0], value: operands[1], type: type, wait: try parsed.seconds("--wait", default: 30)))
        case "unset":
            guard operands.count == 1 else { throw UsageError(message: "'meta unset' takes one KEY", hint: nil) }
            return Request(store: path, action: .unset(key: operands[0], wait: try parsed.seconds("--wait", default: 30)))
        case "list":
            guard operands.isEmpty else { throw UsageError(message: "'meta list' takes no KEY", hint: nil) }
            return Request(store: path, action: .list(json: parsed.has("--json")))
        default:
            let guess = closestAction(action)
            throw UsageError(message: "Unknown action '\(action)'", hint: guess.map { "Did you mean '\($0)'?" })
        }
    }

    static func run(_ arguments: [String], io: ToolIO) throws(UsageError) -> ExitCode {
        let request = try parse(arguments)
        let path = request.store
        switch request.action {
        case .get(let key, let fallback):
            return get(key, default: fallback, store: path, io: io)
        case .set(let key, let text, let type, let wait):
            let value: MetaValue
            do { value = try MetaValue.parse(text, as: type) } catch {
                reportError(error.description, io: io)
                return .dataError
            }
            return write(
                store: path, wait: wait, io: io, { store throws(StoreError) in try store.setMeta(key, value) },
                postgres: { connection throws(PostgresError) in try connection.setMeta(key, value) })
        case .unset(let key, let wait):
            return write(
                store: path, wait: wait, io: io, { store throws(StoreError) in try store.unsetMeta(key) },
                postgres: { connection throws(PostgresError) in try connection.unsetMeta(key) })
        case .list(let json):
            return list(store: path, json: json, io: io)
        }
    }

    /// `--set-meta KEY=VALUE` (a string) or `KEY:TYPE=VALUE`.
    static func assignment(_ text: String) throws(UsageError) -> (key: String, value: MetaValue) {
        guard let equals = text.firstIndex(of: "=") else {
            throw UsageError(
                message: "The value '\(text)' is invalid for '--set-meta'", hint: "Write KEY=VALUE, or KEY:TYPE=VALUE with a type of \(typeNames).")
        }
        var key = String(text[..<equals])
        var type = MetaType.string
        if let colon = key.firstIndex(of: ":") {
            type = try metaType(String(key[key.index(after: colon)...]))
            key = String(key[..<colon])
        }
        guard !key.isEmpty else { throw UsageError(message: "The value '\(text)' is invalid for '--set-meta': the key is empty", hint: nil) }
        do {
            return (key, try MetaValue.parse(String(text[text.index(after: equals)...]), as: type))
        } catch {
            throw UsageError(message: "The value '\(text)' is invalid for '--set-meta': \(error.description)", hint: nil)
        }
    }

    static var typeNames: String { MetaType.allCases.map(\.name).joined(separator: ", ") }

    private static func metaType(_ name: String) throws(UsageError) -> MetaType {
        guard let type = MetaType(name: name) else {
            throw UsageError(message: "The value '\(name)' is invalid for '--type'", hint: "Use one of \(typeNames).")
        }
        return type
    }

    private static func closestAction(_ action: String) -> String? {
        closestMatch(to: action, among: ["get", "set", "unset", "list"])
    }

    /// `--store PATH`, or the store beside `--map MAP`.
    static func storePath(_ parsed: ParsedArguments) throws(UsageError) -> String {
        if let store = parsed.values["--store"] { return store }
        if let map = parsed.values["--map"] { return StoreLocation.defaultSQLitePath(forMap: map) }
        throw UsageError(message: "Missing expected argument '--store <path>' (or '--map <map>' for the store beside it)", hint: nil)
    }

    private static func get(_ key: String, default fallback: String?, store path: String, io: ToolIO) -> ExitCode {
        var value: MetaValue?
        if case .postgres(let location) = StoreLocation(path) {
            do { value = try PostgresConnection(location).meta(key) } catch { return PostgresStoreCommand.fail(error, store: location, io: io) }
        } else if FileManager.default.fileExists(atPath: path) {
            do {
                let store = try Store(path: path, options: Database.Options(create: false, readOnly: true, busyTimeout: 5))
                value = try store.meta(key)
            } catch {
                reportError("cannot read the store \(path): \(error.description)", io: io)
                return ExitCode(error)
            }
        }
        if let value {
            io.writeOut(value.description + "\n")
            return .ok
        }
        if let fallback {
            io.writeOut(fallback + "\n")
            return .ok
        }
        // The store as StoreLocation says it: a connection string's password is never shown.
        io.writeError("graphimport: meta key '\(escapeControlCharacters(key))' is not set in \(StoreLocation(path).description)\n")
        return .notFound
    }

    private static func write(
        store path: String, wait: Double, io: ToolIO, _ body: (Store) throws(StoreError) -> Void,
        postgres: (PostgresConnection) throws(PostgresError) -> Void
    ) -> ExitCode {
        if case .postgres(let location) = StoreLocation(path) {
            do {
                try PostgresConnection(location).writeMeta(wait: wait, postgres)
                return .ok
            } catch {
                return PostgresStoreCommand.fail(error, store: location, io: io)
            }
        }
        do throws(StoreError) {
            // Checked on a read-only connection first, so that another program's database is left
            // exactly as it was; the writing connection enters WAL only once the check has passed.
            var foreign = try foreignTables(readingOnly: path, wait: wait)
            let store = try Store(path: path, options: Database.Options(create: true, readOnly: false, busyTimeout: wait, writeAheadLog: false))
            if foreign == nil { foreign = try store.foreignTables(besides: SchemaDescription(tables: [])) }
            if let foreign, !foreign.isEmpty {
                reportError(
                    "\(path) is not a graphimport store: it holds tables of another program (\(foreign.prefix(5).joined(separator: ", ")))"
                        + " and none of graphimport's",
                    hint: "check the path; to make this database a store, import into it once with --adopt-store", io: io)
                return .cannotCreate
            }
            try store.database.enterWriteAheadLog()
            try store.database.beginImmediate()
            defer { if store.database.isInTransaction { store.database.rollback() } }
            try body(store)
            try store.database.commit()
            return .ok
        } catch {
            reportError("cannot write the store \(path): \(error.description)", io: io)
            return ExitCode(error)
        }
    }

    /// Another program's tables in the existing store at `path`, read on a read-only connection;
    /// [] for a missing or empty file, nil when only a writer can read the file as it is (a hot journal).
    private static func foreignTables(readingOnly path: String, wait: Double) throws(StoreError) -> [String]? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else { return [] }
        do {
            let store = try Store(path: path, options: Database.Options(create: false, readOnly: true, busyTimeout: wait))
            return try store.foreignTables(besides: SchemaDescription(tables: []))
        } catch {
            guard error.isReadOnly else { throw error }
            return nil
        }
    }

    private static func list(store path: String, json: Bool, io: ToolIO) -> ExitCode {
        var entries: [(key: String, value: MetaValue)] = []
        if case .postgres(let location) = StoreLocation(path) {
            do { entries = try PostgresConnection(location).allMeta() } catch { return PostgresStoreCommand.fail(error, store: location, io: io) }
        } else if FileManager.default.fileExists(atPath: path) {
            do {
                let store = try Store(path: path, options: Database.Options(create: false, readOnly: true, busyTimeout: 5))
                entries = try store.allMeta()
            } catch {
                reportError("cannot read the store \(path): \(error.description)", io: io)
                return ExitCode(error)
            }
        }
        if json {
            let members = entries.map { entry in
                JSONMember(
                    key: entry.key,
                    value: .object(
                        JSONObject([
                            JSONMember(key: "type", value: .string(entry.value.type.name)),
                            JSONMember(key: "value", value: .string(entry.value.description)),
                        ])))
            }
            io.writeOut(JSONValue.object(JSONObject(members)).jsonText + "\n")
        } else {
            for entry in entries {
                io.writeOut("\(entry.key)\t\(entry.value.type.name)\t\(escapeControlCharacters(entry.value.description))\n")
            }
        }
        return .ok
    }
}
