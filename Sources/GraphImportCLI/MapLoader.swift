import Foundation
import GraphImport
import GraphImportMapping

/// Why a map could not be used; each maps to an exit status.
enum MapLoadFailure: Error {
    case unreadable(path: String, reason: String)
    case tooLarge(path: String, bytes: Int)
    case invalid(MappingErrors)
}

/// Reads, parses and compiles a map file: the one way the commands get a plan.
enum MapLoader {
    /// The plan of the map at `path`; its includes are read within `scope` (the map's directory
    /// when nil).
    static func load(_ path: String, scope: IncludeScope? = nil) throws(MapLoadFailure) -> ImportPlan {
        let bytes: [UInt8]
        do throws(MapFileError) {
            bytes = try MapFiles.bytes(of: path)
        } catch {
            switch error {
            case .unreadable(let path, let reason): throw .unreadable(path: path, reason: reason)
            case .tooLarge(let path, let bytes): throw .tooLarge(path: path, bytes: bytes)
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .invalid(MappingErrors([MapFiles.notUTF8(bytes, path: path)]))
        }
        do {
            return try ImportPlan.compile(text: text, fileName: path, includes: MapFiles.includes(within: scope ?? IncludeScope(map: path)))
        } catch {
            throw .invalid(error)
        }
    }

    /// Where the includes of the map at `path` may be read: the map's directory, each
    /// `--include-path` and each directory of `GRAPHIMPORT_INCLUDE_PATH` (separated by colons,
    /// as `PATH`). A directory given that is not one is a usage error.
    static func scope(forMap path: String, parsed: ParsedArguments, io: ToolIO) throws(UsageError) -> IncludeScope {
        let environment = io.environment["GRAPHIMPORT_INCLUDE_PATH"].map { $0.split(separator: ":").map(String.init) } ?? []
        for (directory, source) in parsed.all("--include-path").map({ ($0, "--include-path") }) + environment.map({ ($0, "GRAPHIMPORT_INCLUDE_PATH") }) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw UsageError(message: "\(source) names '\(directory)', which is not a directory", hint: nil)
            }
        }
        return IncludeScope(map: path, allowing: parsed.all("--include-path") + environment)
    }

    /// `--include-path DIR`, repeatable: every command that loads a map takes it.
    static let includePathOption = ParsedArguments.OptionSpec(name: "--include-path", takesValue: true)

    /// How many of a map's errors are printed before only their count: a file that is not a map
    /// at all (a data file included by mistake) has an error on nearly every line.
    static let maxShownErrors = 20

    /// Prints the failure the way each kind is shown and returns its exit status; an import
    /// (`importing`) adds that nothing was imported, a command that only reads does not.
    /// (`MapLoadFailure.message` and `hint` say it in one line, for `--json`.)
    static func report(_ failure: MapLoadFailure, io: ToolIO, importing: Bool = false) -> ExitCode {
        switch failure {
        case .unreadable(let path, let reason):
            reportError("cannot read the map '\(path)': \(reason)", io: io)
            return .noInput
        case .tooLarge(let path, let bytes):
            reportError(
                "the map '\(path)' is \(bytes) bytes; a map may be at most \(ImportLimits.maxMapBytes) bytes",
                hint: "a map this large is not written by hand; check the path", io: io)
            return .configuration
        case .invalid(let errors):
            let count = errors.diagnostics.count
            var text = MappingErrors(Array(errors.diagnostics.prefix(maxShownErrors))).description + "\n"
            if count > maxShownErrors { text += "… and \(counted(count - maxShownErrors, "more error"))\n" }
            text += "graphimport: \(counted(count, "error")) in the map\(importing ? "; nothing was imported" : "")\n"
            io.writeError(text)
            return .configuration
        }
    }
}

extension MapLoadFailure {
    /// The failure in one line: the first of the map's errors, and how many more there are.
    var message: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read the map '\(path)': \(reason)"
        case .tooLarge(let path, let bytes): return "the map '\(path)' is \(bytes) bytes; a map may be at most \(ImportLimits.maxMapBytes) bytes"
        case .invalid(let errors):
            let more = errors.diagnostics.count > 1 ? " (and \(errors.diagnostics.count - 1) more errors in the map)" : ""
            return (errors.diagnostics.first.map { $0.headline.replacing(": error: ", with: ": ") } ?? "the map has errors") + more
        }
    }

    var hint: String? {
        switch self {
        case .unreadable: nil
        case .tooLarge: "a map this large is not written by hand; check the path"
        case .invalid(let errors): errors.diagnostics.first?.hint
        }
    }
}
