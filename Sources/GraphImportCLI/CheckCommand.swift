import GraphImport
import GraphImportJSON
import GraphImportMapping
import GraphImportPostgres

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `graphimport check --map MAP [--sample FEED [--format F] [--strict]]` and
/// `graphimport schema --map MAP [--store STORE]` (PostgreSQL's DDL for a PostgreSQL store).
enum CheckCommand {
    static let options: [ParsedArguments.OptionSpec] = [
        .init(name: "--map", takesValue: true, short: "m"), .init(name: "--sample", takesValue: true),
        .init(name: "--format", takesValue: true), .init(name: "--strict", takesValue: false), MapLoader.includePathOption,
    ]
    static let schemaOptions: [ParsedArguments.OptionSpec] = [
        .init(name: "--map", takesValue: true, short: "m"), .init(name: "--store", takesValue: true, short: "s"), MapLoader.includePathOption,
    ]

    /// The command line, checked as far as it can be without the map or the sample.
    struct Arguments {
        var parsed: ParsedArguments
        var mapPath: String
        var samplePath: String?
        var format: JSONInputFormat
    }

    static func parse(_ arguments: [String], printSchema: Bool) throws(UsageError) -> Arguments {
        let parsed = try ParsedArguments(arguments, options: printSchema ? Subcommand.schema.options : options)
        guard let mapPath = parsed.values["--map"] ?? parsed.operands.first else {
            throw printSchema
                ? UsageError(message: "Missing expected argument '--map <map>'", hint: nil)
                : ImportCommand.missingMap(feed: parsed.values["--sample"], checking: true)
        }
        let samplePath = parsed.values["--sample"]
        let format = try InputFormatOption.parse(parsed.values["--format"])
        if samplePath == nil, let option = ["--strict", "--format"].first(where: { parsed.has($0) || parsed.values[$0] != nil }) {
            throw UsageError(message: "'\(option)' needs '--sample <feed>'", hint: nil)
        }
        return Arguments(parsed: parsed, mapPath: mapPath, samplePath: samplePath, format: format)
    }

    static func run(_ arguments: [String], io: ToolIO, printSchema: Bool) throws(UsageError) -> ExitCode {
        let checked = try parse(arguments, printSchema: printSchema)
        let parsed = checked.parsed, mapPath = checked.mapPath, samplePath = checked.samplePath, format = checked.format
        let scope = try MapLoader.scope(forMap: mapPath, parsed: parsed, io: io)
        let plan: ImportPlan
        do {
            plan = try MapLoader.load(mapPath, scope: scope)
        } catch {
            return MapLoader.report(error, io: io)
        }
        if printSchema {
            let statements = parsed.values["--store"].flatMap { StoreLocation($0).connection }.map { _ in
                PostgresSchemaSQL.createStatements(for: plan.schema) + PostgresDigestTriggers.createStatements(for: plan.schema.digestWatches)
            }
            let overlong = statements == nil ? [] : PostgresSchemaSQL.overlongNames(in: plan.schema)
            if !overlong.isEmpty {
                reportError(
                    "the map makes names longer than PostgreSQL's \(PostgresSchemaSQL.maxNameBytes) bytes: \(overlong.joined(separator: ", "))",
                    hint: "give the entity a shorter `table` name, or the attribute or relationship a shorter name", io: io)
                return .configuration
            }
            io.writeOut((statements ?? plan.schemaSQL).map { $0 + ";\n" }.joined())
            return .ok
        }
        let entities = plan.entities.map(\.name).joined(separator: ", ")
        io.writeOut("\(mapPath): ok: \(counted(plan.entities.count, "entity", plural: "entities")) (\(entities))\n")
        // Lines that work but may not mean what they say: on stderr, the exit status unchanged.
        let warnings = plan.warnings
        if !warnings.isEmpty { io.writeError(warnings.map { escapedLines($0.description) + "\n" }.joined()) }
        guard let samplePath else { return .ok }
        return checkSample(
            plan: plan, path: samplePath, format: InputFormatOption.resolve(format, path: samplePath), strict: parsed.has("--strict"), io: io)
    }

    /// Reads the sample through the map and prints its warnings (errors under `--strict`) and a
    /// summary line on stderr: 0 when it fits or only warns, 65 when `--strict` finds anything.
    static func checkSample(plan: ImportPlan, path: String, format: JSONInputFormat, strict: Bool, io: ToolIO) -> ExitCode {
        let fromStandardInput = path == "-"
        let name = fromStandardInput ? "<stdin>" : path
        let descriptor = fromStandardInput ? io.standardInput : open(path, O_RDONLY)
        if descriptor < 0 {
            reportError("cannot open the sample '\(path)': \(String(cString: strerror(errno)))", io: io)
            return .noInput
        }
        defer { if !fromStandardInput { close(descriptor) } }
        if isDirectory(descriptor) {
            reportError("cannot open the sample '\(path)': it is a directory", hint: "give a JSON or JSON Lines file", io: io)
            return .noInput
        }
        let report: SampleReport
        do {
            report = try SampleCheck(plan: plan).run(
                source: FileDescriptorSource(fileDescriptor: descriptor, isInterrupted: io.isInterrupted), format: format)
        } catch {
            reportError("\(name):\(error.position.line):\(error.position.column): \(error.message)", hint: error.hint, io: io)
            return error.kind == .io ? .ioError : .dataError
        }
        var text = ""
        for var diagnostic in report.diagnostics {
            if strict, diagnostic.severity == .warning { diagnostic.severity = .error }
            text += escapedLines(diagnostic.description) + "\n"
        }
        for skipped in report.skippedElements {
            text +=
                "check: \(counted(skipped.count, "element")) of \(skipped.member) would be skipped (unkeyed skip): \(skipped.reason) at \(skipped.paths[0])\n"
        }
        // Notes say what the import stores as absent: they are printed, not counted.
        let count = report.diagnostics.count { $0.severity != .note }
        let kind = strict ? "error" : "warning"
        let found = count == 0 ? "no \(kind)s" : counted(count, kind)
        text += "check: \(found) for \(counted(report.records, "record")) of \(name)"
        text += strict && count > 0 ? "; the sample does not fit the map\n" : "\n"
        io.writeError(text)
        return strict && count > 0 ? .dataError : .ok
    }

    /// Each line of a multi-line text escaped on its own, so that keys read from the sample
    /// cannot break a diagnostic's lines.
    private static func escapedLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escapeControlCharacters(String($0)) }.joined(separator: "\n")
    }
}
