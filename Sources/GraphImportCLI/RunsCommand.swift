import Foundation
import GraphImport
import GraphImportJSON
import GraphImportPostgres
import GraphImportSchema
import GraphImportStore

/// `graphimport runs [--last N] [--json]`: the store's import history, newest first.
enum RunsCommand {
    static let options: [ParsedArguments.OptionSpec] = [
        .init(name: "--store", takesValue: true, short: "s"), .init(name: "--map", takesValue: true, short: "m"),
        .init(name: "--last", takesValue: true), .init(name: "--json", takesValue: false),
    ]

    /// The command line, checked as far as it can be without the store.
    struct Arguments {
        var parsed: ParsedArguments
        var path: String
        var last: Int
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Arguments {
        let parsed = try ParsedArguments(arguments, options: options)
        let path = try MetaCommand.storePath(parsed)
        let last = Int(try parsed.integer("--last", in: 1...Int64(Int.max), hint: "Give a positive number of runs.") ?? 20)
        return Arguments(parsed: parsed, path: path, last: last)
    }

    static func run(_ arguments: [String], io: ToolIO) throws(UsageError) -> ExitCode {
        let checked = try parse(arguments)
        let parsed = checked.parsed, path = checked.path, last = checked.last
        let runs: [RunRecord]
        if case .postgres(let location) = StoreLocation(path) {
            do {
                runs = try PostgresConnection(location).runs(last: last)
            } catch {
                let failure = PostgresStoreCommand.report(error, store: location.description)
                failure.write(io: io)
                return failure.status
            }
        } else {
            switch readRuns(path, last: last, io: io) {
            case .success(let read): runs = read
            case .failure(let status): return status.code
            }
        }
        return show(runs, json: parsed.has("--json"), io: io)
    }

    /// An exit status as an error, for `readRuns`.
    private struct Failed: Error {
        let code: ExitCode
    }

    /// The runs of the SQLite store at `path`, or the (reported) status when it cannot be read.
    private static func readRuns(_ path: String, last: Int, io: ToolIO) -> Result<[RunRecord], Failed> {
        guard FileManager.default.fileExists(atPath: path) else {
            reportError("no store at \(path)", hint: "import into it first, or name it with --store", io: io)
            return .failure(Failed(code: .noInput))
        }
        do {
            let store = try Store(path: path, options: Database.Options(create: false, readOnly: true, busyTimeout: 5))
            return .success(try store.runs(last: last))
        } catch {
            reportError("cannot read the store \(path): \(error.description)", io: io)
            return .failure(Failed(code: ExitCode(error)))
        }
    }

    /// Prints `runs` as a table, or as JSON.
    private static func show(_ runs: [RunRecord], json wantsJSON: Bool, io: ToolIO) -> ExitCode {
        if wantsJSON {
            io.writeOut(JSONValue.array(runs.map(json)).jsonText + "\n")
            return .ok
        }
        let header = ["run", "started", "outcome", "records", "input", "changes"]
        let rows = runs.map { run in
            [
                String(run.id), run.startedAt, run.outcome.rawValue, run.records.map(String.init) ?? "-", run.input,
                changes(run.counts) ?? (run.error.map { escapeControlCharacters($0) } ?? ""),
            ]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            let cells = row.indices.map { column in
                column == row.count - 1 ? row[column] : row[column].padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            io.writeOut(cells.joined(separator: "  ") + "\n")
        }
        return .ok
    }

    /// "+3 ~1 -0" (inserted, updated, deleted) summed over the entities, from the run's counts.
    private static func changes(_ counts: String?) -> String? {
        guard let counts, case .object(let object)? = try? JSONParser.parse(counts) else { return nil }
        var inserted: Int64 = 0
        var updated: Int64 = 0
        var deleted: Int64 = 0
        for member in object.members {
            guard case .object(let entity) = member.value else { continue }
            func number(_ key: String) -> Int64 {
                if case .number(let number)? = entity[key] { return number.exactInt64 ?? 0 }
                return 0
            }
            inserted += number("inserted")
            updated += number("updated")
            deleted += number("deleted")
        }
        return "+\(inserted) ~\(updated) -\(deleted)"
    }

    private static func json(_ run: RunRecord) -> JSONValue {
        func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        func number(_ value: Int64?) -> JSONValue { value.map { .number(JSONNumber(literal: String($0))) } ?? .null }
        let counts: JSONValue = run.counts.flatMap { try? JSONParser.parse($0) } ?? .null
        return .object(
            JSONObject([
                JSONMember(key: "id", value: number(run.id)), JSONMember(key: "started_at", value: text(run.startedAt)),
                JSONMember(key: "finished_at", value: text(run.finishedAt)), JSONMember(key: "pid", value: number(Int64(run.pid))),
                JSONMember(key: "host", value: text(run.host)), JSONMember(key: "input", value: text(run.input)),
                JSONMember(key: "input_bytes", value: number(run.inputBytes)), JSONMember(key: "input_sha256", value: text(run.inputSHA256)),
                JSONMember(key: "map", value: text(run.mapName)), JSONMember(key: "map_sha256", value: text(run.mapSHA256)),
                JSONMember(key: "records", value: number(run.records)), JSONMember(key: "skipped_records", value: number(run.skippedRecords)),
                JSONMember(key: "counts", value: counts), JSONMember(key: "outcome", value: text(run.outcome.rawValue)),
                JSONMember(key: "error", value: text(run.error)),
            ]))
    }
}
