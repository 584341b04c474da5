import GraphImportMapping

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a map file could not be read.
package enum MapFileError: Error, Sendable, Equatable {
    /// The system's reason (no such file, permission denied), or why the file is not one a map
    /// is read from (a directory, a named pipe).
    case unreadable(path: String, reason: String)
    case tooLarge(path: String, bytes: Int)
}

/// The directories a map's `include` lines may read from: the map's own directory tree and the
/// ones the user allows. A map from an untrusted source cannot read `/proc/self/environ` or
/// `~/.pgpass` by including it.
package struct IncludeScope: Sendable, Equatable {
    /// Absolute paths with symbolic links resolved, the map's own directory first.
    package private(set) var directories: [String]

    /// The directory of the map at `mapPath`, and each of `allowed`. A directory that does not
    /// exist is kept as written (it allows nothing, since no resolved path is under it).
    package init(map mapPath: String, allowing allowed: [String] = []) {
        let slash = mapPath.lastIndex(of: "/")
        let own = slash.map { $0 == mapPath.startIndex ? "/" : String(mapPath[..<$0]) } ?? "."
        directories = ([own] + allowed).map { MapFiles.resolvedPath($0) }
    }

    /// Whether the resolved path `path` is inside one of the directories.
    package func allows(_ path: String) -> Bool {
        directories.contains { directory in
            directory == "/" || path == directory || path.hasPrefix(directory.hasSuffix("/") ? directory : directory + "/")
        }
    }
}

/// Reads map files from disk: the map itself, and the files it includes, which must be regular
/// files inside an `IncludeScope`. One place for both the command line and `ObjectGraph`.
package enum MapFiles {
    /// The bytes of the file at `path`, at most `ImportLimits.maxMapBytes`. With `regularOnly`
    /// anything but a regular file is refused before a byte is read: it is opened without
    /// blocking, so a named pipe with no writer cannot hang the tool.
    package static func bytes(of path: String, regularOnly: Bool = false) throws(MapFileError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | (regularOnly ? O_NONBLOCK : 0))
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: systemReason()) }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0 {
            let kind = info.st_mode & S_IFMT
            if kind == S_IFDIR { throw .unreadable(path: path, reason: "it is a directory") }
            if regularOnly && kind != S_IFREG {
                throw .unreadable(path: path, reason: "it is \(fileKind(kind)), not a regular file; a map file is read only from a regular file")
            }
            if Int(info.st_size) > ImportLimits.maxMapBytes { throw .tooLarge(path: path, bytes: Int(info.st_size)) }
        }
        if regularOnly {
            // A regular file never blocks; clear the flag all the same, so a read cannot say EAGAIN.
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: systemReason())
            }
            if count == 0 { break }
            bytes += buffer[..<count]
            if bytes.count > ImportLimits.maxMapBytes { throw .tooLarge(path: path, bytes: bytes.count) }
        }
        return bytes
    }

    /// The files a map includes, read like the map itself (same size limit, UTF-8), each a
    /// regular file within `scope`: a name is relative to the directory of the including file,
    /// and a file is known by its resolved path, so that `a.map` and `./a.map` are one file.
    package static func includes(within scope: IncludeScope) -> IncludeResolver {
        IncludeResolver(identity: resolvedPath) { name, includer in
            let path = IncludeResolver.relativePath(name, from: includer.name)
            let place = path == name ? "" : "\(path): "
            guard let resolved = resolve(path) else { return .failure(IncludeFailure(place + systemReason())) }
            guard scope.allows(resolved) else {
                let directories = scope.directories.map { "'\($0)'" }.joined(separator: ", ")
                return .failure(
                    IncludeFailure(
                        "\(place)'\(resolved)' is outside the map's directory\(scope.directories.count == 1 ? "" : " and the allowed ones") (\(directories))",
                        hint: "an include reads only files under the map's own directory; to allow another, "
                            + "pass --include-path DIR or set GRAPHIMPORT_INCLUDE_PATH"))
            }
            let bytes: [UInt8]
            do throws(MapFileError) {
                bytes = try self.bytes(of: resolved, regularOnly: true)
            } catch {
                switch error {
                case .unreadable(_, let reason): return .failure(IncludeFailure(place + reason))
                case .tooLarge(_, let bytes):
                    return .failure(
                        IncludeFailure(
                            "\(place)it is \(bytes) bytes; a map may be at most \(ImportLimits.maxMapBytes) bytes",
                            hint: "a map this large is not written by hand; check the path"))
                }
            }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                let bad = notUTF8(bytes, path: path)
                let detail = bad.message.replacing("the map is not UTF-8 text: ", with: "")
                return .failure(
                    IncludeFailure(
                        "\(place)it is not UTF-8 text: at line \(bad.location.line), column \(bad.location.column), \(detail)",
                        hint: "save it as UTF-8"))
            }
            return .success(MapFile(name: path, identity: resolved, text: text))
        }
    }

    /// The error for a map that is not UTF-8, at the line and column of its first bad byte.
    package static func notUTF8(_ bytes: [UInt8], path: String) -> Diagnostic {
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

    /// The absolute path of a file with symbolic links resolved; the path as given when it has none.
    package static func resolvedPath(_ path: String) -> String { resolve(path) ?? path }

    private static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The system's reason for the last failure, lower case (`no such file or directory`).
    private static func systemReason() -> String { String(cString: strerror(errno)).lowercased() }

    /// `a named pipe (FIFO)`, `a character device`: what a file that is not a regular one is.
    private static func fileKind(_ kind: mode_t) -> String {
        switch kind {
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }
}
