/// Reads the values selected by path patterns from a JSON or JSON Lines byte stream, one at a time.
///
/// Only the containers on the way to a pattern are walked; every other value is checked against
/// the grammar and skipped without building anything, and a matched value is parsed whole. Memory
/// stays flat whatever the size of the input: bytes are dropped once the scanner is past them,
/// except those of a record with other patterns' records inside it, kept while it is read.
///
/// `$[*]` (exactly `[.anyIndex]`) matches the elements of a top-level array, or the top-level value
/// itself when it is not an array, so one pattern serves an array file and a JSON Lines stream.
/// `{*}` matches every member of an object, in document order; the record's path ends in the
/// member's key. `[*?]`, the last step of a pattern, matches the elements of an array there, or the value
/// itself when it is an object. Matches nest: a value that several patterns take is a record of
/// each, and the records inside a record come after it; records otherwise come in document order.
///
/// Capture patterns pick response-level values outside the records (`search_metadata.max_id`,
/// `data.after`); the latest value at each is kept in `captured`. A container on the way to a
/// record is walked, not captured.
///
/// Each pattern's outcome is kept (`outcome(ofPattern:)`): whether it selected anything, met
/// only an empty array or null, or where its walk stopped and what the input holds there, so
/// that a path that fits nothing can be told from a feed that is empty.
public final class JSONRecordReader {
    /// A container on the way to a pattern.
    private struct Frame {
        var isObject: Bool
        /// Patterns whose components match the path up to and including this container.
        var live: [Int]
        var index = 0
        var key = ""
        var keys: Set<String> = []
        /// Where the container starts.
        var start: JSONPosition
        /// An object's members so far, for describing it when a pattern stops here.
        var members: [JSONShape.Member] = []
        /// An array's elements so far.
        var count = 0
        /// Patterns for which this container is of the wrong kind, described when it closes.
        var describeFor: [Int] = []
    }

    private enum State {
        case start, documentStart, value, containerStart, afterValue, finished
    }

    private var scanner: JSONScanner
    /// The caller's table while `next(into:)` runs (an empty one otherwise), and whether the
    /// record being read was parsed into it; a record read another way is put into it after.
    private var slots = JSONSlots()
    private var fillsSlots = false
    private var filledSlots = false
    private let patterns: [[JSONPathPattern.Component]]
    private let requestedFormat: JSONInputFormat
    private var resolvedFormat: JSONInputFormat
    private var state = State.start
    private var frames: [Frame] = []
    private var recordCount = 0
    private var documentCount = 0
    /// The line the current JSON text starts on.
    private var documentLine = 1
    private let allPatterns: [Int]
    /// Patterns at and past this index are capture patterns.
    private let recordPatternCount: Int
    /// What to build of the records of each record pattern (missing: everything).
    private let projections: [JSONProjection]
    /// The latest value found at each capture pattern, by its index in `capture`.
    public private(set) var captured: [Int: JSONValue] = [:]
    /// The document (JSON text) each value of `captured` was found in, counted from 0.
    public private(set) var capturedDocuments: [Int: Int] = [:]
    /// How many values were captured so far: changes whenever `captured` does.
    public private(set) var captureCount = 0
    /// How each pattern (records, then captures) has fared so far.
    private var outcomes: [JSONPatternOutcome]
    /// Whether each pattern has selected a value: a plain flag, asked for every record, so that
    /// the outcome (an enum with a payload) is written once.
    private var hasSelected: [Bool]
    /// Records found together (a record and the records inside it), returned before reading on.
    private var pending: [JSONRecord] = []
    /// Whether the top-level value is a document's, which `$[*]` takes whole when it is not an
    /// array; false for the reader that walks a record for the records inside it.
    private let rootIsDocument: Bool
    /// Record patterns that take their own records where an earlier pattern is the same path;
    /// any other such pattern leaves them to the earlier one (whose caller passes them on).
    private let ownRecords: Set<Int>
    /// Whether each pattern met an empty array or a null where it goes on. Kept apart from the
    /// outcome: a miss elsewhere in the input outweighs it (`{…}`, `null`, `{…}` for `$[*].user`
    /// is a path that fits none of the values it meets, not an empty feed).
    private var metEmpty: [Bool]

    /// Reads `source` lazily; nothing is read until the first call to `next()`.
    ///
    /// `projections[i]`, when given, says what to build of the records matched by `patterns[i]`;
    /// the rest of such a record is checked against the grammar and left out of its value.
    /// Captured values are always built whole. A value that several record patterns take is a
    /// record of each, except that a pattern equal to an earlier one leaves its records to that
    /// one unless it is in `ownRecords`.
    public convenience init(
        source: some JSONByteSource, patterns: [JSONPathPattern], capture: [JSONPathPattern] = [],
        projections: [JSONProjection] = [], format: JSONInputFormat = .auto, options: JSONReaderOptions = .init(),
        ownRecords: Set<Int> = []
    ) {
        self.init(
            source: source, patterns: patterns, capture: capture, projections: projections, format: format, options: options,
            ownRecords: ownRecords, rootIsDocument: true)
    }

    private init(
        source: some JSONByteSource, patterns: [JSONPathPattern], capture: [JSONPathPattern], projections: [JSONProjection],
        format: JSONInputFormat, options: JSONReaderOptions, ownRecords: Set<Int>, rootIsDocument: Bool
    ) {
        self.rootIsDocument = rootIsDocument
        self.ownRecords = ownRecords
        scanner = JSONScanner(source: source, options: options)
        self.patterns = (patterns + capture).map(\.components)
        recordPatternCount = patterns.count
        self.projections = projections
        allPatterns = Array(0..<(patterns.count + capture.count))
        outcomes = Array(repeating: .unreached, count: patterns.count + capture.count)
        hasSelected = Array(repeating: false, count: patterns.count + capture.count)
        metEmpty = Array(repeating: false, count: patterns.count + capture.count)
        requestedFormat = format
        resolvedFormat = format
    }

    /// Bytes taken from the source so far.
    public var bytesRead: Int { scanner.bytesRead }

    /// `.json` or `.jsonLines` once known; `.auto` until the first text of an `.auto` input has ended.
    public var format: JSONInputFormat { resolvedFormat }

    /// What the pattern at `index` (the record patterns first, then the capture patterns) met in
    /// the input read so far; complete once `next()` has returned nil. A pattern that selected
    /// nothing and missed somewhere has missed, even if it met an empty array or a null elsewhere.
    package func outcome(ofPattern index: Int) -> JSONPatternOutcome {
        if case .unreached = outcomes[index], metEmpty[index] { return .empty }
        return outcomes[index]
    }

    /// How many patterns the reader follows: the record patterns, then the capture patterns.
    public var patternCount: Int { patterns.count }

    /// The next selected value, or nil at the end of the input.
    public func next() throws(JSONError) -> JSONRecord? {
        if !pending.isEmpty { return pending.removeFirst() }
        while true {
            switch state {
            case .start:
                try scanner.skipByteOrderMark()
                state = .documentStart
            case .documentStart:
                guard try scanner.skipWhitespace() != nil else {
                    if documentCount == 0 && requestedFormat != .jsonLines {
                        throw scanner.syntaxError(JSONMessage.expectedValue(found: "end of input"))
                    }
                    state = .finished
                    return nil
                }
                frames.removeAll(keepingCapacity: true)
                documentLine = scanner.line
                state = .value
            case .value:
                if let record = try visitValue() { return record }
            case .containerStart:
                try enterContainer()
            case .afterValue:
                try leaveValue()
            case .finished:
                return nil
            }
        }
    }

    /// The next selected value, read into `slots` instead of a tree, or nil at the end of the
    /// input. The record returned has `.null` for its `value`; `slots.value(at: slots.root)` is
    /// the value `next()` would have given, and everything else about the record, and every
    /// error, is what `next()` gives. After an error the table holds part of the failed record.
    ///
    /// A record with records inside it, or taken by several patterns, is still read as a tree
    /// first (see `readNested`), and its table made from it.
    public func next(into slots: inout JSONSlots) throws(JSONError) -> JSONRecord? {
        swap(&slots, &self.slots)
        fillsSlots = true
        filledSlots = false
        defer {
            fillsSlots = false
            swap(&slots, &self.slots)
        }
        guard var record = try next() else { return nil }
        if !filledSlots {
            self.slots.fill(record.value, projection: projection(of: record.patternIndex))
            record.value = .null
        }
        return record
    }

    /// At the first byte of a value: return it as a record, walk into it, or skip it.
    private func visitValue() throws(JSONError) -> JSONRecord? {
        let byte = scanner.bytes[scanner.pos]
        let depth = frames.count
        var matched: [Int] = []
        var captureMatch: Int? = nil
        var descend = false
        /// Record patterns that go on inside this value: walked in it when it is also a record.
        var inner: [Int] = []
        let isArray = byte == ASCII.openBracket, isObject = byte == ASCII.openBrace
        if depth > 0 {
            if frames[depth - 1].isObject {
                frames[depth - 1].members.append(JSONShape.Member(key: frames[depth - 1].key, kind: JSONKind(firstByte: byte)))
            } else {
                frames[depth - 1].count += 1
            }
        }
        // Patterns for which this value is of the wrong kind, to be described.
        var misfits: [Int] = []
        for patternIndex in (frames.last?.live ?? allPatterns) {
            let components = patterns[patternIndex]
            if depth > 0 && !matches(components[depth - 1]) { continue }
            if patternIndex >= recordPatternCount {
                if components.count == depth { captureMatch = patternIndex }
            } else if components.count == depth || (depth == 0 && rootIsDocument && !isArray && components == [.anyIndex])
                || (isObject && components.count == depth + 1 && components[depth] == .anyIndexOrOne)
            {
                if ownRecords.contains(patternIndex) || !matched.contains(where: { patterns[$0] == components }) {
                    matched.append(patternIndex)
                }
                continue
            }
            if components.count > depth {
                if patternIndex < recordPatternCount { inner.append(patternIndex) }
                if fits(components[depth], isArray: isArray, isObject: isObject) {
                    descend = true
                } else if outcomes[patternIndex] != .selected {
                    misfits.append(patternIndex)
                }
            }
        }
        if !matched.isEmpty && (matched.count > 1 || !inner.isEmpty) {
            // A record with records inside it, or taken by several paths: every one is delivered.
            // Captures below a record are not captured, as below any record.
            misfits.removeAll { $0 < recordPatternCount }
            if !misfits.isEmpty { _ = noteMisfits(misfits, depth: depth, byte: byte) }
            try readNested(matched: matched, inner: inner, depth: depth)
            state = .afterValue
            return pending.isEmpty ? nil : pending.removeFirst()
        }
        let matchedOne = matched.first
        if !misfits.isEmpty {
            misfits = noteMisfits(misfits, depth: depth, byte: byte)
            if !misfits.isEmpty && matchedOne == nil && !descend && captureMatch == nil {
                // Walked (not built) only to be described: its members' keys and kinds.
                if depth >= scanner.options.maxDepth {
                    throw scanner.error(.limit, JSONMessage.tooDeep(limit: scanner.options.maxDepth), at: scanner.offset)
                }
                let start = scanner.position
                scanner.pos += 1
                frames.append(Frame(isObject: isObject, live: [], start: start, describeFor: misfits))
                state = .containerStart
                return nil
            }
        }
        if let matched = matchedOne {
            if !hasSelected[matched] {
                hasSelected[matched] = true
                outcomes[matched] = .selected
            }
            let position = scanner.position
            var value = JSONValue.null
            if fillsSlots {
                try scanner.parseSlots(depth: depth, projection: projection(of: matched), into: &slots)
                filledSlots = true
            } else {
                value = try scanner.parseValue(depth: depth, projection: projection(of: matched))
            }
            let record = JSONRecord(
                value: value, index: recordCount, path: currentPath(), position: position, patternIndex: matched,
                documentIndex: documentCount)
            recordCount += 1
            state = .afterValue
            return record
        }
        if descend {
            if depth >= scanner.options.maxDepth {
                throw scanner.error(.limit, JSONMessage.tooDeep(limit: scanner.options.maxDepth), at: scanner.offset)
            }
            let live = (frames.last?.live ?? allPatterns).filter { patternIndex in
                let components = patterns[patternIndex]
                return components.count > depth && (depth == 0 || matches(components[depth - 1]))
                    && fits(components[depth], isArray: isArray, isObject: isObject)
            }
            let start = scanner.position
            scanner.pos += 1
            frames.append(Frame(isObject: isObject, live: live, start: start, describeFor: misfits))
            state = .containerStart
        } else if let captureMatch {
            let position = scanner.position
            let value = try scanner.parseValue(depth: depth)
            captured[captureMatch - recordPatternCount] = value
            capturedDocuments[captureMatch - recordPatternCount] = documentCount
            captureCount += 1
            outcomes[captureMatch] = .selected
            for patternIndex in misfits {
                noteMiss(patternIndex, .wrongKind, depth: depth, level: currentPath(), found: JSONShape(value), at: position)
            }
            state = .afterValue
        } else {
            try scanner.skipValue(depth: depth)
            state = .afterValue
        }
        return nil
    }

    /// The value at the scanner is a record of each of `matched`, and the patterns `inner` go on
    /// inside it: its bytes are kept, parsed once for each matched pattern (with that pattern's
    /// projection), and walked by a reader of the inner patterns' remaining steps, whose records
    /// and outcomes become this reader's. The value's records come first, then those inside it
    /// in document order; all wait in `pending`.
    private func readNested(matched: [Int], inner: [Int], depth: Int) throws(JSONError) {
        let start = scanner.position
        let bytes = try scanner.skipValueKeepingBytes(depth: depth)
        let path = currentPath()
        var options = scanner.options
        options.maxDepth -= depth
        options.bufferSize = max(1, bytes.count)
        var found: [JSONRecord] = []
        do throws(JSONError) {
            for patternIndex in matched {
                var valueScanner = JSONScanner(source: BytesSource(bytes), options: options)
                _ = try valueScanner.skipWhitespace()
                let value = try valueScanner.parseValue(depth: 0, projection: projection(of: patternIndex))
                found.append(
                    JSONRecord(value: value, index: 0, path: path, position: start, patternIndex: patternIndex, documentIndex: documentCount))
                markSelected(patternIndex)
            }
            let reader = JSONRecordReader(
                source: BytesSource(bytes), patterns: inner.map { JSONPathPattern(Array(patterns[$0].dropFirst(depth))) }, capture: [],
                projections: inner.map(projection(of:)), format: .json, options: options,
                ownRecords: Set(inner.indices.filter { ownRecords.contains(inner[$0]) }), rootIsDocument: depth == 0 && rootIsDocument)
            while let record = try reader.next() {
                found.append(
                    JSONRecord(
                        value: record.value, index: 0, path: JSONPathPattern(path.components + record.path.components),
                        position: Self.position(record.position, inValueAt: start), patternIndex: inner[record.patternIndex],
                        documentIndex: documentCount))
            }
            for (innerIndex, patternIndex) in inner.enumerated() {
                switch reader.outcome(ofPattern: innerIndex) {
                case .selected: markSelected(patternIndex)
                case .empty: if outcomes[patternIndex] != .selected { outcomes[patternIndex] = .empty }
                case .missed(let miss):
                    noteMiss(
                        patternIndex, miss.reason, depth: depth + miss.depth, level: JSONPathPattern(path.components + miss.level.components),
                        found: miss.found, at: Self.position(miss.position, inValueAt: start))
                case .unreached: break
                }
            }
        } catch {
            var error = error
            error.position = Self.position(error.position, inValueAt: start)
            throw error
        }
        for var record in found {
            record.index = recordCount
            recordCount += 1
            pending.append(record)
        }
    }

    private func projection(of patternIndex: Int) -> JSONProjection {
        patternIndex < projections.count ? projections[patternIndex] : .all
    }

    private func markSelected(_ patternIndex: Int) {
        guard !hasSelected[patternIndex] else { return }
        hasSelected[patternIndex] = true
        outcomes[patternIndex] = .selected
    }

    /// A position in a value's own bytes, as a position in the input where the value starts at `start`.
    private static func position(_ position: JSONPosition, inValueAt start: JSONPosition) -> JSONPosition {
        JSONPosition(
            offset: start.offset + position.offset, line: start.line + position.line - 1,
            column: position.line == 1 ? start.column + position.column - 1 : position.column)
    }

    /// Whether a pattern component matches the innermost frame's current key or index.
    private func matches(_ component: JSONPathPattern.Component) -> Bool {
        let frame = frames[frames.count - 1]
        switch component {
        case .key(let key): return frame.isObject && frame.key == key
        case .index(let index): return !frame.isObject && frame.index == index
        case .anyIndex, .anyIndexOrOne: return !frame.isObject
        case .anyMember: return frame.isObject
        }
    }

    private func fits(_ component: JSONPathPattern.Component, isArray: Bool, isObject: Bool) -> Bool {
        switch component {
        case .key, .anyMember: return isObject
        case .index, .anyIndex, .anyIndexOrOne: return isArray
        }
    }

    private func currentPath() -> JSONPathPattern { path(through: frames.count) }

    /// The concrete path of the value inside the first `count` frames.
    private func path(through count: Int) -> JSONPathPattern {
        JSONPathPattern(frames[..<count].map { $0.isObject ? .key($0.key) : .index($0.index) })
    }

    /// Patterns whose next step does not fit the value at `byte`: a null says "none" (the
    /// pattern is empty), a scalar is a miss at once; the containers left are returned, to be
    /// described once walked.
    private func noteMisfits(_ misfits: [Int], depth: Int, byte: UInt8) -> [Int] {
        let kind = JSONKind(firstByte: byte)
        var containers: [Int] = []
        for patternIndex in misfits {
            switch kind {
            case .null:
                metEmpty[patternIndex] = true
            case .array, .object:
                if wantsMiss(patternIndex, depth: depth) { containers.append(patternIndex) }
            default:
                noteMiss(patternIndex, .wrongKind, depth: depth, level: currentPath(), found: .scalar(kind), at: scanner.position)
            }
        }
        return containers
    }

    /// Whether a miss of `patternIndex` at `depth` would tell more than what is known of it.
    private func wantsMiss(_ patternIndex: Int, depth: Int) -> Bool {
        switch outcomes[patternIndex] {
        case .selected: false
        case .empty: true
        case .unreached: true
        case .missed(let miss): miss.depth < depth
        }
    }

    /// Keeps the deepest miss of a pattern that has selected nothing.
    private func noteMiss(
        _ patternIndex: Int, _ reason: JSONPathMiss.Reason, depth: Int, level: JSONPathPattern, found: JSONShape, at position: JSONPosition
    ) {
        guard wantsMiss(patternIndex, depth: depth) else { return }
        outcomes[patternIndex] = .missed(
            JSONPathMiss(
                reason: reason, pattern: JSONPathPattern(patterns[patternIndex]), depth: depth, level: level, found: found, position: position))
    }

    /// Before the innermost frame is removed: what its patterns found in it.
    private func closeFrame() {
        let top = frames.count - 1
        let frame = frames[top]
        let found: JSONShape = frame.isObject ? .object(frame.members) : .array(count: frame.count)
        for patternIndex in frame.describeFor {
            // `[]` where an object was wanted: how some services (PHP's json_encode) say "none".
            if !frame.isObject && frame.count == 0 {
                metEmpty[patternIndex] = true
                continue
            }
            noteMiss(patternIndex, .wrongKind, depth: top, level: path(through: top), found: found, at: frame.start)
        }
        for patternIndex in frame.live {
            switch patterns[patternIndex][top] {
            case .key(let key):
                if !frame.members.contains(where: { $0.key == key }) {
                    noteMiss(patternIndex, .absent, depth: top, level: path(through: top), found: found, at: frame.start)
                }
            case .index(let index):
                if frame.count <= index {
                    noteMiss(patternIndex, .absent, depth: top, level: path(through: top), found: found, at: frame.start)
                }
            case .anyMember:
                if frame.members.isEmpty { metEmpty[patternIndex] = true }
            case .anyIndex, .anyIndexOrOne:
                if frame.count == 0 { metEmpty[patternIndex] = true }
            }
        }
        frames.removeLast()
    }

    /// Just inside '[' or '{': the container is empty, or its first element or member begins.
    private func enterContainer() throws(JSONError) {
        let isObject = frames[frames.count - 1].isObject
        let byte = try scanner.skipWhitespace()
        if byte == (isObject ? ASCII.closeBrace : ASCII.closeBracket) {
            scanner.pos += 1
            closeFrame()
            state = .afterValue
            return
        }
        if byte == nil { throw scanner.syntaxError(JSONMessage.endInside(isObject: isObject)) }
        if isObject { try readKey(at: byte) }
        state = .value
    }

    /// After a value: the next element or member, the end of a container, or the end of a document.
    private func leaveValue() throws(JSONError) {
        guard let top = frames.indices.last else { return try endDocument() }
        let isObject = frames[top].isObject
        let byte = try scanner.skipWhitespace()
        if byte == ASCII.comma {
            scanner.pos += 1
            let next = try scanner.skipWhitespace()
            if isObject {
                try readKey(at: next)
            } else {
                frames[top].index += 1
                if next == nil { throw scanner.syntaxError(JSONMessage.endInside(isObject: false)) }
            }
            state = .value
        } else if byte == (isObject ? ASCII.closeBrace : ASCII.closeBracket) {
            scanner.pos += 1
            closeFrame()
        } else {
            throw scanner.separatorError(byte, isObject: isObject)
        }
    }

    private func readKey(at byte: UInt8?) throws(JSONError) {
        let top = frames.count - 1
        // The whole position, taken before the key: scanning it also skips the whitespace after
        // its colon, which may hold a newline.
        let keyPosition = scanner.position
        let key = try scanner.scanKey(at: byte)
        if scanner.options.rejectDuplicateKeys && !frames[top].keys.insert(key).inserted {
            throw JSONError(kind: .syntax, message: JSONMessage.duplicateKey(key), position: keyPosition, hint: nil)
        }
        frames[top].key = key
    }

    /// After a complete text: end of input, or (JSON Lines) the next line's text.
    private func endDocument() throws(JSONError) {
        documentCount += 1
        let lineBefore = scanner.line
        guard try scanner.skipWhitespace() != nil else {
            if resolvedFormat == .auto { resolvedFormat = .json }
            state = .finished
            return
        }
        let onNewLine = scanner.line > lineBefore
        switch resolvedFormat {
        case .json:
            throw scanner.syntaxError(JSONMessage.trailing(found: scanner.describeCurrent()))
        case .auto:
            guard onNewLine else { throw scanner.syntaxError(JSONMessage.trailing(found: scanner.describeCurrent())) }
            resolvedFormat = .jsonLines
        case .jsonLines:
            guard onNewLine else {
                throw scanner.syntaxError(JSONMessage.expectedLineBreak(found: scanner.describeCurrent()))
            }
        }
        frames.removeAll(keepingCapacity: true)
        documentLine = scanner.line
        state = .value
    }

    /// After `next()` threw `error` on a malformed text of JSON Lines: skips that text and makes
    /// ready to read the next line's, which keeps the index the malformed text's record would
    /// have had plus one. False (nothing done) when the input is not known to be JSON Lines,
    /// when the error is a read failure, or at the end of the input: a malformed JSON document
    /// has no next record to resume at.
    ///
    /// The text ends at the line break after the error, or, when the error's token begins a line
    /// below the text's first (a line cut off before it), at the start of that line. A text
    /// broken inside a pretty-printed value may leave lines that are skipped as malformed too.
    public func skipMalformedText(after error: JSONError) throws(JSONError) -> Bool {
        guard error.kind != .io, resolvedFormat == .jsonLines, state != .start, state != .finished else { return false }
        scanner.forgetPartialToken()
        // Where the error is, when its bytes are still in the window; otherwise (a string past the
        // length limit) where the scanner stopped, which is on the same line: a string has no line break.
        let errorIndex = error.position.offset - scanner.base
        let inWindow = errorIndex >= 0 && errorIndex <= scanner.end
        if inWindow { scanner.pos = errorIndex }
        if !(inWindow && error.position.line > documentLine && scanner.onlyWhitespaceBeforeOnItsLine(error.position)) {
            try scanner.skipPastLineBreak()
        }
        frames.removeAll(keepingCapacity: true)
        pending.removeAll()
        recordCount += 1
        documentCount += 1
        state = .documentStart
        return true
    }

    /// The index the next record will have.
    public var nextRecordIndex: Int { recordCount }
}
