/// One record's kept values as a flat table: what `JSONRecordReader.next(into:)` fills instead of
/// a `JSONValue` tree, reused from record to record so that reading one allocates nothing once
/// the table has grown.
///
/// A tree made an array for every object and array and a String for every string and key kept;
/// the table holds them as slots and the strings' bytes in one arena, so that a caller makes a
/// String only of a value it keeps, finds a member by its number in the projection without
/// comparing keys, and can hash or parse a value from its bytes.
///
/// The invariant, kept by the methods that fill the table (all in this file):
/// - Slot `root` (0) is the record's value. Every value is one slot followed by its subtree,
///   which ends before the value's `end`; the next value of the same container starts there.
/// - An array's slot is followed by its elements in order; its `count` is their number.
/// - An object's slot holds its projection node, and is followed by a directory: one slot for
///   each member of that node, in the projection's member order, holding the slot of that
///   member's value or -1 when the object has none (a node that keeps everything has no
///   directory). Its members follow in document order; a member the directory does not name
///   (any member of a node that keeps everything, or a repeat of a kept key when duplicates are
///   allowed) is preceded by a key slot.
/// - A string's, a key's and a non-integer number's bytes are in the arena (escapes resolved);
///   an integer the scanner kept as a value is in its slot.
/// - Those bytes are valid UTF-8 (the scanner checks a string's and a key's; a tree's are a
///   String's; a literal is ASCII), which a reader may rely on to make a String unchecked.
///
/// The slots and the arena are memory the table owns (`Memory`), grown by doubling: appending
/// to a Swift array checked that it was not shared for every slot and string, and copied a
/// string's bytes through the generic `append(contentsOf:)`. A copy of the table shares that
/// memory, which no one writes while it is shared: every fill starts with `reset`, which gives
/// a table whose memory another copy holds memory of its own. So the table stays a value, and
/// may cross threads as one (hence `@unchecked Sendable`: the pointers are read-only once shared).
public struct JSONSlots: @unchecked Sendable {
    /// What a slot holds.
    public enum Kind: UInt8, Sendable {
        case null, falseValue, trueValue
        /// A number kept as its value (see `JSONNumber`).
        case integer
        /// Any other number, as its literal's bytes.
        case number
        case string, array, object
        /// One entry of an object's directory.
        case directory
        /// The key of the member that follows.
        case key
    }

    /// 24 bytes. `count`: an array's elements, an object's directory entries, or a byte count
    /// (32 bits: a string must stay under 2 GiB, as `maxStringBytes` keeps the engine's, 16 MiB).
    /// `payload`: an integer's value, a start in the arena, an object's node, or a directory
    /// entry's value slot.
    struct Slot: Sendable {
        var kind: Kind
        var count: Int32
        var end: Int32
        var payload: Int64
    }

    /// Frees the table's memory once no copy of the table holds it; holds the current buffers,
    /// which change only when they grow.
    private final class Memory {
        var slots: UnsafeMutablePointer<Slot>
        var arena: UnsafeMutablePointer<UInt8>

        init(slotCapacity: Int, arenaCapacity: Int) {
            slots = .allocate(capacity: slotCapacity)
            arena = .allocate(capacity: arenaCapacity)
        }

        deinit {
            slots.deallocate()
            arena.deallocate()
        }
    }

    private var memory: Memory
    /// `memory`'s buffers, their capacities, and how much of each the table uses.
    private var slots: UnsafeMutablePointer<Slot>
    private var slotCapacity: Int
    private var usedSlots = 0
    private var arena: UnsafeMutablePointer<UInt8>
    private var arenaCapacity: Int
    private var arenaCount = 0
    /// Reused by `appendString`: what the scanner writes a string with escapes into.
    private var spareBytes: [UInt8] = []
    /// The projection the object slots' nodes and the directories belong to.
    public private(set) var projection = JSONProjection.all

    public init() { self.init(slotCapacity: 256, arenaCapacity: 4096) }

    private init(slotCapacity: Int, arenaCapacity: Int) {
        memory = Memory(slotCapacity: slotCapacity, arenaCapacity: arenaCapacity)
        slots = memory.slots
        arena = memory.arena
        self.slotCapacity = slotCapacity
        self.arenaCapacity = arenaCapacity
    }

    /// Slot `index`, which must be one of the table's.
    @inline(__always)
    private func entry(_ index: Int) -> Slot {
        precondition(index >= 0 && index < usedSlots, "a slot outside the table")
        return slots[index]
    }

    /// The table of `value`, read with `projection` (the one the tree was read with: every
    /// member of an object at a node that does not keep everything must be one of its members).
    public init(_ value: JSONValue, projection: JSONProjection) {
        self.init()
        fill(value, projection: projection)
    }

    /// The record's value.
    public var root: Int { 0 }

    /// How many slots the table holds (values, directory entries and keys).
    public var slotCount: Int { usedSlots }

    public func kind(at slot: Int) -> Kind { entry(slot).kind }

    /// The slot past `slot`'s value: its next sibling, when it has one.
    public func end(of slot: Int) -> Int { Int(entry(slot).end) }

    /// The value of an integer slot, else nil.
    public func integer(at slot: Int) -> Int64? { entry(slot).kind == .integer ? entry(slot).payload : nil }

    /// The bytes of a string, key or number slot (UTF-8, escapes resolved), without making a String.
    public func withBytes<Result>(at slot: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let entry = entry(slot)
        precondition(entry.kind == .string || entry.kind == .key || entry.kind == .number, "a slot without bytes")
        return try body(UnsafeBufferPointer(start: arena + Int(entry.payload), count: Int(entry.count)))
    }

    /// The projection node of the object at `object`: what `JSONProjection.memberNumber(of:key:)`
    /// numbers its members by.
    public func node(of object: Int) -> Int {
        precondition(entry(object).kind == .object, "the node of a slot that is not an object")
        return Int(entry(object).payload)
    }

    /// The slot of the value of member `number` (a number `JSONProjection.memberNumber(of:key:)`
    /// gave for the object's node) of the object at `object`, or nil when the object has none.
    public func member(_ number: Int, of object: Int) -> Int? {
        let entry = entry(object)
        precondition(entry.kind == .object, "members of a slot that is not an object")
        let place = number - projection.memberBase(Int(entry.payload))
        guard place >= 0 && place < Int(entry.count) else { return nil }
        let found = self.entry(object + 1 + place).payload
        return found >= 0 ? Int(found) : nil
    }

    /// The slot of the value of the object's first member called `key`, or nil: by the directory
    /// when the key is one of its node's members, else by the key slots.
    public func member(_ key: String, of object: Int) -> Int? {
        let entry = entry(object)
        precondition(entry.kind == .object, "members of a slot that is not an object")
        if let number = projection.memberNumber(of: Int(entry.payload), key: key) { return member(number, of: object) }
        var child = object + 1 + Int(entry.count)
        while child < Int(entry.end) {
            if self.entry(child).kind == .key {
                if withBytes(at: child, { $0.elementsEqual(key.utf8) }) { return child + 1 }
                child += 1
            }
            child = Int(self.entry(child).end)
        }
        return nil
    }

    /// How many elements the array at `array` has; they are its next slot and each one's `end(of:)`.
    public func elementCount(of array: Int) -> Int {
        let entry = entry(array)
        precondition(entry.kind == .array, "elements of a slot that is not an array")
        return Int(entry.count)
    }

    /// The value at `slot` as the tree holds it: what the reader's `next()` would have built.
    public func value(at slot: Int) -> JSONValue {
        let entry = entry(slot)
        switch entry.kind {
        case .null: return .null
        case .falseValue: return .bool(false)
        case .trueValue: return .bool(true)
        case .integer: return .number(JSONNumber(integer: entry.payload))
        case .number: return .number(JSONNumber(literal: withBytes(at: slot) { String(decoding: $0, as: UTF8.self) }))
        case .string: return .string(withBytes(at: slot) { String(decoding: $0, as: UTF8.self) })
        case .array: return .array(array(at: slot))
        case .object: return .object(object(at: slot))
        case .directory, .key: preconditionFailure("a directory entry or key is not a value")
        }
    }

    /// The elements of the array at `slot`, read in order from the slots that follow it.
    private func array(at slot: Int) -> [JSONValue] {
        let entry = entry(slot)
        var elements: [JSONValue] = []
        elements.reserveCapacity(Int(entry.count))
        var child = slot + 1
        while child < Int(entry.end) {
            elements.append(value(at: child))
            child = Int(self.entry(child).end)
        }
        return elements
    }

    /// The members of the object at `slot` in document order: the directory's, by their value
    /// slots (sorted in a buffer on the stack: the tree's path makes every object this way),
    /// between those after a key slot.
    private func object(at slot: Int) -> JSONObject {
        let entry = entry(slot)
        let base = projection.memberBase(Int(entry.payload))
        let directory = Int(entry.count)
        return withUnsafeTemporaryAllocation(of: (slot: Int, member: Int).self, capacity: max(directory, 1)) { named in
            var count = 0
            for place in 0..<directory where self.entry(slot + 1 + place).payload >= 0 {
                named[count] = (Int(self.entry(slot + 1 + place).payload), base + place)
                count += 1
            }
            var sorted = UnsafeMutableBufferPointer(rebasing: named[..<count])
            sorted.sort { $0.slot < $1.slot }
            var members: [JSONMember] = []
            members.reserveCapacity(count)
            var next = 0
            var child = slot + 1 + directory
            while child < Int(entry.end) {
                if self.entry(child).kind == .key {
                    let key = withBytes(at: child) { String(decoding: $0, as: UTF8.self) }
                    members.append(JSONMember(key: key, value: value(at: child + 1)))
                    child = Int(self.entry(child + 1).end)
                } else {
                    precondition(next < count && sorted[next].slot == child, "a member neither in the directory nor after a key")
                    members.append(JSONMember(key: projection.key(of: sorted[next].member), value: value(at: child)))
                    next += 1
                    child = Int(self.entry(child).end)
                }
            }
            return JSONObject(members)
        }
    }
}

// MARK: - Filling

extension JSONSlots {
    /// Empties the table for a record read with `projection`, keeping its capacity; memory
    /// another copy of the table holds is left to it (see the type's comment).
    mutating func reset(projection: JSONProjection) {
        if !isKnownUniquelyReferenced(&memory) {
            let fresh = JSONSlots(slotCapacity: slotCapacity, arenaCapacity: arenaCapacity)
            memory = fresh.memory
            slots = fresh.slots
            arena = fresh.arena
        }
        usedSlots = 0
        arenaCount = 0
        self.projection = projection
    }

    /// The slot the next value appended takes.
    var nextSlot: Int { usedSlots }

    /// Appends `slot`.
    @inline(__always)
    private mutating func append(_ slot: Slot) {
        if usedSlots == slotCapacity { growSlots() }
        (slots + usedSlots).initialize(to: slot)
        usedSlots += 1
    }

    /// Doubles the slots' memory (the table holds it alone: this runs between `reset` and the
    /// end of a fill).
    @inline(never)
    private mutating func growSlots() {
        let bigger = UnsafeMutablePointer<Slot>.allocate(capacity: slotCapacity * 2)
        bigger.initialize(from: slots, count: usedSlots)
        memory.slots.deallocate()
        memory.slots = bigger
        slots = bigger
        slotCapacity *= 2
    }

    /// Makes room in the arena for `count` more bytes, doubling it as often as needed.
    @inline(never)
    private mutating func growArena(toFit count: Int) {
        var capacity = arenaCapacity * 2
        while capacity < arenaCount + count { capacity *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        bigger.initialize(from: arena, count: arenaCount)
        memory.arena.deallocate()
        memory.arena = bigger
        arena = bigger
        arenaCapacity = capacity
    }

    /// Appends a null, a boolean or an integer.
    @inline(__always)
    mutating func appendScalar(_ kind: Kind, payload: Int64 = 0) {
        append(Slot(kind: kind, count: 0, end: Int32(usedSlots + 1), payload: payload))
    }

    /// Appends a string, a key or a number's literal with these bytes.
    @inline(__always)
    mutating func appendBytes(_ kind: Kind, _ bytes: UnsafeBufferPointer<UInt8>) {
        let start = arenaCount
        if arenaCount + bytes.count > arenaCapacity { growArena(toFit: bytes.count) }
        if let base = bytes.baseAddress { (arena + start).initialize(from: base, count: bytes.count) }
        arenaCount += bytes.count
        append(Slot(kind: kind, count: Int32(bytes.count), end: Int32(usedSlots + 1), payload: Int64(start)))
    }

    /// Appends a string whose bytes `scan` appends to the array it is given (empty, and held
    /// alone, so that appending does not copy it).
    @inline(__always)
    mutating func appendString(_ scan: (inout [UInt8]?) throws(JSONError) -> Void) throws(JSONError) {
        var scratch: [UInt8]? = []
        swap(&scratch!, &spareBytes)
        scratch!.removeAll(keepingCapacity: true)
        defer { swap(&scratch!, &spareBytes) }
        try scan(&scratch)
        scratch!.withUnsafeBufferPointer { appendBytes(.string, $0) }
    }

    mutating func appendNumber(_ number: JSONNumber) {
        if let value = number.integerValue { return appendScalar(.integer, payload: value) }
        var literal = number.literal
        literal.withUTF8 { appendBytes(.number, $0) }
    }

    /// Opens an array, or an object at `node` with its directory, every entry absent; returns its
    /// slot, for `close`.
    @inline(__always)
    mutating func open(isObject: Bool, node: Int) -> Int {
        let start = usedSlots
        let directory = isObject ? (projection.memberLimit(node) ?? 0) : 0
        append(Slot(kind: isObject ? .object : .array, count: Int32(directory), end: 0, payload: Int64(node)))
        for place in 0..<directory {
            append(Slot(kind: .directory, count: 0, end: Int32(start + 2 + place), payload: -1))
        }
        return start
    }

    /// Ends the container opened at `start`, an array with `elements` elements.
    @inline(__always)
    mutating func close(_ start: Int, elements: Int) {
        slots[start].end = Int32(usedSlots)
        if slots[start].kind == .array { slots[start].count = Int32(elements) }
    }

    /// Before the value of member `member` (a number from the projection) of the object at
    /// `object`: names it in the directory, or, when the directory names an earlier member of
    /// that key (duplicates allowed), puts a key slot before it.
    @inline(__always)
    mutating func beginMember(_ member: Int, of object: Int) {
        let entry = object + 1 + member - projection.memberBase(Int(slots[object].payload))
        if slots[entry].payload < 0 {
            slots[entry].payload = Int64(usedSlots)
        } else {
            // The directory keeps naming the first, which is what a tree's lookup by key finds.
            var key = projection.key(of: member)
            key.withUTF8 { appendBytes(.key, $0) }
        }
    }

    /// Makes the table `value`'s, keeping its capacity (see `init(_:projection:)`).
    mutating func fill(_ value: JSONValue, projection: JSONProjection) {
        reset(projection: projection)
        append(value, node: projection.root)
    }

    /// Appends `value`, a part of a tree read with the table's projection, at `node`.
    private mutating func append(_ value: JSONValue, node: Int) {
        switch value {
        case .null: appendScalar(.null)
        case .bool(let flag): appendScalar(flag ? .trueValue : .falseValue)
        case .number(let number): appendNumber(number)
        case .string(var text): text.withUTF8 { appendBytes(.string, $0) }
        case .array(let elements):
            let start = open(isObject: false, node: node)
            for element in elements { append(element, node: node) }
            close(start, elements: elements.count)
        case .object(let object):
            let start = open(isObject: true, node: node)
            let keepsAll = projection.keepsAll(node)
            for var member in object.members {
                if keepsAll {
                    member.key.withUTF8 { appendBytes(.key, $0) }
                    append(member.value, node: node)
                } else {
                    guard let number = projection.memberNumber(of: node, key: member.key) else {
                        preconditionFailure("a member the projection does not keep: \(member.key)")
                    }
                    beginMember(number, of: start)
                    append(member.value, node: projection.child(of: number))
                }
            }
            close(start, elements: 0)
        }
    }
}
