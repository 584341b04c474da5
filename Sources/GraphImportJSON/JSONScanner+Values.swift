/// An array or object being built by `parseValue`, mutated in place on the frame stack.
private struct BuildFrame {
    var isObject: Bool
    var elements: [JSONValue] = []
    var members: [JSONMember] = []
    var key = ""
    /// Where the current key starts, kept whole: its value may span lines before a duplicate is found.
    var keyPosition = JSONPosition(offset: 0, line: 1, column: 1)
    /// Where this object's key hashes start in the scanner's `keyHashes`.
    var hashStart: Int
    /// One bit per key hash modulo 256: a key whose bit is clear is certainly new, so the search is skipped.
    var hashFilter = SIMD4<UInt64>()
    /// Keys seen so far, filled only once an object is big enough for linear search to cost more.
    var keySet: Set<String> = []

    init(isObject: Bool, hashStart: Int) {
        self.isObject = isObject
        self.hashStart = hashStart
    }
}

/// Past this many members, duplicate keys are found with a set instead of a linear search of hashes.
private let linearKeySearchLimit = 64

/// FNV-1a over the key's UTF-8: far cheaper than `Hasher`, and collisions only cost a string compare.
@inline(__always)
private func keyHash(_ key: String) -> UInt32 {
    func fnv(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }
    return key.utf8.withContiguousStorageIfAvailable { fnv($0) } ?? fnv(key.utf8)
}

extension JSONScanner {
    /// value = false / null / true / object / array / number / string
    ///
    /// Parses the value starting at `pos` (not whitespace) into a `JSONValue`, iteratively, so
    /// nesting costs heap, not stack. `depth` is the number of containers already open around it.
    mutating func parseValue(depth: Int) throws(JSONError) -> JSONValue {
        var stack: [BuildFrame] = []
        var value: JSONValue
        keyHashes.removeAll(keepingCapacity: true)
        parsing: while true {
            // At the first byte of a value.
            guard let byte = try peek() else {
                if let top = stack.last { throw syntaxError(JSONMessage.endInside(isObject: top.isObject)) }
                throw syntaxError(JSONMessage.expectedValue(found: "end of input"))
            }
            switch byte {
            case ASCII.openBrace, ASCII.openBracket:
                if depth + stack.count >= options.maxDepth {
                    throw error(.limit, JSONMessage.tooDeep(limit: options.maxDepth), at: offset)
                }
                let isObject = byte == ASCII.openBrace
                pos += 1
                let next = try skipWhitespace()
                if next == (isObject ? ASCII.closeBrace : ASCII.closeBracket) {
                    pos += 1
                    value = isObject ? .object(JSONObject()) : .array([])
                } else {
                    stack.append(BuildFrame(isObject: isObject, hashStart: keyHashes.count))
                    if isObject { try beginMember(of: &stack[stack.count - 1], at: next) }
                    continue parsing
                }
            case ASCII.quote: value = .string(try scanString(materialize: true))
            case ASCII.minus, ASCII.zero...ASCII.nine: value = .number(try scanNumber(materialize: true)!)
            case ASCII.lowerT: try scanLiteral("true"); value = .bool(true)
            case ASCII.lowerF: try scanLiteral("false"); value = .bool(false)
            case ASCII.lowerN: try scanLiteral("null"); value = .null
            default: throw syntaxError(JSONMessage.expectedValue(found: describeCurrent()))
            }
            // A value is complete: hand it to the container around it, closing containers as they end.
            while !stack.isEmpty {
                let top = stack.count - 1
                let next = try skipWhitespace()
                if stack[top].isObject {
                    try addMember(value, to: &stack[top])
                    if next == ASCII.comma {
                        pos += 1
                        try beginMember(of: &stack[top], at: try skipWhitespace())
                        continue parsing
                    }
                    guard next == ASCII.closeBrace else { throw separatorError(next, isObject: true) }
                    pos += 1
                    let frame = stack.removeLast()
                    keyHashes.removeLast(keyHashes.count - frame.hashStart)
                    value = .object(JSONObject(frame.members))
                } else {
                    stack[top].elements.append(value)
                    if next == ASCII.comma {
                        pos += 1
                        _ = try skipWhitespace()
                        continue parsing
                    }
                    guard next == ASCII.closeBracket else { throw separatorError(next, isObject: false) }
                    pos += 1
                    value = .array(stack.removeLast().elements)
                }
            }
            return value
        }
    }

    /// member = string name-separator value; reads the key and the colon, leaving `pos` at the value.
    private mutating func beginMember(of frame: inout BuildFrame, at byte: UInt8?) throws(JSONError) {
        frame.keyPosition = position
        frame.key = try scanKey(at: byte)
    }

    private mutating func addMember(_ value: JSONValue, to frame: inout BuildFrame) throws(JSONError) {
        if options.rejectDuplicateKeys {
            let count = frame.members.count
            var duplicate = false
            if count < linearKeySearchLimit {
                let hash = keyHash(frame.key)
                let word = Int(hash >> 6 & 3), bit = UInt64(1) << (hash & 63)
                if frame.hashFilter[word] & bit != 0 {
                    for index in frame.hashStart..<keyHashes.count where keyHashes[index] == hash {
                        if frame.members[index - frame.hashStart].key == frame.key { duplicate = true }
                    }
                }
                frame.hashFilter[word] |= bit
                keyHashes.append(hash)
            } else {
                if count == linearKeySearchLimit { for member in frame.members { frame.keySet.insert(member.key) } }
                duplicate = !frame.keySet.insert(frame.key).inserted
            }
            if duplicate {
                throw JSONError(kind: .syntax, message: JSONMessage.duplicateKey(frame.key), position: frame.keyPosition, hint: nil)
            }
        }
        frame.members.append(JSONMember(key: frame.key, value: value))
    }

    /// A key and the colon after it (`byte` is the first non-whitespace byte); `pos` ends at the value.
    mutating func scanKey(at byte: UInt8?, materialize: Bool = true) throws(JSONError) -> String {
        guard byte == ASCII.quote else {
            if byte == nil { throw syntaxError(JSONMessage.endInside(isObject: true)) }
            throw syntaxError(JSONMessage.expectedKey(found: describeCurrent()))
        }
        let key = try scanString(materialize: materialize)
        let colon = try skipWhitespace()
        guard colon == ASCII.colon else {
            if colon == nil { throw syntaxError(JSONMessage.endInside(isObject: true)) }
            throw syntaxError(JSONMessage.expectedColon(found: describeCurrent()))
        }
        pos += 1
        if try skipWhitespace() == nil { throw syntaxError(JSONMessage.endInside(isObject: true)) }
        return key
    }

    /// The error for a byte that is neither ',' nor the container's closing bracket.
    mutating func separatorError(_ byte: UInt8?, isObject: Bool) -> JSONError {
        if byte == nil { return syntaxError(JSONMessage.endInside(isObject: isObject)) }
        let found = describeCurrent()
        return syntaxError(
            isObject ? JSONMessage.expectedObjectSeparator(found: found) : JSONMessage.expectedArraySeparator(found: found))
    }

    /// Checks the value at `pos` against the grammar and steps over it without building anything.
    ///
    /// Keys of skipped objects are not compared, so duplicate keys go unnoticed in skipped values.
    mutating func skipValue(depth: Int) throws(JSONError) {
        skipStack.removeAll(keepingCapacity: true)
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
