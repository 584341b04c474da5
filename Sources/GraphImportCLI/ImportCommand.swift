import Foundation
import GraphImport
import GraphImportPostgres
import GraphImportJSON
import GraphImportMapping

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `graphimport [FILE|-] --map MAP [--store PATH] [options]`: the import itself.
enum ImportCommand {
    static let options: [ParsedArguments.OptionSpec] = [
        .init(name: "--map", takesValue: true, short: "m"), .init(name: "--store", takesValue: true, short: "s"),
        .init(name: "--format", takesValue: true), .init(name: "--wait", takesValue: true),
        .init(name: "--dry-run", takesValue: false, short: "n"), .init(name: "--skip-invalid", takesValue: false),
        .init(name: "--json", takesValue: false), .init(name: "--quiet", takesValue: false, short: "q"),
        .init(name: "--allow-empty", takesValue: false), .init(name: "--if-changed", takesValue: false),
        .init(name: "--set-meta", takesValue: true),
        .init(name: "--adopt-store", takesValue: false), .init(name: "--check-store", takesValue: false),
        .init(name: "--mode", takesValue: true), .init(name: "--compare-all", takesValue: false),
        .init(name: "--verbose", takesValue: false, short: "v"),
        MapLoader.includePathOption,
    ]
    /// Objects of each entity that `--verbose` shows with their changes before only a count follows.
    static let shownChanges = 10
    /// Per-record error lines printed under `--skip-invalid` before only a count follows.
    static let maxReportedRecords = 100

    /// The command line, checked as far as it can be without the map, the input or the store.
    struct Arguments {
        var parsed: ParsedArguments
        var mapPath: String
        var options: ImportOptions
        var verbose: Bool
        var inputPath: String?
    }

    /// `inputIsTerminal`: no FILE with a terminal on standard input is a usage error.
    static func parse(_ arguments: [String], inputIsTerminal: Bool) throws(UsageError) -> Arguments {
        let parsed = try ParsedArguments(arguments, options: options)
        guard let mapPath = parsed.values["--map"] else { throw missingMap(feed: parsed.operands.first) }
        if parsed.operands.count > 1 {
            throw UsageError(message: "Unexpected argument '\(parsed.operands[1])': give one input file (or - for standard input)", hint: nil)
        }
        var options = ImportOptions(skipInvalid: parsed.has("--skip-invalid"), dryRun: parsed.has("--dry-run"))
        options.allowEmpty = parsed.has("--allow-empty")
        options.ifChanged = parsed.has("--if-changed")
        options.adoptStore = parsed.has("--adopt-store")
        options.checkStore = parsed.has("--check-store")
        options.comparesAll = parsed.has("--compare-all")
        options.mode = try modeOption(parsed.values["--mode"])
        let verbose = parsed.has("--verbose")
        if verbose { options.changeLimit = shownChanges }
        for assignment in parsed.all("--set-meta") {
            options.setMeta.append(try MetaCommand.assignment(assignment))
        }
        options.format = try InputFormatOption.parse(parsed.values["--format"])
        options.busyTimeout = try parsed.seconds("--wait", default: options.busyTimeout)
        let inputPath = parsed.operands.first
        if inputPath == nil && inputIsTerminal {
            throw UsageError(message: "No input: give a FILE, or pipe JSON into graphimport", hint: nil)
        }
        return Arguments(parsed: parsed, mapPath: mapPath, options: options, verbose: verbose, inputPath: inputPath)
    }

    static func run(_ arguments: [String], io: ToolIO) throws(UsageError) -> ExitCode {
        let checked = try parse(arguments, inputIsTerminal: io.inputIsTerminal)
        let parsed = checked.parsed, mapPath = checked.mapPath, verbose = checked.verbose, inputPath = checked.inputPath
        var options = checked.options
        options.isCancelled = io.isInterrupted

        let scope = try MapLoader.scope(forMap: mapPath, parsed: parsed, io: io)
        let wantsJSON = parsed.has("--json")
        let plan: ImportPlan
        do {
            plan = try MapLoader.load(mapPath, scope: scope)
        } catch {
            let status = MapLoader.report(error, io: io, importing: true)
            if wantsJSON {
                let failure = FailureReport(status, error.message, hint: error.hint)
                io.writeOut(failure.json(input: inputPath ?? "<stdin>", store: nil, runID: nil) + "\n")
            }
            return status
        }
        let store = StoreLocation(parsed.values["--store"] ?? StoreLocation.defaultSQLitePath(forMap: mapPath))
        if let path = store.sqlitePath { StoreMessages.warnIfHardLinked(path, io: io) }

        let inputName: String
        let descriptor: Int32
        if let inputPath, inputPath != "-" {
            inputName = inputPath
            descriptor = open(inputPath, O_RDONLY)
            var reason: String?
            var info = stat()
            if descriptor < 0 {
                reason = String(cString: strerror(errno))
            } else if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                // A directory opens for reading; only its first read fails (EISDIR), no I/O error.
                reason = "it is a directory"
                close(descriptor)
            }
            if let reason {
                let failure = FailureReport(.noInput, "cannot open the input '\(inputPath)': \(reason)", hint: nil)
                failure.write(io: io)
                if wantsJSON { io.writeOut(failure.json(input: inputPath, store: store.description, runID: nil) + "\n") }
                return .noInput
            }
        } else {
            inputName = "<stdin>"
            descriptor = io.standardInput
        }
        defer { if descriptor != io.standardInput { close(descriptor) } }
        options.format = InputFormatOption.resolve(options.format, path: inputPath)
        // A regular file is hashed first, so that --if-changed skips without importing.
        if options.ifChanged, descriptor != io.standardInput, let fingerprint = hashFile(descriptor) {
            options.knownInput = fingerprint
        }

        let quiet = parsed.has("--quiet")
        var reported = 0
        let progress = (io.errorIsTerminal && !quiet) ? ProgressLine(io: io, totalBytes: regularFileSize(descriptor)) : nil
        let onSkip: (RecordError) -> Void = { error in
            reported += 1
            if reported <= maxReportedRecords {
                reportRecord(error, input: inputName, io: io, skipped: true)
            }
        }
        var runID: Int64?
        do throws(ImportError) {
            let source = FileDescriptorSource(fileDescriptor: descriptor, isInterrupted: io.isInterrupted)
            let onProgress = progress.map { line in { line.update(records: $0, bytes: $1) } }
            let summary = try GraphImporter(plan: plan).run(
                source: source, inputName: inputName, store: store, options: options, onSkip: onSkip, onProgress: onProgress,
                onRunBegan: { runID = $0 })
            progress?.finish()
            if reported > maxReportedRecords {
                io.writeError("graphimport: \(counted(reported - maxReportedRecords, "more skipped record")) not shown\n")
            }
            let status: ExitCode = summary.skippedRecords > 0 && !summary.unchangedInput ? .partial : .ok
            if wantsJSON { io.writeOut(SummaryFormat.json(summary, status: status) + "\n") }
            if !quiet { io.writeError(SummaryFormat.text(summary)) }
            if verbose && !quiet { io.writeError(SummaryFormat.changes(summary)) }
            return status
        } catch {
            progress?.finish()
            let failure = failureReport(error, input: inputName)
            failure.write(io: io)
            if wantsJSON { io.writeOut(failure.json(input: inputName, store: store.description, runID: runID) + "\n") }
            return failure.status
        }
    }

    /// No `--map`: most often a first run with a feed and no map yet, so the hint says how to
    /// draft one from the feed (`issues.json` -> `issues.map`), and how to import (or check) with it.
    static func missingMap(feed: String?, checking: Bool = false) -> UsageError {
        let hint: String
        if let feed, feed != "-" {
            let map = shellWord(draftedMapPath(forFeed: feed))
            let feed = shellWord(feed)
            hint =
                "A feed is imported through a map. Draft one from the feed with: graphimport init \(feed) -o \(map)\n"
                + (checking ? "then check it with: graphimport check --map \(map) --sample \(feed)" : "then import with: graphimport \(feed) --map \(map)")
        } else {
            hint = "A feed is imported through a map. Draft one from a saved feed with: graphimport init FEED -o FEED.map"
        }
        return UsageError(message: "Missing expected argument '--map <map>'", hint: hint)
    }

    /// Where `init` is told to write a feed's map in hints: beside it, its extension `.map`.
    static func draftedMapPath(forFeed feed: String) -> String {
        let slash = feed.lastIndex(of: "/").map { feed.index(after: $0) } ?? feed.startIndex
        let name = feed[slash...]
        let base = name.lastIndex(of: ".").flatMap { $0 > name.startIndex ? name[..<$0] : nil } ?? name
        return String(feed[..<slash]) + base + ".map"
    }

    /// A path as a shell word: as it is when it holds only safe characters, else in single quotes.
    static func shellWord(_ text: String) -> String {
        let safe = text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._/-+=:,@%".unicodeScalars.contains(scalar))
        }
        return safe && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `--mode insert|update|upsert`; nil when not given.
    static func modeOption(_ value: String?) throws(UsageError) -> ImportMode? {
        guard let value else { return nil }
        guard let mode = ImportMode(rawValue: value) else {
            throw UsageError(message: "The value '\(value)' is invalid for '--mode'", hint: "Give insert, update or upsert.")
        }
        return mode
    }

    /// Prints an import failure and returns its exit status; the store was left as it was.
    static func report(_ error: ImportError, input: String, io: ToolIO) -> ExitCode {
        let failure = failureReport(error, input: input)
        failure.write(io: io)
        return failure.status
    }

    /// How an import failure is shown, and its exit status.
    static func failureReport(_ error: ImportError, input: String) -> FailureReport {
        let nothing = "nothing was imported; the store is unchanged"
        switch error {
        case .json(let error):
            let where_ = "\(input):\(error.position.line):\(error.position.column)"
            var failure = FailureReport(error.kind == .io ? .ioError : .dataError, "\(where_): \(error.message)", hint: error.hint ?? nothing)
            (failure.line, failure.column) = (error.position.line, error.position.column)
            return failure
        case .record(let error):
            var failure = FailureReport(
                .dataError, recordLine(error, input: input),
                hint: error.hint ?? "fix the record or the map; or pass --skip-invalid to import the other records")
            (failure.line, failure.column, failure.record, failure.path) = (error.position.line, error.position.column, error.recordIndex, error.path)
            return failure
        case .migration(let store, let refusals):
            var failure = FailureReport(.configuration, "cannot migrate the store \(store) to this map; nothing was imported", hint: nil)
            failure.details = refusals.map(\.description)
            return failure
        case .storeConflict(let store, let refusals):
            var failure = FailureReport(.cannotCreate, "the store \(store) holds tables this map cannot take as they are; nothing was imported", hint: nil)
            failure.details = refusals.map(\.description)
            return failure
        case .store(let path, let failure):
            if let server = failure.server, failure.kind != .busy, failure.kind != .constraint {
                // A failure SQLite has too, worded for the server (its SQLSTATE's hint), with the same exit status.
                return PostgresStoreCommand.report(server, store: path)
            }
            switch failure.kind {
            case .busy:
                // The server's own words (which lock, how long it waited), or SQLite's lock with its holder.
                let detail = failure.server?.message ?? "another import holds its write lock" + (failure.holder.map { " (\($0))" } ?? "")
                return FailureReport(.temporaryFailure, "the store \(path) is busy: \(detail)", hint: "retry later, or wait longer with --wait SECONDS")
            case .cannotOpen:
                return FailureReport(
                    .cannotCreate, "cannot open the store \(path): \(failure.message)",
                    hint: "check that the directory exists and is writable, and that the path is not a symbolic link")
            case .readOnly:
                return FailureReport(.permission, "cannot write the store \(path): \(failure.message)", hint: "make the file and its directory writable")
            case .diskFull:
                return FailureReport(.ioError, "the disk is full while writing \(path)", hint: nothing)
            case .io:
                return FailureReport(
                    .ioError, "\(path): \(failure.message)", hint: "check free space, the file-size limit (ulimit -f) and the disk; \(nothing)")
            default:
                let (message, hint) = StoreMessages.describe(failure, path: path)
                return FailureReport(ExitCode(failure.kind), message, hint: hint ?? nothing)
            }
        case .server(let store, let error):
            return PostgresStoreCommand.report(error, store: store)
        case .unsupported(let store, let message, let refusals):
            return PostgresStoreCommand.unsupported(store: store, message: message, refusals: refusals)
        case .meta(let name, let message, let hint):
            return FailureReport(.dataError, "\(input): metadata '\(name)': \(message)", hint: hint ?? nothing)
        case .denied(let denied):
            return FailureReport(.dataError, denied.message, hint: denied.hint)
        case .internalError(let message):
            return FailureReport(.software, "internal error: \(message)", hint: "this is a bug in graphimport; nothing was imported")
        case .interrupted:
            return FailureReport(.temporaryFailure, "interrupted: the import was stopped and rolled back", hint: "run it again; the store is as it was")
        case .noRecords(let path, let message, let hint, let position):
            var failure = FailureReport(.dataError, "\(input):\(position.line):\(position.column): \(message)", hint: hint ?? nothing)
            (failure.line, failure.column, failure.path) = (position.line, position.column, path)
            return failure
        case .emptyInput:
            return FailureReport(
                .dataError, "\(input): the input is empty",
                hint: "an empty feed usually means the download failed; pass --allow-empty if it is expected")
        }
    }

    /// `feed.json:12:3: Tweet.createdAt: … at $[41].created_at (record 41)`
    static func recordLine(_ error: RecordError, input: String) -> String {
        let what = (error.member.map { "\($0): " } ?? "") + error.message
        return "\(input):\(error.position.line):\(error.position.column): \(what) at \(error.path) (record \(error.recordIndex))"
    }

    /// `graphimport: error: feed.json:12:3: Tweet.createdAt: … at $[41].created_at (record 41)`
    static func reportRecord(_ error: RecordError, input: String, io: ToolIO, skipped: Bool) {
        if skipped {
            io.writeError("graphimport: skipped: \(escapeControlCharacters(recordLine(error, input: input)))\n")
        } else {
            failureReport(.record(error), input: input).write(io: io)
        }
    }
}

/// The size of a regular file (so that progress can show a percentage); nil for a pipe or a terminal.
func regularFileSize(_ descriptor: Int32) -> Int? {
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else { return nil }
    return Int(info.st_size)
}

/// The SHA-256 and size of a regular file's contents, read from the start; the file is rewound
/// after. Nil for a pipe or anything that cannot be rewound.
func hashFile(_ descriptor: Int32) -> InputFingerprint? {
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    var hash = SHA256()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var bytes = 0
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 { return nil }
        if count == 0 { break }
        bytes += count
        buffer.withUnsafeBytes { hash.update(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }
    guard lseek(descriptor, 0, SEEK_SET) == 0 else { return nil }
    return InputFingerprint(sha256: SHA256.hex(hash.finalize()), bytes: bytes)
}
