extension JSONScanner {
    /// value = false / null / true / object / array / number / string
    ///
    /// Parses the value starting at `pos` (not whitespace) into a `JSONValue`: read into the
    /// scanner's own table by `parseSlots`, the one parse loop, and made a tree from it, so that
    /// the tree and the table cannot differ in grammar, projection, limits or errors.
    mutating func parseValue(depth: Int, projection: JSONProjection = .all) throws(JSONError) -> JSONValue {
        var table = treeSlots.take() ?? JSONSlots()
        defer { treeSlots = table }
        try parseSlots(depth: depth, projection: projection, into: &table)
        return table.value(at: table.root)
    }

    /// Parses the value starting at `pos` (not whitespace) into `table`, iteratively, so that
    /// nesting costs heap, not stack. `depth` is the number of containers already open around
    /// it. Members that `projection` does not keep are checked against the grammar and left out.
    mutating func parseSlots(depth: Int, projection: JSONProjection, into table: inout JSONSlots) throws(JSONError) {
        self.projection = projection
        table.reset(projection: projection)
        var outer = frameStack
        frameStack = []
        defer {
            if !outer.isEmpty { outer.removeAll(keepingCapacity: true) }
            frameStack = outer
        }
        // The slot and element count of each container around `top`, taken out as `outer` is.
        var starts = slotStack
        slotStack = []
        defer {
            if !starts.isEmpty { starts.removeAll(keepingCapacity: true) }
            slotStack = starts
        }
        var top = BuildFrame(isObject: false, hashStart: 0, arenaStart: 0, projection: -1)
        var topStart = 0
        var topElements = 0
        var open = 0
        keyLog.truncate(count: 0, byteCount: 0)
        if shapes.projection != projection.identity && !projection.keepsAll(projection.root) {
            shapes = KeyShapes(for: projection, nodeCount: projection.nodeCount)
        }
        isLearning = false
        parsing: while true {
            // At the first byte of a value.
            guard let byte = try peek() else {
                if open > 0 { throw syntaxError(JSONMessage.endInside(isObject: top.isObject)) }
                throw syntaxError(JSONMessage.expectedValue(found: "end of input"))
            }
            var wanted = projection.root
            if open > 0 { wanted = top.isObject ? top.valueProjection : top.projection }
            if wanted >= 0 {
                if open > 0 && top.isObject {
                    if top.keyMember >= 0 {
                        table.beginMember(top.keyMember, of: topStart)
                    } else {
                        var key = top.key
                        key.withUTF8 { table.appendBytes(.key, $0) }
                    }
                }
                switch byte {
                case ASCII.openBrace, ASCII.openBracket:
                    if depth + open >= options.maxDepth {
                        throw error(.limit, JSONMessage.tooDeep(limit: options.maxDepth), at: offset)
                    }
                    let isObject = byte == ASCII.openBrace
                    pos += 1
                    let next = try skipWhitespace()
                    let start = table.open(isObject: isObject, node: wanted)
                    if next == (isObject ? ASCII.closeBrace : ASCII.closeBracket) {
                        pos += 1
                        table.close(start, elements: 0)
                    } else {
                        if open > 0 {
                            outer.append(top)
                            starts.append(topStart)
                            starts.append(topElements)
                        }
                        top = BuildFrame(isObject: isObject, hashStart: keyLog.count, arenaStart: keyLog.byteCount, projection: wanted)
                        topStart = start
                        topElements = 0
                        open += 1
                        if isObject { try beginMember(of: &top, at: next) }
                        continue parsing
                    }
                case ASCII.quote:
                    // In place when the string is plain; otherwise scanned into the arena.
                    if let plain = plainString() {
                        table.appendBytes(.string, plain)
                    } else {
                        try table.appendString { arena throws(JSONError) in try scanString(keepingIn: &arena) }
                    }
                case ASCII.minus, ASCII.zero...ASCII.nine: table.appendNumber(try scanNumber(materialize: true)!)
                case ASCII.lowerT: try scanLiteral("true"); table.appendScalar(.trueValue)
                case ASCII.lowerF: try scanLiteral("false"); table.appendScalar(.falseValue)
                case ASCII.lowerN: try scanLiteral("null"); table.appendScalar(.null)
                default: throw syntaxError(JSONMessage.expectedValue(found: describeCurrent()))
                }
            } else {
                try skipMemberValue(byte, depth: depth + open)
            }
            // A value is complete: close the containers that end after it.
            while open > 0 {
                let next = try skipWhitespace()
                if top.isObject {
                    // The duplicate check; the member is in the table already.
                    try endMember(of: &top)
                    if next == ASCII.comma {
                        pos += 1
                        try beginMember(of: &top, at: try skipWhitespace())
                        continue parsing
                    }
                    guard next == ASCII.closeBrace else { throw separatorError(next, isObject: true) }
                    pos += 1
                    keyLog.truncate(count: top.hashStart, byteCount: top.arenaStart)
                    if top.learns {
                        shapes.endLearning(node: top.projection)
                        isLearning = false
                    }
                } else {
                    topElements += 1
                    if next == ASCII.comma {
                        pos += 1
                        _ = try skipWhitespace()
                        continue parsing
                    }
                    guard next == ASCII.closeBracket else { throw separatorError(next, isObject: false) }
                    pos += 1
                }
                table.close(topStart, elements: topElements)
                open -= 1
                if open > 0 {
                    top = outer.removeLast()
                    topElements = starts.removeLast()
                    topStart = starts.removeLast()
                }
            }
            return
        }
    }
}
