import Foundation
import GraphImportTestSupport
import Testing

/// Every shell transcript in README.md and docs/*.md (a code block whose lines start with `$ `) is
/// run with the built tool, and what it prints is compared with the lines shown under each command,
/// so that an example cannot go stale. A document's transcripts run in order in one temporary
/// directory holding copies of `Samples/` and `Mappings/`, as a reader following it from the
/// repository's directory would run them.
///
/// Compared after normalising: durations (`0.18 s`) and timestamps match any; a line `...` or `…`
/// stands for any number of lines, and `…` inside a line for any text. A command must exit 0
/// unless the output shown under it holds an `error:`.
@Suite("Documentation examples")
struct DocumentationExampleTests {
    /// Commands the documents show that cannot run here, each with the reason, and what runs in
    /// their place (nil: nothing). The test fails when an entry is no longer in any document.
    static let notRunHere: [String: (reason: String, instead: String?)] = [
        "git clone <this repository> graphimport && cd graphimport": (
            "needs the network; the test runs in a copy of the repository's Samples/ and Mappings/", nil
        ),
        "bash .ci/setup": ("installs system-wide; the test runs the graphimport it built", nil),
        "curl -sf https://api.example.com/issues > issues.json": (
            "needs the network; the alternative the line's comment gives runs instead", "cp Samples/issues.json ."
        ),
    ]

    /// Code blocks that show commands or graphimport's output but are no transcript this test can
    /// run, by document and first line, each with the reason. Any other block that shows a command
    /// (a line starting with `graphimport`, `sqlite3`, `curl`, `bash`, `swift` or `psql`) must be
    /// a transcript (`$ ` lines), or the test fails.
    static let notTranscripts: [(document: String, firstLine: String, reason: String)] = [
        ("README.md", "graphimport feed.json --map Mappings/tweets.map", "a synopsis: feed.json and the URL stand for the reader's feed"),
        ("README.md", "bash .ci/setup", "installs system-wide with apt and sudo; CI runs it"),
        ("README.md", "bash .ci/test", "runs the whole test suite, this test included"),
        ("docs/cli.md", "graphimport [FILE|-] --map MAP [--store PATH] [--dry-run] [--skip-invalid] [--json] [--quiet]", "the synopsis"),
        ("docs/cron.md", "set -euo pipefail", "recipes that fetch from a server with curl; CronRecipeTests runs Samples/mirror-feed.sh, which holds them"),
        ("docs/cron.md", "url=$FEED_URL", "the paging recipe, which fetches with curl; CronRecipeTests runs it in Samples/mirror-feed.sh"),
        (
            "docs/cron.md",
            "graphimport: error: the store /srv/mirror/timeline.sqlite is busy: another import holds its write lock (graphimport pid 4711 on cronhost, run 812 started at 2024-05-01T03:00:00.125Z)",
            "needs another import holding the store's lock; the message is tested with one in StoreFailureTests"
        ),
        (
            "docs/postgresql.md", "graphimport Samples/tweets.json --map Mappings/tweets.map --store postgresql://importer@db1/feeds",
            "needs a PostgreSQL server at db1; PostgresCLITests run these commands against a throwaway cluster"
        ),
        (
            "docs/postgresql.md",
            "graphimport schema --map Mappings/tweets.map --store postgresql://importer@db1/feeds | psql -h db1 -U importer feeds",
            "needs a PostgreSQL server at db1"
        ),
        ("docs/reliability.md", "swift build --build-tests", "builds and runs the reliability suite (about a minute)"),
        ("docs/reliability.md", "bash Fuzz/run                    # 60 s per target, about 3 minutes", "runs the fuzzers for minutes"),
    ]

    /// What the prose between two commands tells the reader to do, done before `command` runs.
    /// `prose` must still be in the document, so that the edit and the words cannot drift apart.
    struct ProseStep {
        var document: String
        var prose: String
        var command: String
        var file: String
        /// Each replacement, with how many places the prose says it makes (nil: any number).
        var replacements: [(old: String, new: String, places: Int?)]
    }

    static let proseSteps: [ProseStep] = [
        ProseStep(
            document: "README.md", prose: "(here `Assignee` to `User` in its five places, and its table to `users`)",
            command: "graphimport check --map issues.map --sample issues.json", file: "issues.map",
            replacements: [("table assignees", "table users", 1), ("Assignee", "User", 5)])
    ]

    /// Code blocks that show a file a command wrote, compared with the file where the block
    /// stands in the document: (document, the block's first line, the file).
    static let fileExcerpts: [(document: String, firstLine: String, file: String)] = [
        ("README.md", "# Drafted by `graphimport init` from issues.json (JSON, 25 values read).", "issues.map")
    ]

    /// The documents whose transcripts run: README.md and every docs/*.md.
    static let documents: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: repoFile("docs"))) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }()

    @Test(arguments: documents)
    func transcriptsPrintWhatTheDocumentShows(document: String) throws {
        let text = try String(contentsOfFile: repoFile(document), encoding: .utf8)
        let directory = TemporaryDirectory("graphimport-doc")
        for folder in ["Samples", "Mappings"] { try copyTracked(folder, into: directory) }
        for block in CodeBlock.all(in: text) {
            if let excerpt = Self.fileExcerpts.first(where: { $0.document == document && block.lines.first == $0.firstLine }) {
                let file = (try? String(contentsOfFile: directory.path(excerpt.file), encoding: .utf8)) ?? "(no such file)"
                expectShown(block.lines, printed: file, what: "\(excerpt.file) as \(document):\(block.line) shows it")
                continue
            }
            for step in block.transcript() {
                try run(step, of: document, in: directory)
            }
        }
    }

    @Test func everyCommandBlockRunsOrIsListedWithItsReason() throws {
        let texts = try Self.documents.map { ($0, try String(contentsOfFile: repoFile($0), encoding: .utf8)) }
        let commands = texts.flatMap { _, text in CodeBlock.all(in: text).flatMap { $0.transcript().map(\.command) } }
        for command in Self.notRunHere.keys {
            #expect(commands.contains(command), "notRunHere names '\(command)', which no document shows any more")
        }
        for step in Self.proseSteps {
            let text = texts.first { $0.0 == step.document }?.1 ?? ""
            #expect(text.contains(step.prose), "\(step.document) no longer says \(step.prose)")
            #expect(commands.contains(step.command), "\(step.document) no longer shows \(step.command)")
        }
        for excerpt in Self.fileExcerpts {
            let text = texts.first { $0.0 == excerpt.document }?.1 ?? ""
            #expect(CodeBlock.all(in: text).contains { $0.lines.first == excerpt.firstLine }, "\(excerpt.document) no longer shows \(excerpt.file)")
        }
        for (document, text) in texts {
            for block in CodeBlock.all(in: text) where block.transcript().isEmpty {
                let listed =
                    Self.notTranscripts.contains { $0.document == document && $0.firstLine == block.lines.first }
                    || Self.fileExcerpts.contains { $0.document == document && $0.firstLine == block.lines.first }
                let showsCommand = block.lines.contains { $0.starts(with: #/(graphimport|sqlite3|curl|bash|swift|psql)\b/#) }
                #expect(
                    listed || !showsCommand,
                    "\(document):\(block.line) shows a command but no `$ ` transcript: write it as one, or list it in notTranscripts with the reason")
            }
        }
        for entry in Self.notTranscripts {
            let text = texts.first { $0.0 == entry.document }?.1 ?? ""
            #expect(CodeBlock.all(in: text).contains { $0.lines.first == entry.firstLine }, "\(entry.document) no longer shows \(entry.firstLine)")
        }
        // The walk-throughs are found at all: a parser that found nothing would pass everything.
        let readmeCommands = texts.first { $0.0 == "README.md" }.map { CodeBlock.all(in: $0.1).flatMap { $0.transcript() }.count }
        #expect((readmeCommands ?? 0) >= 8)
    }

    /// docs/library.md's snippet is compiled as LibrarySnippet.swift: the imports and the body
    /// between its marks must be the document's block, line for line.
    @Test func librarySnippetIsTheDocuments() throws {
        let document = try String(contentsOfFile: repoFile("docs/library.md"), encoding: .utf8)
        let block = try #require(CodeBlock.all(in: document).first { $0.lines.first == "import Foundation" }, "docs/library.md shows no snippet")
        let source = try String(contentsOfFile: repoFile("Tests/GraphImportCLITests/LibrarySnippet.swift"), encoding: .utf8)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let begin = try #require(lines.firstIndex(of: "    // The document's block begins."))
        let end = try #require(lines.firstIndex(of: "    // The document's block ends."))
        let compiled = lines.filter { $0.hasPrefix("import ") } + [""] + lines[(begin + 1)..<end].map { String($0.dropFirst(4)) }
        #expect(compiled == block.lines, "LibrarySnippet.swift and docs/library.md:\(block.line) differ")
    }

    /// The sample programs whose output a document shows: (document, the words before the output's
    /// block, the program built beside graphimport).
    static let programOutputs: [(document: String, marker: String, program: String)] = [
        ("docs/library.md", "`Samples/ReadExample/main.swift`", "read-example"),
        ("docs/library.md", "`Samples/HooksExample/main.swift`", "hooks-example"),
    ]

    /// The sample programs print what the document shows under them ("It prints"), line for line.
    @Test(arguments: programOutputs.map(\.program))
    func sampleProgramPrintsWhatTheDocumentShows(program: String) throws {
        let entry = try #require(Self.programOutputs.first { $0.program == program })
        let text = try String(contentsOfFile: repoFile(entry.document), encoding: .utf8)
        let markerLine = try #require(text.range(of: entry.marker).map { text[..<$0.lowerBound].filter { $0 == "\n" }.count + 1 })
        // The program's code, then what it prints.
        let blocks = CodeBlock.all(in: text).filter { $0.line > markerLine }
        let shown = try #require(blocks.dropFirst().first, "\(entry.document) shows no output after \(entry.marker)")
        let process = Process()
        process.executableURL = graphimportBinary.deletingLastPathComponent().appendingPathComponent(program)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        expectShown(shown.lines, printed: printed, what: "\(program) (\(entry.document):\(shown.line))", exactly: true)
    }

    /// The sample programs a document shows an excerpt of: (document, the words before the
    /// excerpt's block, the program's source).
    static let programExcerpts: [(document: String, marker: String, source: String)] = [
        ("docs/library.md", "`Samples/ReadExample/main.swift`", "Samples/ReadExample/main.swift"),
        ("docs/library.md", "`Samples/HooksExample/main.swift`", "Samples/HooksExample/main.swift"),
    ]

    /// An excerpt of a sample program in a document is the program's code: each line of it, its
    /// trailing comment and indentation aside, is a line of the program, in the same order.
    @Test(arguments: programExcerpts.map(\.source))
    func programExcerptIsTheProgramsCode(sourcePath: String) throws {
        let entry = try #require(Self.programExcerpts.first { $0.source == sourcePath })
        let text = try String(contentsOfFile: repoFile(entry.document), encoding: .utf8)
        let markerLine = try #require(text.range(of: entry.marker).map { text[..<$0.lowerBound].filter { $0 == "\n" }.count + 1 })
        let excerpt = try #require(CodeBlock.all(in: text).first { $0.line > markerLine })
        let source = try String(contentsOfFile: repoFile(sourcePath), encoding: .utf8)
        func code(_ line: String) -> String {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let withoutComment = trimmed.range(of: "  //").map { String(trimmed[..<$0.lowerBound]) } ?? trimmed
            return withoutComment.trimmingCharacters(in: .whitespaces)
        }
        let program = source.split(separator: "\n").map { code(String($0)) }
        var next = program.startIndex
        var compared = 0
        for line in excerpt.lines.map(code) where !line.isEmpty {
            guard let found = program[next...].firstIndex(of: line) else {
                Issue.record("\(entry.document):\(excerpt.line): `\(line)` is not in \(sourcePath) (after the lines before it)")
                return
            }
            next = found + 1
            compared += 1
        }
        #expect(compared >= 10, "\(entry.document) shows too little of \(sourcePath) to compare")
    }

    // MARK: Running

    private func run(_ step: TranscriptStep, of document: String, in directory: TemporaryDirectory) throws {
        var command = step.command
        if let exception = Self.notRunHere[command] {
            guard let instead = exception.instead else { return }
            command = instead
        }
        for prose in Self.proseSteps where prose.document == document && prose.command == command {
            var file = try String(contentsOfFile: directory.path(prose.file), encoding: .utf8)
            for replacement in prose.replacements {
                let places = file.components(separatedBy: replacement.old).count - 1
                if let expected = replacement.places {
                    #expect(places == expected, "\(prose.file) has '\(replacement.old)' in \(places) places, not the \(expected) \(document) says")
                }
                file = file.replacingOccurrences(of: replacement.old, with: replacement.new)
            }
            try file.write(toFile: directory.path(prose.file), atomically: false, encoding: .utf8)
        }
        let result = try shell(command, in: directory.url)
        let printed = result.output.replacingOccurrences(of: directory.url.path + "/", with: "")
        let where_ = "`\(step.command)` (\(document):\(step.line))"
        expectShown(step.output, printed: printed, what: where_)
        if !step.output.contains(where: { $0.contains("error:") }) {
            #expect(result.status == 0, "\(where_) exited \(result.status):\n\(printed)")
        }
    }

    /// Runs `command` with `sh -c` in `directory`, the built graphimport first on the PATH,
    /// standard output and standard error into one pipe as a terminal shows them.
    private func shell(_ command: String, in directory: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = directory
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        process.environment = [
            "PATH": graphimportBinary.deletingLastPathComponent().path + ":" + path, "HOME": directory.path, "LC_ALL": "C.UTF-8",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Copies a folder of the repository, leaving out stores a local run left there.
    private func copyTracked(_ folder: String, into directory: TemporaryDirectory) throws {
        let manager = FileManager.default
        let source = repoFile(folder)
        for case let relative as String in manager.enumerator(atPath: source)! {
            let from = source + "/" + relative
            let to = directory.path(folder + "/" + relative)
            var isDirectory: ObjCBool = false
            _ = manager.fileExists(atPath: from, isDirectory: &isDirectory)
            if isDirectory.boolValue {
                try manager.createDirectory(atPath: to, withIntermediateDirectories: true)
            } else if !relative.contains(".sqlite") && !relative.hasPrefix(".build") {
                try manager.createDirectory(
                    atPath: URL(fileURLWithPath: to).deletingLastPathComponent().path, withIntermediateDirectories: true)
                try manager.copyItem(atPath: from, toPath: to)
            }
        }
    }

    // MARK: Comparing

    /// Expects the printed text to be what the document shows; `exactly`: without normalising
    /// durations and timestamps (a program whose output does not vary).
    private func expectShown(_ shown: [String], printed: String, what: String, exactly: Bool = false) {
        let normalised = exactly ? { $0 } : normalised
        var lines = printed.split(separator: "\n", omittingEmptySubsequences: false).map { normalised(String($0)) }
        while lines.last == "" { lines.removeLast() }
        let patterns = shown.map { normalised($0) }
        let shownLinesMatch = matches(patterns[...], lines[...])
        #expect(
            shownLinesMatch,
            "\(what) prints:\n\(lines.joined(separator: "\n"))\n--- but the document shows:\n\(patterns.joined(separator: "\n"))")
    }

    /// Durations and timestamps made alike, trailing spaces dropped.
    private func normalised(_ line: String) -> String {
        var line = line
        while line.hasSuffix(" ") { line.removeLast() }
        return
            line
            .replacing(#/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/#, with: "TIMESTAMP")
            .replacing(#/\d+\.\d+ s\b/#, with: "N s")
    }

    /// Whether the printed lines are the shown ones, a shown `...` or `…` line standing for any
    /// number of lines and a `…` in a shown line for any text.
    private func matches(_ shown: ArraySlice<String>, _ printed: ArraySlice<String>) -> Bool {
        guard let first = shown.first else { return printed.isEmpty }
        let trimmed = first.trimmingCharacters(in: .whitespaces)
        if trimmed == "..." || trimmed == "…" {
            return printed.indices.contains { matches(shown.dropFirst(), printed[$0...]) }
                || matches(shown.dropFirst(), printed[printed.endIndex...])
        }
        guard let line = printed.first, lineMatches(first, line) else { return false }
        return matches(shown.dropFirst(), printed.dropFirst())
    }

    private func lineMatches(_ shown: String, _ printed: String) -> Bool {
        let pieces = shown.components(separatedBy: "…")
        guard pieces.count > 1 else { return shown == printed }
        guard printed.hasPrefix(pieces[0]), printed.hasSuffix(pieces[pieces.count - 1]) else { return false }
        var rest = printed.dropFirst(pieces[0].count)
        for piece in pieces.dropFirst().dropLast() {
            guard let range = rest.range(of: piece) else { return false }
            rest = rest[range.upperBound...]
        }
        return rest.count >= pieces[pieces.count - 1].count
    }
}

/// One command of a transcript and the lines shown under it.
struct TranscriptStep {
    var command: String
    var output: [String]
    var line: Int
}

/// A code block of a Markdown document, fenced or indented, its lines without the block's indentation.
struct CodeBlock {
    var lines: [String]
    /// The document's line (1-based) the block's first line is on.
    var line: Int

    /// The commands of a transcript (lines starting with `$ `, continued after a trailing `\`; a
    /// trailing ` # comment` is the shell's), each with the lines under it; none when the block is
    /// not a transcript.
    func transcript() -> [TranscriptStep] {
        var steps: [TranscriptStep] = []
        var continued = false
        for (offset, text) in lines.enumerated() {
            if continued {
                steps[steps.count - 1].command += "\n" + text
                continued = text.hasSuffix("\\")
            } else if text.hasPrefix("$ ") {
                continued = text.hasSuffix("\\")
                var command = String(text.dropFirst(2))
                if let comment = command.range(of: " # ") ?? command.range(of: "  #") { command = String(command[..<comment.lowerBound]) }
                steps.append(TranscriptStep(command: command.trimmingCharacters(in: .whitespaces), output: [], line: line + offset))
            } else if !steps.isEmpty {
                steps[steps.count - 1].output.append(text)
            }
        }
        return steps
    }

    /// The code blocks of `markdown`: fenced with ``` and indented by four spaces or more after a blank line.
    static func all(in markdown: String) -> [CodeBlock] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [CodeBlock] = []
        var index = 0
        func indentation(_ line: String) -> Int { line.prefix { $0 == " " }.count }
        while index < lines.count {
            let line = lines[index]
            let indent = indentation(line)
            if line.dropFirst(indent).hasPrefix("```") {
                var body: [String] = []
                index += 1
                let start = index
                while index < lines.count, !lines[index].dropFirst(indentation(lines[index])).hasPrefix("```") {
                    body.append(String(lines[index].dropFirst(min(indent, indentation(lines[index])))))
                    index += 1
                }
                blocks.append(CodeBlock(lines: body, line: start + 1))
                index += 1
            } else if indent >= 4, !line.trimmingCharacters(in: .whitespaces).isEmpty,
                index == 0 || lines[index - 1].trimmingCharacters(in: .whitespaces).isEmpty
            {
                var body: [String] = []
                let start = index
                while index < lines.count {
                    let next = lines[index]
                    if next.trimmingCharacters(in: .whitespaces).isEmpty {
                        // A blank line inside the block, when the block goes on after it.
                        guard index + 1 < lines.count, indentation(lines[index + 1]) >= indent else { break }
                        body.append("")
                    } else {
                        guard indentation(next) >= indent else { break }
                        body.append(String(next.dropFirst(indent)))
                    }
                    index += 1
                }
                blocks.append(CodeBlock(lines: body, line: start + 1))
            } else {
                index += 1
            }
        }
        return blocks
    }
}
