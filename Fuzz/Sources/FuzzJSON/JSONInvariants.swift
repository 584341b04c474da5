import GraphImportJSON

/// What must hold for any bytes at all; a violation stops the fuzzer with `fatalError` (a crash).
///
/// Errors are fine — typed throws already guarantee they are `JSONError` — but a trap, a hang, or an
/// accepted document that does not survive a round trip is a bug.
enum JSONInvariants {
    /// The record paths of the shipped maps: a top-level array, Twitter search, a Reddit listing.
    static let patterns: [JSONPathPattern] = [
        .everyElement,
        JSONPathPattern([.key("statuses"), .anyIndex]),
        JSONPathPattern([.key("data"), .key("children"), .anyIndex, .key("data")]),
    ]
    static let formats: [JSONInputFormat] = [.auto, .jsonLines]
    /// Small enough that almost every token straddles a refill.
    static let smallBuffer = JSONReaderOptions(bufferSize: 7)

    static func check(_ bytes: [UInt8]) {
        let whole = parse(bytes)
        for pattern in patterns {
            for format in formats { _ = read(bytes, pattern: pattern, format: format, options: smallBuffer) }
        }
        checkReaderAgreesWithParser(bytes, whole: whole)
        checkProjectionPrunes(bytes)
        checkBlockScanAgreesWithPortable(bytes)
        checkSlotsAgreeWithTree(bytes)
        checkBuildingRefusesAsSkipping(bytes)
    }

    /// The building loop (`parseSlots`, behind `next()` and `next(into:)`) refuses with the error
    /// the skipping loop (`skipValue`, which builds nothing) finds, at the same position, or with
    /// a duplicate key before it (the skipping loop does not compare keys); what the skipping
    /// loop accepts, it accepts but for a duplicate key. Kept whole and projected, through a
    /// small window.
    static func checkBuildingRefusesAsSkipping(_ bytes: [UInt8]) {
        let options = JSONReaderOptions(bufferSize: 1 + bytes.count % 11)
        var skipOptions = options
        skipOptions.rejectDuplicateKeys = false
        let absent = JSONPathPattern([.key("\u{0}absent")])
        var skipping: JSONError? = nil
        if case .failure(let error) = read(bytes, pattern: absent, format: .auto, options: skipOptions) { skipping = error }
        for projections in [[], [projection]] {
            let reader = JSONRecordReader(
                source: BytesSource(bytes), patterns: [.everyElement], projections: projections, format: .auto, options: options)
            do throws(JSONError) {
                while try reader.next() != nil {}
                require(skipping == nil, "the building loop accepted what the skipping loop refused: \(skipping!)")
            } catch {
                let isEarlierDuplicate =
                    error.message.hasPrefix("duplicate key") && error.position.offset < (skipping?.position.offset ?? Int.max)
                require(
                    error == skipping || isEarlierDuplicate,
                    "the building loop refused with \(error), the skipping loop with \(String(describing: skipping)) (projected: \(!projections.isEmpty))")
            }
        }
    }

    /// The slot table (`next(into:)`) materialised gives the tree's records (`next()`), and
    /// refuses with the same error at the same position: kept whole and projected, through a
    /// small window, duplicates refused and allowed.
    static func checkSlotsAgreeWithTree(_ bytes: [UInt8]) {
        for projections in [[], [projection]] {
            for rejectDuplicateKeys in [true, false] {
                let options = JSONReaderOptions(rejectDuplicateKeys: rejectDuplicateKeys, bufferSize: 1 + bytes.count % 13)
                let outcomes = [false, true].map { slots in
                    let reader = JSONRecordReader(
                        source: BytesSource(bytes), patterns: [.everyElement], projections: projections, format: .auto, options: options)
                    var records: [JSONRecord] = []
                    var table = JSONSlots()
                    do throws(JSONError) {
                        if slots {
                            while var record = try reader.next(into: &table) {
                                record.value = table.value(at: table.root)
                                records.append(record)
                            }
                        } else {
                            while let record = try reader.next() { records.append(record) }
                        }
                        return Result<[JSONRecord], JSONError>.success(records)
                    } catch {
                        return .failure(error)
                    }
                }
                require(
                    outcomes[0] == outcomes[1],
                    "the tree read \(outcomes[0]), the slot table \(outcomes[1]) (projected: \(!projections.isEmpty))")
            }
        }
    }

    /// The string scan in vector blocks (the default) and the portable one read the same records
    /// and refuse with the same error at the same position: with and without a projection, the
    /// whole input in one window and through windows so small that blocks straddle refills.
    static func checkBlockScanAgreesWithPortable(_ bytes: [UInt8]) {
        for bufferSize in [1 << 16, 1 + bytes.count % 17] {
            for projections in [[], [projection]] {
                let outcomes = [false, true].map { portable in
                    let options = JSONReaderOptions(bufferSize: bufferSize, portableScan: portable)
                    let reader = JSONRecordReader(
                        source: BytesSource(bytes), patterns: [.everyElement], projections: projections, format: .auto, options: options)
                    var records: [JSONRecord] = []
                    do throws(JSONError) {
                        while let record = try reader.next() { records.append(record) }
                        return Result<[JSONRecord], JSONError>.success(records)
                    } catch {
                        return .failure(error)
                    }
                }
                require(
                    outcomes[0] == outcomes[1],
                    "block scan read \(outcomes[0]), portable scan \(outcomes[1]) (bufferSize \(bufferSize), projected: \(!projections.isEmpty))")
            }
        }
    }

    /// A graph with a cycle, a whole value and a nested object: 0 = {id, a, user: 1, b: 0, data: 0},
    /// 1 = {id, name}, 2 = keep all.
    static let projection = JSONProjection(
        nodes: [
            .init(members: ["id": 2, "a": 2, "user": 1, "b": 0, "data": 0]), .init(members: ["id": 2, "name": 2]), .init(keepsAll: true),
        ], root: 0)

    /// Reading with a projection builds exactly the kept part of what a full read builds, and
    /// refuses only what a full read refuses; the one thing it may let pass is a duplicate key
    /// inside a value it skips.
    static func checkProjectionPrunes(_ bytes: [UInt8]) {
        let options = JSONReaderOptions(bufferSize: 1 + bytes.count % 11)
        let full = read(bytes, pattern: .everyElement, format: .auto, options: options)
        let reader = JSONRecordReader(
            source: BytesSource(bytes), patterns: [.everyElement], projections: [projection], format: .auto, options: options)
        var values: [JSONValue] = []
        do throws(JSONError) {
            while let record = try reader.next() { values.append(record.value) }
        } catch {
            checkError(error, in: bytes, from: "JSONRecordReader with a projection")
            require(
                (try? full.get()) == nil, "a projected read failed (\(error)) where a full read succeeded")
            return
        }
        switch full {
        case .success(let expected):
            require(values == expected.map { prune($0, node: projection.root) }, "a projected read built \(values), not the pruned \(expected)")
        case .failure(let error):
            require(error.message.contains("duplicate key"), "a projected read succeeded where a full read failed with \(error)")
        }
    }

    /// What a projection keeps of a value, computed from the whole value.
    static func prune(_ value: JSONValue, node: Int) -> JSONValue {
        if projection.keepsAll(node) { return value }
        switch value {
        case .object(let object):
            let kept = projection.members(of: node)
            return .object(
                JSONObject(object.members.compactMap { member in kept[member.key].map { JSONMember(key: member.key, value: prune(member.value, node: $0)) } }))
        case .array(let elements):
            return .array(elements.map { prune($0, node: node) })
        default:
            return value
        }
    }

    /// `JSONParser.parse`, with its error checked and its value round-tripped.
    static func parse(_ bytes: [UInt8]) -> Result<JSONValue, JSONError> {
        do throws(JSONError) {
            let value = try JSONParser.parse(bytes)
            checkRoundTrip(value)
            return .success(value)
        } catch {
            checkError(error, in: bytes, from: "JSONParser.parse")
            return .failure(error)
        }
    }

    /// Every record of a `JSONRecordReader`, in document order, each round-tripped; reading past the end stays at the end.
    static func read(_ bytes: [UInt8], pattern: JSONPathPattern, format: JSONInputFormat, options: JSONReaderOptions)
        -> Result<[JSONValue], JSONError>
    {
        let reader = JSONRecordReader(source: BytesSource(bytes), patterns: [pattern], format: format, options: options)
        var values: [JSONValue] = []
        var lastOffset = -1
        do throws(JSONError) {
            while let record = try reader.next() {
                require(record.position.offset > lastOffset, "records out of document order at \(record.position)")
                require(record.index == values.count, "record index \(record.index) after \(values.count) records")
                require(reader.bytesRead <= bytes.count, "read \(reader.bytesRead) of \(bytes.count) bytes")
                lastOffset = record.position.offset
                checkRoundTrip(record.value)
                values.append(record.value)
            }
            let afterEnd = try reader.next()
            require(afterEnd == nil, "a record after the end of the input")
            return .success(values)
        } catch {
            checkError(error, in: bytes, from: "JSONRecordReader(\(pattern), \(format), bufferSize \(options.bufferSize))")
            return .failure(error)
        }
    }

    /// With nothing skipped (`$` or `$[*]`, format `.json`), the streaming reader with any buffer size
    /// must accept and refuse exactly what the whole-document parser does, with the same values and errors.
    static func checkReaderAgreesWithParser(_ bytes: [UInt8], whole: Result<JSONValue, JSONError>) {
        let options = JSONReaderOptions(bufferSize: 1 + bytes.count % 13)
        let root = read(bytes, pattern: .root, format: .json, options: options)
        let elements = read(bytes, pattern: .everyElement, format: .json, options: options)
        switch whole {
        case .success(let value):
            require(root == .success([value]), "`$` read \(root) but the parser read \(value.jsonText)")
            if case .array(let items) = value {
                require(elements == .success(items), "`$[*]` read \(elements) but the parser read \(value.jsonText)")
            } else {
                require(elements == .success([value]), "`$[*]` read \(elements) but the parser read \(value.jsonText)")
            }
        case .failure(let error):
            require(root == .failure(error), "`$` read \(root) but the parser failed with \(error)")
            guard case .failure(let elementError) = elements else {
                fatalError("`$[*]` read \(elements) but the parser failed with \(error)")
            }
            require(elementError.kind == error.kind, "`$[*]` failed with \(elementError) but the parser with \(error)")
        }
    }

    /// An accepted value's `jsonText` parses back to an equal value, and writing that gives the same bytes.
    static func checkRoundTrip(_ value: JSONValue) {
        let text = value.jsonText
        do throws(JSONError) {
            let again = try JSONParser.parse(text)
            require(again == value, "jsonText \(text) re-parses to a different value")
            require(Array(again.jsonText.utf8) == Array(text.utf8), "jsonText is not a fixed point: \(text)")
        } catch {
            fatalError("jsonText \(text) of an accepted value is refused: \(error)")
        }
    }

    /// An error points inside (or just past) the input, at the line and column of its offset, and renders.
    static func checkError(_ error: JSONError, in bytes: [UInt8], from reader: String) {
        require(error.kind != .io, "\(reader): an in-memory source failed to read: \(error)")
        let position = error.position
        require(
            position.offset >= 0 && position.offset <= bytes.count,
            "\(reader): error offset \(position.offset) outside \(bytes.count) bytes: \(error)")
        let expected = lineAndColumn(of: position.offset, in: bytes)
        require(
            position.line == expected.line && position.column == expected.column,
            "\(reader): error at offset \(position.offset) says \(position), expected line \(expected.line), column \(expected.column): \(error)")
        require(!error.description.isEmpty, "an empty error description")
    }

    /// As `JSONPosition` defines them: lines end at line feeds, columns count bytes from 1, and a
    /// byte order mark is not counted in the first line's columns.
    static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) && offset >= 3 ? 3 : 0
        for index in 0..<offset where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }

    static func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() { fatalError(message()) }
    }
}
