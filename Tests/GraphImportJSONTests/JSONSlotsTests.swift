import Foundation
import GraphImportJSON
import GraphImportTestSupport
import Testing

/// A small seeded generator (SplitMix64), so that a failing case can be run again by its seed.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ mixed >> 30) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ mixed >> 27) &* 0x94D0_49BB_1331_11EB
        return mixed ^ mixed >> 31
    }
}

/// Keys as written in the input and as a projection names them: short and long (past the 16
/// bytes a projection compares as words), escaped, and not ASCII.
private let keys: [(written: String, text: String)] = [
    ("a", "a"), ("b", "b"), ("id", "id"), ("text", "text"), ("user", "user"), ("a_rather_long_member_name", "a_rather_long_member_name"),
    ("a_rather_long_member_nama", "a_rather_long_member_nama"), (#"q\"k"#, "q\"k"), (#"\u0061b"#, "ab"), ("ключ", "ключ"), ("", ""),
]

/// Scalars as written, with the value each must be read as: integers kept as values and as
/// literals (`-0`, 19 digits and more), fractions and exponents, strings with escapes, not ASCII,
/// long enough to cross a small window.
private let scalars: [(written: String, value: JSONValue)] =
    ["0", "-0", "12", "-7", "123456789012345678", "1234567890123456789", "99999999999999999999", "1.5", "1e3", "-2.5E-3", "1.0"]
    .map { ($0, JSONValue.number(JSONNumber(literal: $0))) } + [
        ("true", .bool(true)), ("false", .bool(false)), ("null", .null), (#""""#, .string("")), (#""plain""#, .string("plain")),
        (#""tab\tand \"quote\"""#, .string("tab\tand \"quote\"")), (#""\u00e9\ud83d\ude00""#, .string("é😀")),
        ("\"é😀\"", .string("é😀")),
        ("\"" + String(repeating: "long text ", count: 9) + "\"", .string(String(repeating: "long text ", count: 9))),
        (#""back\\slash\/""#, .string("back\\slash/")),
    ]

/// A random JSON text, with random whitespace, and the value it holds (written apart from it,
/// not read back); objects sometimes repeat a key.
private func document(_ random: inout SeededGenerator, depth: Int = 0) -> (text: String, value: JSONValue) {
    func space() -> String { ["", " ", "\n", "\t ", "  \r\n"][Int.random(in: 0..<5, using: &random)] }
    let choice = depth >= 4 ? 0 : Int.random(in: 0..<10, using: &random)
    switch choice {
    case 0...4:
        let scalar = scalars.randomElement(using: &random)!
        return (space() + scalar.written + space(), scalar.value)
    case 5...6:
        let elements = (0..<Int.random(in: 0...4, using: &random)).map { _ in document(&random, depth: depth + 1) }
        return ("[" + (elements.isEmpty ? space() : elements.map(\.text).joined(separator: ",")) + "]", .array(elements.map(\.value)))
    default:
        var written: [String] = []
        var members: [String] = []
        var values: [JSONMember] = []
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            var key = keys.randomElement(using: &random)!
            if written.contains(key.written) && Int.random(in: 0..<4, using: &random) != 0 {
                key = ("k\(written.count)", "k\(written.count)")
            }
            written.append(key.written)
            let member = document(&random, depth: depth + 1)
            members.append(space() + "\"" + key.written + "\"" + space() + ":" + member.text)
            values.append(JSONMember(key: key.text, value: member.value))
        }
        return ("{" + (members.isEmpty ? space() : members.joined(separator: ",")) + "}", .object(JSONObject(values)))
    }
}

/// What `projection` keeps of `value` at `node`, worked out from the value: a node that keeps
/// everything keeps the whole subtree, any other keeps its members (every one of a repeated
/// key), each at its own node; an array's elements are at the array's node.
private func projected(_ value: JSONValue, _ projection: JSONProjection, node: Int) -> JSONValue {
    switch value {
    case .array(let elements): return .array(elements.map { projected($0, projection, node: node) })
    case .object(let object) where !projection.keepsAll(node):
        return .object(
            JSONObject(
                object.members.compactMap { member in
                    projection.memberNumber(of: node, key: member.key).map {
                        JSONMember(key: member.key, value: projected(member.value, projection, node: projection.child(of: $0)))
                    }
                }))
    default: return value
    }
}

/// Whether an object that `projection` reads (not one it skips) repeats a key.
private func repeatsAKeptKey(_ value: JSONValue, _ projection: JSONProjection, node: Int) -> Bool {
    switch value {
    case .array(let elements): return elements.contains { repeatsAKeptKey($0, projection, node: node) }
    case .object(let object):
        if Set(object.members.map(\.key)).count < object.members.count { return true }
        return object.members.contains { member in
            if projection.keepsAll(node) { return repeatsAKeptKey(member.value, projection, node: node) }
            guard let number = projection.memberNumber(of: node, key: member.key) else { return false }
            return repeatsAKeptKey(member.value, projection, node: projection.child(of: number))
        }
    default: return false
    }
}

/// The records each pattern set gives for a document whose value is `root` (an array), as
/// the patterns and projections say, and whether one of them repeats a key the reader reads.
private func expectedRecords(_ root: JSONValue, _ choice: Int, _ projections: [JSONProjection]) -> (values: [JSONValue], repeats: Bool) {
    guard case .array(let elements) = root else { return ([], false) }
    var values: [JSONValue] = []
    var repeats = false
    func take(_ value: JSONValue, _ projection: JSONProjection) {
        values.append(projected(value, projection, node: projection.root))
        repeats = repeats || repeatsAKeptKey(value, projection, node: projection.root)
    }
    func members(_ value: JSONValue) -> [JSONMember] {
        if case .object(let object) = value { return object.members }
        return []
    }
    // The reader walks the elements' keys to follow these patterns, and checks them too.
    if choice == 2 || choice >= 4 {
        repeats = elements.contains { Set(members($0).map(\.key)).count < members($0).count }
    }
    switch choice {
    case 0, 3: for element in elements { take(element, projections[0]) }
    case 1: take(root, projections[0])
    case 2:
        for element in elements {
            take(element, projections[0])
            for case .array(let inner) in members(element).filter({ $0.key == "a" }).map(\.value) {
                for value in inner { take(value, projections[1]) }
            }
        }
    case 4: for element in elements { for member in members(element) where member.key == "user" { take(member.value, .all) } }
    default: for element in elements { for member in members(element) { take(member.value, projections[0]) } }
    }
    return (values, repeats)
}
/// A random projection of a few nodes over `keys`: some keep everything, the others a few keys,
/// each with a random node.
private func projection(_ random: inout SeededGenerator) -> JSONProjection {
    let count = Int.random(in: 1...4, using: &random)
    let nodes = (0..<count).map { _ -> JSONProjection.Node in
        if Int.random(in: 0..<5, using: &random) == 0 { return JSONProjection.Node(keepsAll: true) }
        var members: [String: Int] = [:]
        for key in keys where Bool.random(using: &random) { members[key.text] = Int.random(in: 0..<count, using: &random) }
        return JSONProjection.Node(members: members)
    }
    return JSONProjection(nodes: nodes, root: Int.random(in: 0..<count, using: &random))
}

/// What a reader gives for `bytes`: its records (by `next(into:)` when `slots`, the value
/// materialised from the table), and the error that ended it, if any.
private func read(
    _ bytes: [UInt8], _ patterns: [JSONPathPattern], _ projections: [JSONProjection], options: JSONReaderOptions, slots: Bool
) -> (records: [JSONRecord], error: JSONError?) {
    let reader = JSONRecordReader(source: BytesSource(bytes), patterns: patterns, projections: projections, options: options)
    var records: [JSONRecord] = []
    var table = JSONSlots()
    do throws(JSONError) {
        if slots {
            while var record = try reader.next(into: &table) {
                #expect(record.value == .null)
                record.value = table.value(at: table.root)
                checkAccess(table, table.root, record.value, node: record.patternIndex < projections.count ? projections[record.patternIndex].root : 0)
                records.append(record)
            }
        } else {
            while let record = try reader.next() { records.append(record) }
        }
        return (records, nil)
    } catch {
        return (records, error)
    }
}

/// The table's reads agree with the tree's: every kept member found by its number and by its
/// key, every element, every string's bytes and every integer.
private func checkAccess(_ table: JSONSlots, _ slot: Int, _ value: JSONValue, node: Int) {
    let projection = table.projection
    switch value {
    case .string(let text):
        #expect(table.kind(at: slot) == .string)
        #expect(table.withBytes(at: slot) { Array($0) } == Array(text.utf8))
    case .number(let number):
        if let integer = table.integer(at: slot) { #expect(number == JSONNumber(integer: integer)) }
    case .array(let elements):
        // Counted, then walked from the array's next slot by each element's end, as drafting
        // does: the walk ends where the array does, and each slot reads as the tree's element.
        #expect(table.elementCount(of: slot) == elements.count)
        let slots = Array(sequence(first: slot + 1) { table.end(of: $0) }.prefix(elements.count))
        #expect((slots.last.map { table.end(of: $0) } ?? slot + 1) == table.end(of: slot))
        for (element, value) in zip(slots, elements) {
            #expect(table.value(at: element) == value)
            checkAccess(table, element, value, node: node)
        }
    case .object(let object):
        #expect(table.kind(at: slot) == .object)
        for member in object.members {
            let found = table.member(member.key, of: slot)
            #expect(found.map { table.value(at: $0) } == object[member.key], "member \(member.key)")
            if let number = projection.memberNumber(of: node, key: member.key) {
                #expect(table.member(number, of: slot) == found)
                if let found, object[member.key] == member.value {
                    checkAccess(table, found, member.value, node: projection.child(of: number))
                }
            } else if projection.keepsAll(node), let found, object[member.key] == member.value {
                checkAccess(table, found, member.value, node: node)
            }
        }
        for (key, _) in projection.members(of: node) where object[key] == nil {
            #expect(table.member(key, of: slot) == nil)
        }
    default: break
    }
}

/// A document broken in one of the ways a feed is: cut short, or a byte replaced.
private func damaged(_ text: String, _ random: inout SeededGenerator) -> [UInt8] {
    var bytes = Array(text.utf8)
    guard !bytes.isEmpty else { return bytes }
    let place = Int.random(in: 0..<bytes.count, using: &random)
    if Bool.random(using: &random) { return Array(bytes[..<place]) }
    bytes[place] = Array(",:}]\"x\\ 1\u{1}{[".utf8).randomElement(using: &random)!
    return bytes
}

/// The error a reader that builds nothing gives for `bytes` (the root walked, every element
/// skipped): the skipping loop's, which checks the grammar and limits apart from `parseSlots`,
/// but not duplicate keys.
private func skippingError(_ bytes: [UInt8], options: JSONReaderOptions) -> JSONError? {
    var options = options
    options.rejectDuplicateKeys = false
    return read(bytes, [pattern(.key("\u{0}absent"))], [], options: options, slots: false).error
}

/// Whether `error`, from a reader that builds records, is the one expected of a document
/// whose skipping error is `skipping`: the same, or a repeated key (which only the building
/// loop checks) found before it.
private func isExpected(_ error: JSONError?, skipping: JSONError?, rejectDuplicateKeys: Bool) -> Bool {
    guard let error, error != skipping else { return true }
    guard rejectDuplicateKeys && error.kind == .syntax && error.message.hasPrefix("duplicate key") else { return false }
    return skipping.map { error.position.offset < $0.position.offset } ?? true
}

@Suite("The slot table: one record's values without a tree")
struct JSONSlotsTests {
    /// For generated documents, projections, patterns, read windows, limits and both string
    /// scans: the records, by `next()` and by `next(into:)`, are the values the generator wrote,
    /// as the patterns select them and the projections keep them; a damaged document (or one
    /// past a limit) fails with the error the skipping loop finds (kind, message and position),
    /// or with a repeated key before it; both ways give the same records and error.
    @Test(arguments: 0..<8)
    func recordsAreTheWrittenValuesAndErrorsTheSkippingLoops(batch: UInt64) {
        var random = SeededGenerator(state: 0x5107_5000 + batch)
        var compared = 0, failed = 0
        for round in 0..<250 {
            let records = (0..<Int.random(in: 0...4, using: &random)).map { _ in document(&random) }
            let text = "[" + records.map(\.text).joined(separator: ",") + "]"
            let root = JSONValue.array(records.map(\.value))
            let first = projection(&random), second = projection(&random)
            let patternChoices: [([JSONPathPattern], [JSONProjection])] = [
                ([.everyElement], [first]),
                ([.root], [first]),
                // Records inside records: read as a tree first, then put into the table.
                ([.everyElement, pattern(.anyIndex, .key("a"), .anyIndex)], [first, second]),
                ([.everyElement, .everyElement], [first, second]),
                ([pattern(.anyIndex, .key("user"))], []),
                ([pattern(.anyIndex, .anyMember)], [first]),
            ]
            let choice = Int.random(in: 0..<patternChoices.count, using: &random)
            let (patterns, projections) = patternChoices[choice]
            // Limits too, small enough to be met: the depth and a string's bytes.
            let options = JSONReaderOptions(
                maxDepth: [3, 512, 512, 512].randomElement(using: &random)!,
                maxStringBytes: [8, 256 << 20, 256 << 20, 256 << 20].randomElement(using: &random)!,
                rejectDuplicateKeys: Bool.random(using: &random), bufferSize: [5, 16, 1 << 16].randomElement(using: &random)!,
                portableScan: Bool.random(using: &random))
            let expected = expectedRecords(root, choice, projections)
            for (whole, bytes) in [(true, Array(text.utf8)), (false, damaged(text, &random))] {
                let tree = read(bytes, patterns, projections, options: options, slots: false)
                let table = read(bytes, patterns, projections, options: options, slots: true)
                #expect(table.records == tree.records, "batch \(batch) round \(round): \(text)")
                #expect(table.error == tree.error, "batch \(batch) round \(round): \(String(decoding: bytes, as: UTF8.self))")
                let skipping = skippingError(bytes, options: options)
                #expect(
                    isExpected(tree.error, skipping: skipping, rejectDuplicateKeys: options.rejectDuplicateKeys),
                    "batch \(batch) round \(round): \(String(describing: tree.error)) against \(String(describing: skipping))")
                if whole {
                    let values = tree.records.map(\.value)
                    if tree.error == nil {
                        #expect(values == expected.values, "batch \(batch) round \(round): \(text)")
                        #expect(!(options.rejectDuplicateKeys && expected.repeats), "batch \(batch) round \(round): \(text)")
                    } else if skipping == nil {
                        // Only a repeated key: the records before it are the first expected.
                        #expect(expected.repeats && Array(expected.values.prefix(values.count)) == values, "batch \(batch) round \(round)")
                    }
                }
                compared += tree.records.count
                if tree.error != nil { failed += 1 }
            }
        }
        // Both sides of the comparison were met often: records read, and errors.
        #expect(compared > 300 && failed > 150, "\(compared) records, \(failed) errors")
    }

    @Test func keysIntegersAndLiteralsKeepTheirForm() throws {
        let text = #"{"id": -0, "n": 1.0, "big": 1234567890123456789, "s": "a\nb", "k": {"x\u0041": [1, {"": null}]}}"#
        let node = JSONProjection.Node(members: ["id": 0, "n": 0, "big": 0, "s": 0, "k": 0])
        let projection = JSONProjection(nodes: [JSONProjection.Node(keepsAll: true), node], root: 1)
        let reader = JSONRecordReader(source: BytesSource(Array(text.utf8)), patterns: [.root], projections: [projection])
        var table = JSONSlots()
        _ = try reader.next(into: &table)
        let object = table.root
        let id = try #require(table.member("id", of: object))
        #expect(table.kind(at: id) == .number)
        #expect(table.withBytes(at: id) { String(decoding: $0, as: UTF8.self) } == "-0")
        let number = try #require(projection.memberNumber(of: 1, key: "s"))
        let s = try #require(table.member(number, of: object))
        #expect(table.withBytes(at: s) { Array($0) } == Array("a\nb".utf8))
        let k = try #require(table.member("k", of: object))
        let inner = try #require(table.member("xA", of: k))
        #expect(table.value(at: inner).jsonText == #"[1,{"":null}]"#)
        #expect(table.member("absent", of: object) == nil)
        #expect(table.value(at: object) == (try JSONParser.parse(Array(text.utf8))))
    }

    /// The table's memory is its own: a copy keeps its record while the reader fills the table
    /// with the next ones, which grow the slots and the arena far past their first capacity.
    @Test func aCopyKeepsItsRecordWhileTheTableIsRefilled() throws {
        let big = "[" + (0..<3000).map { #"{"k\#($0)":"\#(String(repeating: "v", count: $0 % 40))"}"# }.joined(separator: ",") + "]"
        let text = #"[{"a":"first","b":[1,2,3]},"# + big + "]"
        let reader = JSONRecordReader(source: BytesSource(Array(text.utf8)), patterns: [.everyElement])
        var table = JSONSlots()
        _ = try reader.next(into: &table)
        let copy = table
        let first = copy.value(at: copy.root)
        _ = try reader.next(into: &table)
        #expect(copy.value(at: copy.root) == first)
        #expect(first.jsonText == #"{"a":"first","b":[1,2,3]}"#)
        #expect(table.value(at: table.root) == (try JSONParser.parse(Array(big.utf8))))
        #expect(table.slotCount > 6000)
    }
}

/// `bytes` as Foundation's JSONSerialization reads it, written again with sorted keys: an
/// independent reading to compare ours with (nil where it refuses the text or cannot write
/// what it read), and whether the text is an array.
private func foundationReading(_ bytes: [UInt8]) -> (text: Data?, isArray: Bool)? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) else { return nil }
    return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed]), object is [Any])
}

extension CorpusSuite {
    @Suite("The slot table over JSONTestSuite")
    struct JSONSlotsTestSuiteTests {
        /// Every file of the suite read into a table and as a tree, whole and through a window of
        /// 7 bytes, kept whole and projected: accepted or refused as the suite and our documented
        /// decisions say, the same records or error both ways, and, kept whole, the records
        /// Foundation's JSONSerialization reads in the file.
        @Test func everyFileIsDecidedAsTheSuiteSaysAndReadAsFoundationReadsIt() throws {
            let projected = JSONProjection(nodes: [JSONProjection.Node(members: ["a": 0, "": 0, "asd": 0])], root: 0)
            var accepted = 0, agreed = 0
            for (name, bytes) in try JSONTestSuiteTests.suiteFiles() {
                let accepts = name.hasPrefix("y_") || (name.hasPrefix("i_") && JSONTestSuiteTests.implementationDefined[name] == true)
                for (keepsAll, projections) in [(true, [JSONProjection.all]), (false, [projected])] {
                    for bufferSize in [7, 1 << 16] {
                        let options = JSONReaderOptions(rejectDuplicateKeys: false, bufferSize: bufferSize)
                        let tree = read(bytes, [.everyElement], projections, options: options, slots: false)
                        let table = read(bytes, [.everyElement], projections, options: options, slots: true)
                        #expect(table.records == tree.records, "\(name)")
                        #expect(table.error == tree.error, "\(name)")
                        #expect((tree.error == nil) == accepts, "\(name): \(String(describing: tree.error))")
                        guard tree.error == nil else { continue }
                        accepted += 1
                        guard keepsAll, let foundation = foundationReading(bytes), let expected = foundation.text else { continue }
                        let texts = tree.records.map(\.value.jsonText)
                        let ours = foundation.isArray ? "[" + texts.joined(separator: ",") + "]" : texts.joined()
                        #expect(foundationReading(Array(ours.utf8))?.text == expected, "\(name): \(ours)")
                        agreed += 1
                    }
                }
            }
            #expect(accepted > 400 && agreed > 150, "\(accepted) accepted, \(agreed) compared with Foundation")
        }
    }
}
