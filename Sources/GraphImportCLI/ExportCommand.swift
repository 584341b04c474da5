import Foundation
import GraphImport
import GraphImportPostgres
import GraphImportSchema

/// `graphimport export --map MAP [--store PATH] [ENTITY] [--key K …] [--where COND] [--depth N]
/// [--format json|jsonl]`: the store written back as JSON in the shape the map reads.
enum ExportCommand {
    static let options: [ParsedArguments.OptionSpec] = [
        .init(name: "--map", takesValue: true, short: "m"), .init(name: "--store", takesValue: true, short: "s"), .init(name: "--key", takesValue: true),
        .init(name: "--where", takesValue: true), .init(name: "--depth", takesValue: true), .init(name: "--format", takesValue: true),
        .init(name: "--wait", takesValue: true), .init(name: "--quiet", takesValue: false, short: "q"), MapLoader.includePathOption,
    ]

    /// The command line, checked as far as it can be without the map or the store.
    struct Arguments {
        var parsed: ParsedArguments
        var mapPath: String
        var request: ExportRequest
        var wait: Double
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Arguments {
        let parsed = try ParsedArguments(arguments, options: options)
        guard let mapPath = parsed.values["--map"] else { throw UsageError(message: "Missing expected argument '--map <map>'", hint: nil) }
        guard parsed.operands.count <= 1 else {
            throw UsageError(message: "Unexpected argument '\(parsed.operands[1])'", hint: "Name at most one entity.")
        }
        var request = ExportRequest(entity: parsed.operands.first, keys: parsed.all("--key"), condition: parsed.values["--where"])
        if let depth = try parsed.integer("--depth", in: 0...Int64(Int.max), hint: "Give 0 (every relationship by its key) or more levels.") {
            request.depth = Int(depth)
        }
        switch parsed.values["--format"] ?? "json" {
        case "json": break
        case "jsonl":
            guard request.entity != nil else {
                throw UsageError(
                    message: "'--format jsonl' needs an entity",
                    hint:
                        "The document is written as the map reads it (JSON Lines when the map reads each line as a record); name an entity for one object per line."
                )
            }
            request.jsonLines = true
        case let other:
            throw UsageError(message: "The value '\(other)' is invalid for '--format'", hint: "Use json or jsonl.")
        }
        return Arguments(parsed: parsed, mapPath: mapPath, request: request, wait: try parsed.seconds("--wait", default: 30))
    }

    static func run(_ arguments: [String], io: ToolIO) throws(UsageError) -> ExitCode {
        let checked = try parse(arguments)
        let parsed = checked.parsed, mapPath = checked.mapPath, request = checked.request, wait = checked.wait
        let plan: ImportPlan
        let scope = try MapLoader.scope(forMap: mapPath, parsed: parsed, io: io)
        do { plan = try MapLoader.load(mapPath, scope: scope) } catch { return MapLoader.report(error, io: io) }
        let exporter = GraphExporter(plan: plan)
        do throws(ExportError) {
            try exporter.validate(request)
        } catch {
            throw UsageError(message: error.message.prefix(1).uppercased() + error.message.dropFirst(), hint: error.hint.map(sentence))
        }
        let storePath = parsed.values["--store"] ?? StoreLocation.defaultSQLitePath(forMap: mapPath)
        let server = StoreLocation(storePath).connection
        guard server != nil || FileManager.default.fileExists(atPath: storePath) else {
            reportError("no store at \(storePath)", hint: "import into it first, or name it with --store", io: io)
            return .noInput
        }
        if !parsed.has("--quiet") {
            for caveat in exporter.caveats {
                io.writeError("graphimport: warning: \(escapeControlCharacters(caveat.description)) (it may not import again to the same value)\n")
            }
        }
        do {
            let summary = try exporter.run(storePath: storePath, request: request, busyTimeout: wait, shouldStop: io.isInterrupted) { bytes in
                io.writeOut(String(decoding: bytes, as: UTF8.self))
            }
            if !parsed.has("--quiet") {
                for caveat in summary.unwritten {
                    io.writeError("graphimport: warning: \(escapeControlCharacters(caveat.description)) (it may not import again to the same value)\n")
                }
            }
            return .ok
        } catch {
            // The server's report in its own words and exit status, whichever case holds it.
            if let report = error.serverReport, let server {
                return PostgresStoreCommand.fail(report, store: server, io: io)
            }
            reportError("cannot export the store \(server?.description ?? storePath): \(error.message)", hint: error.hint, io: io)
            switch error {
            case .store(let failure): return ExitCode(failure.kind)
            case .interrupted: return .temporaryFailure
            case .storeMismatch: return .cannotCreate
            default: return .usage
            }
        }
    }

    /// A hint as argument-parser words one: a capitalised sentence.
    private static func sentence(_ text: String) -> String {
        let capitalised = text.prefix(1).uppercased() + text.dropFirst()
        return capitalised.hasSuffix("?") || capitalised.hasSuffix(".") ? capitalised : capitalised + "."
    }
}
