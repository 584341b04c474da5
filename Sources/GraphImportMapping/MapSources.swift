/// The files a map is made of, spliced into one text for the lexer: each included file's text
/// follows the line of its `include`, as if written there. Offsets stay plain byte offsets into
/// that text; this layout turns one back into the file and line it came from when a location or a
/// diagnostic is built.
struct MapSources: Sendable {
    /// One file of the map and where it was included.
    struct File: Sendable {
        var file: MapFile
        var text: SourceText
        /// Where the `include` keyword that brought the file in is, in the spliced text; nil for the map itself.
        var includedAt: Int?
    }

    /// A run of the spliced text copied from one file: from `start` on, byte `start + k` is byte
    /// `localStart + k` of `files[file]` (one past its end for a line break added after its last line).
    struct Piece: Sendable {
        var start: Int
        var file: Int
        var localStart: Int
    }

    /// The map first, then each included file in the order its `include` was met.
    private(set) var files: [File] = []
    private(set) var pieces: [Piece] = []
    /// The spliced text.
    private(set) var bytes: [UInt8] = []
    /// Includes that failed: a file that cannot be read, a cycle, a chain too deep.
    private(set) var problems: [Problem] = []
    /// How many files deep includes may nest: far more than a map needs, and a bound on the
    /// recursion that reads them.
    static let maxDepth = 32

    /// `map` with every file it includes, directly or not, read through `resolver`. A file reached a
    /// second time (by another path, or by two files that include it) is spliced in only once, at
    /// its first `include`.
    init(_ map: MapFile, resolver: IncludeResolver) {
        add(map, includedAt: nil, chain: [], resolver: resolver)
    }

    /// The file a spliced offset is in, and the offset in that file.
    func place(of offset: Int) -> (file: Int, offset: Int) {
        var low = 0
        var high = pieces.count - 1
        guard high >= 0 else { return (0, offset) }
        while low < high {
            let middle = (low + high + 1) / 2
            if pieces[middle].start <= offset { low = middle } else { high = middle - 1 }
        }
        let piece = pieces[low]
        return (piece.file, piece.localStart + max(0, offset - piece.start))
    }

    /// `file:line` of a spliced offset, the way a message names a place in another file.
    func reference(to offset: Int) -> String {
        let (file, local) = place(of: offset)
        return "\(files[file].file.name):\(files[file].text.location(at: local).line)"
    }

    /// "included from FILE:LINE:COLUMN" for each `include` that led to the file of `offset`, innermost first.
    func includeNotes(for offset: Int) -> [String] {
        var notes: [String] = []
        var file = place(of: offset).file
        while let at = files[file].includedAt {
            let (includer, local) = place(of: at)
            let location = files[includer].text.location(at: local)
            notes.append("included from \(files[includer].file.name):\(location.line):\(location.column)")
            file = includer
        }
        return notes
    }

    // MARK: Splicing

    /// Copies `map` into the spliced text, each file it includes after the `include` line; `chain`
    /// is the files whose `include` led here, to tell a cycle from a file met again.
    private mutating func add(_ map: MapFile, includedAt: Int?, chain: [Int], resolver: IncludeResolver) {
        let index = files.count
        let text = SourceText(map.text)
        files.append(File(file: map, text: text, includedAt: includedAt))
        let chain = chain + [index]
        var copied = 0
        for line in Self.includeLines(in: text) {
            let keyword = bytes.count + line.keyword - copied
            copy(file: index, text.bytes, from: copied, to: line.end)
            copied = line.end
            guard chain.count < Self.maxDepth else {
                problems.append(.includesTooDeep(limit: Self.maxDepth, at: keyword))
                continue
            }
            switch resolver.read(line.name, map) {
            case .failure(let failure):
                problems.append(.unreadableInclude(line.name, reason: failure.reason, hint: failure.hint, at: keyword))
            case .success(let included):
                if let first = chain.firstIndex(where: { files[$0].file.identity == included.identity }) {
                    problems.append(.includeCycle(chain[first...].map { files[$0].file.name } + [included.name], at: keyword))
                } else if !files.contains(where: { $0.file.identity == included.identity }) {
                    add(included, includedAt: keyword, chain: chain, resolver: resolver)
                }
            }
        }
        copy(file: index, text.bytes, from: copied, to: text.bytes.count)
    }

    /// Appends `source[from..<to]` of file `file`, ending it with a line break when it has none, so
    /// that what follows starts on a line of its own.
    private mutating func copy(file: Int, _ source: [UInt8], from: Int, to: Int) {
        guard from < to else { return }
        pieces.append(Piece(start: bytes.count, file: file, localStart: from))
        bytes += source[from..<to]
        if source[to - 1] != ASCII.newline { bytes.append(ASCII.newline) }
    }

    /// The well-formed `include "NAME"` lines of a file: the name, where `include` is and where the
    /// line ends (after its line break). A malformed one is left to the parser to report.
    static func includeLines(in text: SourceText) -> [(name: String, keyword: Int, end: Int)] {
        var lines: [(name: String, keyword: Int, end: Int)] = []
        var lexer = Lexer(text)
        var token = lexer.next()
        while token.kind != .end {
            if token.kind == .identifier, text.text(token.range) == Keyword.include {
                let keyword = token.start
                let name = lexer.next()
                token = name
                if name.kind == .string {
                    token = lexer.next()
                    if token.kind == .newline || token.kind == .end, let decoded = try? lexer.decodeString(name) {
                        lines.append((decoded, keyword, token.range.upperBound))
                    }
                }
            }
            while token.kind != .newline && token.kind != .end { token = lexer.next() }
            if token.kind == .newline { token = lexer.next() }
        }
        return lines
    }
}

extension MapSources {
    /// `records` and `meta` lines in an included file: they belong to the map of one endpoint.
    func statementsOutOfPlace(in syntax: MapSyntax) -> [Problem] {
        let records = syntax.records.map { (Keyword.records, $0.offset) }
        let meta = syntax.meta.map { (Keyword.meta, $0.name.offset) }
        return (records + meta).compactMap { keyword, offset in
            place(of: offset).file == 0 ? nil : .statementInIncludedFile(keyword, at: statementStart(before: offset))
        }
    }

    /// The start of the statement a `meta` name is in: its line's first non-blank byte.
    private func statementStart(before offset: Int) -> Int {
        var start = offset
        while start > 0, bytes[start - 1] != ASCII.newline { start -= 1 }
        while start < offset, bytes[start] == ASCII.space || bytes[start] == ASCII.tab { start += 1 }
        return start
    }
}

extension SourceText {
    /// A diagnostic at `offset`: named after the file the offset comes from, quoting its line, with
    /// a note for each `include` that led to that file. `fileName` names the map of one file.
    func diagnostic(
        at offset: Int, fileName: String, message: String, hint: String?, severity: Diagnostic.Severity = .error
    ) -> Diagnostic {
        let location = location(at: offset)
        guard let layout else {
            return Diagnostic(
                fileName: fileName, location: location, message: message, hint: hint, sourceLine: line(location.line), severity: severity)
        }
        let file = layout.files[layout.place(of: offset).file]
        return Diagnostic(
            fileName: file.file.name, location: location, message: message, hint: hint, sourceLine: file.text.line(location.line),
            severity: severity, notes: layout.includeNotes(for: offset))
    }
}
