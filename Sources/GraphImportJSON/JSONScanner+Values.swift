/// An array or object open in `parseSlots`: what its member and duplicate steps need, mutated
/// in place (the innermost one) or kept on the frame stack.
struct BuildFrame {
    var isObject: Bool
    /// The current key's text, when `keyMember` is -1 (a node that keeps everything) or the object
    /// is past the linear duplicate search (which then goes by text).
    var key = ""
    /// The projection's member for the current key, whose text is the projection's: setting a
    /// String for every key read (most of them skipped) cost a release per key.
    var keyMember = -1
    /// Where the current key starts, kept whole: its value may span lines before a duplicate is found.
    var keyPosition = JSONPosition(offset: 0, line: 1, column: 1)
    /// Where this object's keys begin in the scanner's `keyLog`: its first recorded key, its
    /// first byte, and where the current key's bytes start.
    var hashStart: Int
    var arenaStart: Int
    var currentKeyStart = 0
    /// The current key's hash. Kept with its object: the key's value may be an object whose own
    /// keys are read before this key is recorded (a single hash for the scanner recorded the
    /// last inner key's hash instead, and a repeat of an outer key went unnoticed).
    var currentHash: UInt32 = 0
    /// One bit per key hash modulo 256: a key whose bit is clear is certainly new, so the search is skipped.
    var hashFilter = SIMD4<UInt64>()
    /// Keys seen so far, filled only once an object is big enough for linear search to cost more.
    var keySet: Set<String> = []
    /// Keys checked through `keyLog` (or `keySet`) so far: every key but the kept ones that have a bit.
    var keyCount = 0
    /// The kept members seen so far, as their projection bits (`JSONProjection.bit(of:)`): a kept
    /// key is a duplicate only of itself, so its check is one bit, without hashing or logging it.
    var keptMembers: UInt64 = 0
    /// The current key's bit, or 0 when it goes through the log (skipped, past the 64th kept
    /// member of its node, or any key of a node that keeps everything).
    var keyBit: UInt64 = 0
    /// The projection node of this container's elements (an array) or members (an object).
    let projection: Int
    /// The node of the current member's value; `skipped` to skip it.
    var valueProjection = skipped
    /// Where the object is in its shape (`KeyShapes`): the index of the key expected next, from
    /// `shapeStart`, up to `shapeEnd`; `beforeFirstKey` until its first key chooses a shape, and
    /// `offShape` once it follows none.
    var shapeNext = beforeFirstKey
    var shapeStart = 0
    var shapeEnd = 0
    /// Whether the current key was the shape's: distinct from the keys before it, so not checked.
    var keyOnShape = false
    /// Whether the object's keys are being learnt as a shape.
    var learns = false

    init(isObject: Bool, hashStart: Int, arenaStart: Int, projection: Int) {
        self.isObject = isObject
        self.hashStart = hashStart
        self.arenaStart = arenaStart
        self.projection = projection
    }
}

/// Past this many members, duplicate keys are found with a set instead of a linear search of hashes.
private let linearKeySearchLimit = 64

/// A hash of the key's UTF-8 for the duplicate check, from its length and its first and last
/// eight bytes (overlapping, or the first bytes masked for a shorter key), mixed by two multiplies.
///
/// FNV-1a, which it replaced, multiplied once per byte, each multiply waiting for the one before:
/// perf showed that chain as the hottest code of reading a key. Bytes in the middle of a
/// long key are left out: a collision only costs the comparison of two keys.
/// At least 8 bytes past `bytes` must be readable (their values do not matter): the scanner's
/// buffer is padded for it, and keys read another way are copied with padding.
@inline(__always)
private func keyHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    let count = bytes.count
    guard count > 0, let base = bytes.baseAddress else { return 0 }
    let raw = UnsafeRawPointer(base)
    let first = raw.loadUnaligned(as: UInt64.self)
    var hash: UInt64
    if count >= 8 {
        let last = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        hash = first &* 0x9E37_79B9_7F4A_7C15 ^ (last << 29 | last >> 35)
    } else {
        hash = (first & (UInt64(1) << (count * 8) &- 1)) &* 0x9E37_79B9_7F4A_7C15
    }
    hash ^= UInt64(count)
    hash = (hash ^ hash >> 32) &* 0xD6E8_FEB8_6659_FD93
    return UInt32(truncatingIfNeeded: hash ^ hash >> 32)
}

/// The projection node of a member that is not built.
private let skipped = -1
/// `BuildFrame.shapeNext` before an object's first key, and once the object follows no shape.
private let beforeFirstKey = -2
private let offShape = -1

extension JSONScanner {
    /// member = string name-separator value; reads the key and the colon, leaving `pos` at the value.
    ///
    /// The key is matched against the projection as bytes; a String is made only for a member
    /// that is kept (and then it is the projection's own). A key of plain ASCII that ends inside
    /// the window (nearly every key) is read in place; any other goes through `scanString`.
    mutating func beginMember(of frame: inout BuildFrame, at byte: UInt8?) throws(JSONError) {
        frame.keyPosition = position
        try expectKey(at: byte)
        let start = pos + 1
        // Most keys are the next of their object's shape: compared where they stand, without
        // scanning for their quote first (the ordinary way below reads the same key).
        let next = frame.shapeNext
        if next >= 0 && next < frame.shapeEnd && shapes.isAt(next, in: bytes, from: start, end: end) {
            pos = start + shapes.range(of: next).count + 1
            takeShapeKey(next, in: &frame)
            return try scanNameSeparator()
        }
        // In blocks, as `scanString` does: keys are a third of a feed's strings.
        if let key = plainString() {
            if !followShape(key, in: &frame) {
                takeKey(key, text: nil, into: &frame)
                if frame.learns { learn(key, in: &frame) }
            }
        } else {
            // Neither followed nor learnt: a shape holds keys as read in place.
            if frame.shapeNext >= 0 { leaveShape(&frame) }
            frame.shapeNext = offShape
            frame.keyOnShape = false
            if frame.learns { stopLearning(&frame) }
            let text = try scanString(materialize: true)
            // Padded for keyHash, which reads eight bytes wherever the key starts.
            var padded: [UInt8] = []
            padded.reserveCapacity(text.utf8.count + JSONByteBuffer.padding)
            padded.append(contentsOf: text.utf8)
            let count = padded.count
            padded.append(contentsOf: repeatElement(0, count: JSONByteBuffer.padding))
            padded.withUnsafeBufferPointer { takeKey(UnsafeBufferPointer(rebasing: $0[..<count]), text: text, into: &frame) }
        }
        try scanNameSeparator()
    }

    /// Looks a key up in the frame's projection node and keeps what the duplicate check needs:
    /// a kept member's bit, or else the key's bytes in `keyLog` and its hash in
    /// `frame.currentHash` (its text, past the linear search).
    private mutating func takeKey(_ bytes: UnsafeBufferPointer<UInt8>, text: String?, into frame: inout BuildFrame) {
        let node = frame.projection
        frame.keyBit = 0
        if projection.keepsAll(node) {
            frame.key = text ?? String(decoding: bytes, as: UTF8.self)
            frame.keyMember = -1
            frame.valueProjection = node
            logKey(bytes, into: &frame)
        } else if let member = projection.member(of: node, matching: bytes) {
            frame.keyMember = member
            frame.valueProjection = projection.child(of: member)
            guard options.rejectDuplicateKeys else { return }
            frame.keyBit = projection.bit(of: member)
            if frame.keyBit == 0 {
                // A big object's duplicate check goes by text.
                if frame.keyCount >= linearKeySearchLimit { frame.key = projection.key(of: member) }
                logKey(bytes, into: &frame)
            }
        } else {
            frame.valueProjection = skipped
            guard options.rejectDuplicateKeys else { return }
            if frame.keyCount >= linearKeySearchLimit { frame.key = text ?? String(decoding: bytes, as: UTF8.self) }
            logKey(bytes, into: &frame)
        }
    }

    /// Keeps a key's hash and bytes for the duplicate check, while the object's logged keys are
    /// few enough for the linear search.
    @inline(__always)
    private mutating func logKey(_ bytes: UnsafeBufferPointer<UInt8>, into frame: inout BuildFrame) {
        guard options.rejectDuplicateKeys && frame.keyCount < linearKeySearchLimit else { return }
        frame.currentHash = keyHash(bytes)
        frame.currentKeyStart = keyLog.appendBytes(bytes)
    }

    /// Reads a key by the object's shape when it is the shape's next key (true). Otherwise
    /// (false: the caller takes the key the ordinary way) the object leaves its shape, or, at its
    /// first key, finds none and may learn one.
    @inline(__always)
    private mutating func followShape(_ key: UnsafeBufferPointer<UInt8>, in frame: inout BuildFrame) -> Bool {
        frame.keyOnShape = false
        if frame.shapeNext == offShape { return false }
        let words = KeyWords(key)
        if frame.shapeNext == beforeFirstKey {
            frame.shapeNext = offShape
            let node = frame.projection
            if projection.keepsAll(node) { return false }
            guard let shape = shapes.shape(of: node, startingWith: words, key) else {
                if !isLearning && shapes.hasRoom(node) {
                    isLearning = true
                    frame.learns = true
                    shapes.beginLearning()
                }
                return false
            }
            frame.shapeStart = shape.lowerBound
            frame.shapeNext = shape.lowerBound
            frame.shapeEnd = shape.upperBound
        }
        let next = frame.shapeNext
        guard next < frame.shapeEnd && shapes.matches(next, words, key) else {
            leaveShape(&frame)
            return false
        }
        takeShapeKey(next, in: &frame)
        return true
    }

    /// Takes the shape's key `next`, the object's next key: distinct from the keys before it, so
    /// not checked for a duplicate.
    @inline(__always)
    private mutating func takeShapeKey(_ next: Int, in frame: inout BuildFrame) {
        frame.shapeNext = next + 1
        frame.keyOnShape = true
        frame.keyBit = 0
        let member = shapes.member(at: next)
        if member >= 0 {
            frame.keyMember = member
            frame.valueProjection = projection.child(of: member)
        } else {
            frame.valueProjection = skipped
        }
    }

    /// The object leaves its shape: the keys it matched are taken and checked as if read one by
    /// one, so that the keys after them are checked against them. They are distinct (a shape's
    /// keys are), so none is a duplicate.
    private mutating func leaveShape(_ frame: inout BuildFrame) {
        let matched = frame.shapeStart..<frame.shapeNext
        frame.shapeNext = offShape
        guard options.rejectDuplicateKeys, !matched.isEmpty else { return }
        let keyBytes = shapes.bytes
        keyBytes.withUnsafeBufferPointer { keyBytes in
            for index in matched {
                takeKey(UnsafeBufferPointer(rebasing: keyBytes[shapes.range(of: index)]), text: nil, into: &frame)
                let duplicate = isDuplicate(&frame)
                assert(!duplicate, "a shape's keys are distinct")
            }
        }
    }

    /// Learns the key just taken as the next of the object's shape.
    private mutating func learn(_ key: UnsafeBufferPointer<UInt8>, in frame: inout BuildFrame) {
        guard shapes.learntCount < KeyShapes.maxKeys else { return stopLearning(&frame) }
        shapes.learn(KeyWords(key), key, member: frame.valueProjection == skipped ? -1 : frame.keyMember)
    }

    private mutating func stopLearning(_ frame: inout BuildFrame) {
        frame.learns = false
        isLearning = false
    }

    /// The member's step after its value: the duplicate check of its key.
    ///
    /// Inlined, so that a key of its object's shape costs one test here.
    @inline(__always)
    mutating func endMember(of frame: inout BuildFrame) throws(JSONError) {
        if options.rejectDuplicateKeys && !frame.keyOnShape { try checkDuplicate(&frame) }
    }

    /// The current key's duplicate check: the error when it repeats a key before it.
    private mutating func checkDuplicate(_ frame: inout BuildFrame) throws(JSONError) {
        if isDuplicate(&frame) {
            let key: String
            if frame.keyBit != 0 {
                key = projection.key(of: frame.keyMember)
            } else if frame.keyCount - 1 < linearKeySearchLimit {
                key = String(decoding: keyLog.bytes(from: frame.currentKeyStart), as: UTF8.self)
            } else {
                key = frame.key
            }
            throw JSONError(kind: .syntax, message: JSONMessage.duplicateKey(key), position: frame.keyPosition, hint: nil)
        }
    }

    /// Whether the current key repeats one before it in its object; either way it is noted as
    /// seen: a kept member by its bit, any other key in the log.
    private mutating func isDuplicate(_ frame: inout BuildFrame) -> Bool {
        guard frame.keyBit != 0 else { return checkLoggedKey(of: &frame) }
        if frame.keptMembers & frame.keyBit != 0 { return true }
        frame.keptMembers |= frame.keyBit
        return false
    }

    /// The duplicate check of a key without a bit: a linear search of the object's logged keys
    /// (hashes first, through a filter of their bits), or past that a set of their texts.
    private mutating func checkLoggedKey(of frame: inout BuildFrame) -> Bool {
        let count = frame.keyCount
        var duplicate = false
        if count < linearKeySearchLimit {
            let hash = frame.currentHash
            let word = Int(hash >> 6 & 3), bit = UInt64(1) << (hash & 63)
            if frame.hashFilter[word] & bit != 0 {
                let current = keyLog.bytes(from: frame.currentKeyStart)
                for index in frame.hashStart..<keyLog.count where keyLog.hash(at: index) == hash {
                    if keyLog.key(at: index, end: frame.currentKeyStart).elementsEqual(current) { duplicate = true }
                }
            }
            frame.hashFilter[word] |= bit
            keyLog.record(hash: hash, start: frame.currentKeyStart)
        } else {
            if count == linearKeySearchLimit {
                // Past the linear search: the keys so far go into a set, as text.
                for index in frame.hashStart..<keyLog.count {
                    frame.keySet.insert(String(decoding: keyLog.key(at: index, end: keyLog.byteCount), as: UTF8.self))
                }
            }
            duplicate = !frame.keySet.insert(frame.key).inserted
        }
        frame.keyCount += 1
        return duplicate
    }

    /// A key and the colon after it (`byte` is the first non-whitespace byte); `pos` ends at the value.
    mutating func scanKey(at byte: UInt8?, materialize: Bool = true) throws(JSONError) -> String {
        try expectKey(at: byte)
        let key = try scanString(materialize: materialize)
        try scanNameSeparator()
        return key
    }

    /// A key must start here (`byte` is the first non-whitespace byte): an opening quote.
    @inline(__always)
    private mutating func expectKey(at byte: UInt8?) throws(JSONError) {
        guard byte == ASCII.quote else {
            if byte == nil { throw syntaxError(JSONMessage.endInside(isObject: true)) }
            throw syntaxError(JSONMessage.expectedKey(found: describeCurrent()))
        }
    }

    /// name-separator = ws %x3A ws, after a key; `pos` ends at the value, which must exist.
    @inline(__always)
    private mutating func scanNameSeparator() throws(JSONError) {
        let colon = try skipWhitespace()
        guard colon == ASCII.colon else {
            if colon == nil { throw syntaxError(JSONMessage.endInside(isObject: true)) }
            throw syntaxError(JSONMessage.expectedColon(found: describeCurrent()))
        }
        pos += 1
        if try skipWhitespace() == nil { throw syntaxError(JSONMessage.endInside(isObject: true)) }
    }

    /// The error for a byte that is neither ',' nor the container's closing bracket.
    mutating func separatorError(_ byte: UInt8?, isObject: Bool) -> JSONError {
        if byte == nil { return syntaxError(JSONMessage.endInside(isObject: isObject)) }
        let found = describeCurrent()
        return syntaxError(
            isObject ? JSONMessage.expectedObjectSeparator(found: found) : JSONMessage.expectedArraySeparator(found: found))
    }

    /// `skipValue` for the value of a member the projection leaves out, whose first byte is
    /// `byte`, without its stack for a scalar (most skipped values are): a plain string is
    /// stepped over in place.
    @inline(__always)
    mutating func skipMemberValue(_ byte: UInt8, depth: Int) throws(JSONError) {
        switch byte {
        case ASCII.quote:
            if plainString() == nil { _ = try scanString(materialize: false) }
        case ASCII.minus, ASCII.zero...ASCII.nine: _ = try scanNumber(materialize: false)
        case ASCII.lowerT: try scanLiteral("true")
        case ASCII.lowerF: try scanLiteral("false")
        case ASCII.lowerN: try scanLiteral("null")
        default: try skipValue(depth: depth)
        }
    }

    /// Checks the value at `pos` against the grammar and steps over it without building anything.
    ///
    /// Keys of skipped objects are not compared, so duplicate keys go unnoticed in skipped values.
    mutating func skipValue(depth: Int) throws(JSONError) {
        // Empty unless the last skip failed: emptying an empty array still cost a call per value.
        if !skipStack.isEmpty { skipStack.removeAll(keepingCapacity: true) }
        skipping: while true {
            guard let byte = try peek() else {
                if let isObject = skipStack.last { throw syntaxError(JSONMessage.endInside(isObject: isObject)) }
                throw syntaxError(JSONMessage.expectedValue(found: "end of input"))
            }
            switch byte {
            case ASCII.openBrace, ASCII.openBracket:
                if depth + skipStack.count >= options.maxDepth {
                    throw error(.limit, JSONMessage.tooDeep(limit: options.maxDepth), at: offset)
                }
                let isObject = byte == ASCII.openBrace
                pos += 1
                let next = try skipWhitespace()
                if next == (isObject ? ASCII.closeBrace : ASCII.closeBracket) {
                    pos += 1
                } else {
                    skipStack.append(isObject)
                    if isObject { _ = try scanKey(at: next, materialize: false) }
                    continue skipping
                }
            case ASCII.quote: _ = try scanString(materialize: false)
            case ASCII.minus, ASCII.zero...ASCII.nine: _ = try scanNumber(materialize: false)
            case ASCII.lowerT: try scanLiteral("true")
            case ASCII.lowerF: try scanLiteral("false")
            case ASCII.lowerN: try scanLiteral("null")
            default: throw syntaxError(JSONMessage.expectedValue(found: describeCurrent()))
            }
            while let isObject = skipStack.last {
                let next = try skipWhitespace()
                if next == ASCII.comma {
                    pos += 1
                    let following = try skipWhitespace()
                    if isObject { _ = try scanKey(at: following, materialize: false) }
                    continue skipping
                }
                guard next == (isObject ? ASCII.closeBrace : ASCII.closeBracket) else {
                    throw separatorError(next, isObject: isObject)
                }
                pos += 1
                skipStack.removeLast()
            }
            return
        }
    }
}
