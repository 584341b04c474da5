import GraphImport
import GraphImportJSON

/// What a failed import shows: its error lines for people, one JSON object for scripts (`--json`),
/// and its exit status.
struct FailureReport {
    var status: ExitCode
    /// Each error with its hint; most failures have one (a refused migration may have several).
    var errors: [(message: String, hint: String?)]
    /// Where in the input, when known.
    var line: Int?
    var column: Int?
    var record: Int?
    /// The JSON path of the value at fault (`$[41].created_at`), or the records path that matched nothing.
    var path: String?
    /// Compiler-style diagnostics shown after the error lines (a refused migration's, at the map's lines).
    var details: [String] = []

    init(_ status: ExitCode, _ message: String, hint: String?) {
        self.status = status
        errors = [(message, hint)]
    }

    /// `graphimport: error: …` and `hint: …` lines on stderr.
    func write(io: ToolIO) {
        for error in errors { reportError(error.message, hint: error.hint, io: io) }
        if !details.isEmpty { io.writeError(details.joined(separator: "\n") + "\n") }
    }

    /// `{"outcome": "failed", "error", "hint", "exit_status", "run", "input", "store", "position": {…}}`.
    func json(input: String, store: String?, runID: Int64?) -> String {
        func number(_ value: Int) -> JSONValue { .number(JSONNumber(literal: String(value))) }
        var position: [JSONMember] = [JSONMember(key: "file", value: .string(input))]
        if let line { position.append(JSONMember(key: "line", value: number(line))) }
        if let column { position.append(JSONMember(key: "column", value: number(column))) }
        if let record { position.append(JSONMember(key: "record", value: number(record))) }
        if let path { position.append(JSONMember(key: "path", value: .string(path))) }
        let hints = errors.compactMap(\.hint)
        let object = JSONObject([
            JSONMember(key: "outcome", value: .string("failed")),
            JSONMember(key: "error", value: .string((errors.map(\.message) + details.map(Self.headline)).joined(separator: "; "))),
            JSONMember(key: "hint", value: hints.isEmpty ? .null : .string(hints.joined(separator: "; "))),
            JSONMember(key: "exit_status", value: number(Int(status.rawValue))),
            JSONMember(key: "run", value: runID.map { number(Int($0)) } ?? .null),
            JSONMember(key: "input", value: .string(input)),
            JSONMember(key: "store", value: store.map { .string($0) } ?? .null),
            JSONMember(key: "position", value: .object(JSONObject(position))),
        ])
        return JSONValue.object(object).jsonText
    }

    /// A diagnostic's first line, the one that says where and what.
    private static func headline(_ diagnostic: String) -> String {
        diagnostic.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? diagnostic
    }
}
