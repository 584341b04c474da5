import Foundation
import GraphImport
import GraphImportMapping

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a map could not be used; each maps to an exit status.
enum MapLoadFailure: Error {
    case unreadable(path: String, reason: String)
    case tooLarge(path: String, bytes: Int)
    case invalid(MappingErrors)
}

/// Reads, parses and compiles a map file: the one way the commands get a plan.
enum MapLoader {
    static func load(_ path: String) throws(MapLoadFailure) -> ImportPlan {
        let bytes = try readMap(path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .invalid(MappingErrors([notUTF8(bytes, path: path)]))
        }
        do {
            return try ImportPlan.compile(text: text, fileName: path, includes: includes)
        } catch {
            throw .invalid(error)
        }
    }

    /// The files a map includes, read like the map itself (same size limit, UTF-8): a name is
    /// relative to the directory of the including file, and a file is known by its resolved path,
    /// so that `a.map` and `./a.map` are one file.
    static let includes = IncludeResolver(identity: resolvedPath) { name, includer in
        let path = IncludeResolver.relativePath(name, from: includer.name)
        let place = path == name ? "" : "\(path): "
        do throws(MapLoadFailure) {
            let bytes = try readMap(path)
            guard let text = String(validating: bytes, as: UTF8.self) else {
                let bad = notUTF8(bytes, path: path)
                let detail = bad.message.replacing("the map is not UTF-8 text: ", with: "")
                return .failure(
                    IncludeFailure(
                        "\(place)it is not UTF-8 text: at line \(bad.location.line), column \(bad.location.column), \(detail)",
                        hint: "save it as UTF-8"))
            }
            return .success(MapFile(name: path, identity: resolvedPath(path), text: text))
        } catch {
            switch error {
            case .unreadable(_, let reason): return .failure(IncludeFailure(place + reason))
            case .tooLarge(_, let bytes):
                return .failure(
                    IncludeFailure(
                        "\(place)it is \(bytes) bytes; a map may be at most \(ImportLimits.maxMapBytes) bytes",
                        hint: "a map this large is not written by hand; check the path"))
            case .invalid(let errors): return .failure(IncludeFailure(errors.description))
            }
        }
    }

    /// The absolute path of a file with symbolic links resolved; the path as given when it has none.
    private static func resolvedPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The map file's bytes; the reason it cannot be read is the system's (no such file, permission
    /// denied, a directory), never a guess.
    private static func readMap(_ path: String) throws(MapLoadFailure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno)).lowercased()) }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { throw .unreadable(path: path, reason: "it is a directory") }
            if Int(info.st_size) > ImportLimits.maxMapBytes { throw .tooLarge(path: path, bytes: Int(info.st_size)) }
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 { throw .unreadable(path: path, reason: String(cString: strerror(errno)).lowercased()) }
            if count == 0 { break }
            bytes += buffer[..<count]
            if bytes.count > ImportLimits.maxMapBytes { throw .tooLarge(path: path, bytes: bytes.count) }
        }
        return bytes
    }

    /// The error for a map that is not UTF-8, at the line and column of its first bad byte.
    private static func notUTF8(_ bytes: [UInt8], path: String) -> Diagnostic {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        var line = 1
        var column = 1
        var lineStart = 0
        loop: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1 && encoded.first == 0x0A {
                    line += 1
                    column = 1
                    lineStart = offset + 1
                } else {
                    column += 1
                }
                offset += encoded.count
            case .error, .emptyInput:
                break loop
            }
        }
        let bad = offset < bytes.count ? bytes[offset] : 0
        let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
        return Diagnostic(
            fileName: path, location: SourceLocation(line: line, column: column, offset: offset),
            message: "the map is not UTF-8 text: byte 0x\(String(bad, radix: 16, uppercase: true)) cannot start or continue a character",
            hint: "save the map as UTF-8", sourceLine: String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self))
    }

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
            io.writeError(errors.description + "\n")
            let count = errors.diagnostics.count
            io.writeError("graphimport: \(counted(count, "error")) in the map\(importing ? "; nothing was imported" : "")\n")
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
