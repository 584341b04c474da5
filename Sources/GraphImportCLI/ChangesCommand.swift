import Foundation
import GraphImport
import GraphImportMapping
import GraphImportPostgres

/// `graphimport changes --map M --since-run N`: the objects inserted, changed or deleted by the
/// runs after N, as JSON Lines, so that a downstream job can follow the store incrementally.
enum ChangesCommand {
    static let options: [ParsedArguments.OptionSpec] = [
        .init(name: "--store", takesValue: true, short: "s"), .init(name: "--map", takesValue: true, short: "m"),
        .init(name: "--since-run", takesValue: true), .init(name: "--entity", takesValue: true), MapLoader.includePathOption,
    ]

    /// The command line, checked as far as it can be without the map or the store.
    struct Arguments {
        var parsed: ParsedArguments
        var mapPath: String
        var since: Int64
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Arguments {
        let parsed = try ParsedArguments(arguments, options: options)
        guard parsed.operands.isEmpty else { throw UsageError(message: "Unexpected argument '\(parsed.operands[0])'", hint: nil) }
        guard let mapPath = parsed.values["--map"] else {
            throw UsageError(message: "Missing expected argument '--map <map>'", hint: "The map names the entities and attributes to report.")
        }
        guard
            let since = try parsed.integer(
                "--since-run", in: 0...Int64.max, hint: "Give a run id (graphimport runs lists them), or 0.")
        else {
            throw UsageError(message: "Missing expected argument '--since-run <n>'", hint: "Give 0 for every object the store holds.")
        }
        return Arguments(parsed: parsed, mapPath: mapPath, since: since)
    }

    static func run(_ arguments: [String], io: ToolIO) throws(UsageError) -> ExitCode {
        let checked = try parse(arguments)
        let parsed = checked.parsed, mapPath = checked.mapPath, since = checked.since
        let plan: ImportPlan
        let scope = try MapLoader.scope(forMap: mapPath, parsed: parsed, io: io)
        do { plan = try MapLoader.load(mapPath, scope: scope) } catch { return MapLoader.report(error, io: io) }
        let entities = parsed.repeated["--entity"]
        for name in entities ?? [] where !plan.entities.contains(where: { $0.name == name }) {
            let guess = closestMatch(to: name, among: plan.entities.map(\.name))
            throw UsageError(
                message: "Unknown entity '\(name)' for '--entity': \(mapPath) has \(plan.entities.map(\.name).joined(separator: ", "))",
                hint: guess.map { "Did you mean '\($0)'?" })
        }
        let storePath = parsed.values["--store"] ?? StoreLocation.defaultSQLitePath(forMap: mapPath)
        let server = StoreLocation(storePath).connection
        guard server != nil || FileManager.default.fileExists(atPath: storePath) else {
            reportError("no store at \(storePath)", hint: "import into it first, or name it with --store", io: io)
            return .noInput
        }
        var buffer = ""
        let read: ChangesRead
        do {
            let graph = try ObjectGraph(store: storePath, plan: plan, readOnly: true)
            read = try graph.changes(since: since, entities: entities) { change in
                buffer += change.jsonLine + "\n"
                if buffer.utf8.count >= 1 << 16 {
                    io.writeOut(buffer)
                    buffer = ""
                }
            }
        } catch {
            io.writeOut(buffer)
            if let failure = error.server, let server {
                return PostgresStoreCommand.fail(failure, store: server, io: io)
            }
            reportError("cannot read the store \(server?.description ?? storePath): \(error.message)", hint: error.hint, io: io)
            return error.kind == .storeMismatch ? .cannotCreate : error.store.map(ExitCode.init) ?? .software
        }
        io.writeOut(buffer)
        if let warning = deletionWarning(since: since, recordedSince: read.deletionsRecordedSince) {
            io.writeError("graphimport: warning: \(warning)\n")
        }
        return .ok
    }

    /// What the store cannot say about deletions after run `since`, if anything.
    static func deletionWarning(since: Int64, recordedSince: Int64?) -> String? {
        guard let recordedSince else {
            return "this store does not record deleted objects (its runs predate graphimport_deleted); deletions are not listed"
        }
        // Subtracted, not added: `since` may be as large as Int64.max. Past the guard, since + 1 < recordedSince.
        guard recordedSince > since, recordedSince - since > 1 else { return nil }
        let runs = recordedSince - since == 2 ? "run \(since + 1)" : "runs \(since + 1) to \(recordedSince - 1)"
        return "this store records deleted objects from run \(recordedSince) on; objects deleted by \(runs) are not listed"
    }
}
