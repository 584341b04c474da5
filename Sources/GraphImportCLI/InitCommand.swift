import GraphImport
import GraphImportJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `graphimport init FEED... [--entity NAME] [--format F] [-o FILE]`: prints a starter map drafted
/// from one or more samples of a feed (`-` for standard input).
enum InitCommand {
    static let options: [ParsedArguments.OptionSpec] = [
        .init(name: "--entity", takesValue: true), .init(name: "--format", takesValue: true),
        .init(name: "--output", takesValue: true, short: "o"),
    ]

    /// The command line, checked as far as it can be without the samples.
    struct Arguments {
        var parsed: ParsedArguments
        var entity: String?
        var format: JSONInputFormat
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Arguments {
        let parsed = try ParsedArguments(arguments, options: options)
        guard !parsed.operands.isEmpty else {
            throw UsageError(message: "Missing expected argument '<feed>'", hint: nil)
        }
        if parsed.operands.filter({ $0 == "-" }).count > 1 {
            throw UsageError(message: "Standard input ('-') is named more than once", hint: "name it once among the samples")
        }
        let entity = parsed.values["--entity"]
        if let entity, !isName(entity) {
            throw UsageError(
                message: "The entity name '\(entity)' is not a map NAME",
                hint: "A name starts with a letter or '_' and holds only ASCII letters, digits and '_' (Tweet, PullRequest).")
        }
        if let entity, ["string", "int", "double", "bool", "date", "url", "data", "json"].contains(entity.lowercased()) {
            throw UsageError(message: "The entity name '\(entity)' is a built-in type", hint: "Choose another name ('\(entity)Item').")
        }
        return Arguments(parsed: parsed, entity: entity, format: try InputFormatOption.parse(parsed.values["--format"]))
    }

    static func run(_ arguments: [String], io: ToolIO) throws(UsageError) -> ExitCode {
        let checked = try parse(arguments)
        let parsed = checked.parsed, entity = checked.entity, format = checked.format
        let output = parsed.values["--output"]
        var samples: [MapDrafter.Sample] = []
        var opened: [Int32] = []
        defer { for descriptor in opened { close(descriptor) } }
        for path in parsed.operands {
            let fromStandardInput = path == "-"
            let descriptor = fromStandardInput ? io.standardInput : open(path, O_RDONLY)
            if descriptor < 0 {
                reportError("cannot open the sample '\(path)': \(String(cString: strerror(errno)))", io: io)
                return .noInput
            }
            if !fromStandardInput { opened.append(descriptor) }
            if isDirectory(descriptor) {
                reportError("cannot open the sample '\(path)': it is a directory", hint: "give a JSON or JSON Lines file", io: io)
                return .noInput
            }
            samples.append(
                MapDrafter.Sample(
                    source: FileDescriptorSource(fileDescriptor: descriptor, isInterrupted: io.isInterrupted),
                    name: fromStandardInput ? nil : path, format: InputFormatOption.resolve(format, path: path)))
        }
        let draft: MapDraft
        do {
            draft = try MapDrafter.draft(samples: samples, entity: entity)
        } catch {
            let name = parsed.operands.count == 1 ? (samples[0].name ?? "<stdin>") : (error.sample ?? "<stdin>")
            guard let json = error.json else {
                reportError("\(name): \(error.message)", hint: error.hint, io: io)
                return .dataError
            }
            reportError("\(name):\(json.position.line):\(json.position.column): \(json.message)", hint: json.hint, io: io)
            return json.kind == .io ? .ioError : .dataError
        }
        guard let output else {
            io.writeOut(draft.text)
            return .ok
        }
        return write(draft, to: output, io: io)
    }

    /// Writes the draft to a new file; an existing file is left alone (a map may hold hours of edits).
    private static func write(_ draft: MapDraft, to path: String, io: ToolIO) -> ExitCode {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else {
            let reason = errno == EEXIST ? "it exists; init does not overwrite a map" : String(cString: strerror(errno))
            reportError("cannot write the map '\(path)': \(reason)", hint: errno == EEXIST ? "remove it, or choose another name" : nil, io: io)
            return .cannotCreate
        }
        defer { close(descriptor) }
        writeAll(descriptor, draft.text)
        let entities = draft.entities.joined(separator: ", ")
        io.writeError(
            "graphimport: drafted \(path): \(counted(draft.records, "record")) at \(draft.recordsPaths.joined(separator: ", ")); entities \(entities)\n"
        )
        return .ok
    }

    private static func isName(_ text: String) -> Bool {
        guard let first = text.utf8.first, !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) else { return false }
        return text.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
        }
    }
}
