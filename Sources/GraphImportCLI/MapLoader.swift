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
    static func load(_ path: String) throws(MapLoadFailure) -> ImportPlan {
        let text: String
        do {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            if size > ImportLimits.maxMapBytes {
                throw MapLoadFailure.tooLarge(path: path, bytes: size)
            }
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let decoded = String(data: data, encoding: .utf8) else {
                throw MapLoadFailure.unreadable(path: path, reason: "it is not UTF-8 text")
            }
            text = decoded
        } catch let failure as MapLoadFailure {
            throw failure
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "no such file"
            throw .unreadable(path: path, reason: reason)
        }
        do {
            return try ImportPlan.compile(text: text, fileName: path)
        } catch {
            throw .invalid(error)
        }
    }

    /// Prints the failure the way each kind is shown and returns its exit status.
    /// (`MapLoadFailure.message` and `hint` say it in one line, for `--json`.)
    static func report(_ failure: MapLoadFailure, io: ToolIO) -> ExitCode {
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
            io.writeError(errors.description + "\n")
            let count = errors.diagnostics.count
            io.writeError("graphimport: \(count) error\(count == 1 ? "" : "s") in the map; nothing was imported\n")
            return .configuration
        }
    }

    /// The store used when `--store` is not given: beside the map, named after it
    /// (`Mappings/tweets.map` -> `Mappings/tweets.sqlite`), so a cron job finds the same
    /// store whatever its working directory.
    static func defaultStorePath(forMap path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let base = url.deletingPathExtension().lastPathComponent
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? base + ".sqlite" : directory + "/" + base + ".sqlite"
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
