#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Owns the scanner's byte buffer so the memory is released when the reader goes away.
///
/// `padding` bytes past the capacity are allocated too, so that eight bytes (`keyHash`) or a
/// block (`JSONBlockScan`) may be loaded from any position in the buffer: what lies past the data is masked. Every byte is
/// initialised (to zero until data is read into it), so those loads never read memory that
/// was only allocated.
final class JSONByteBuffer {
    private(set) var pointer: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    static let padding = JSONBlockScan.overread

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        pointer = .allocate(capacity: self.capacity + Self.padding)
        pointer.initialize(repeating: 0, count: self.capacity + Self.padding)
    }

    /// Doubles the capacity, keeping the first `count` bytes.
    func grow(keeping count: Int) {
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2 + Self.padding)
        bigger.initialize(from: pointer, count: count)
        (bigger + count).initialize(repeating: 0, count: capacity * 2 + Self.padding - count)
        pointer.deallocate()
        pointer = bigger
        capacity *= 2
    }

    deinit { pointer.deallocate() }
}

/// A byte-level JSON scanner over a window of a byte source.
///
/// The window keeps bytes from the current token's start (a string or number being materialised)
/// or the current byte; everything before is dropped when more input is read, so memory stays flat.
/// Positions are kept as byte offsets plus the current line's start; newlines only occur in
/// whitespace (a raw newline inside a string is an error), so lines are counted while skipping it.
struct JSONScanner {
    let storage: JSONByteBuffer
    /// `storage.pointer`, cached for the hot loops.
    var bytes: UnsafeMutablePointer<UInt8>
    var pos = 0
    var end = 0
    /// Absolute input offset of `bytes[0]`.
    var base = 0
    /// Index of the first byte of the token being materialised, or `Int.max` when none must be kept.
    var tokenStart = Int.max
    /// Index of the first byte of a whole value being kept (`skipValueKeepingBytes`), or `Int.max`.
    var pinnedStart = Int.max
    var line = 1
    /// Absolute offset of the current line's first byte.
    var lineStart = 0
    var atEndOfInput = false
    var bytesRead = 0
    var source: any JSONByteSource
    let options: JSONReaderOptions
    /// Finds the end of a string's plain run, in blocks unless `options.portableScan`.
    let blockScan: JSONBlockScan
    /// Reused by `skipValue` to remember which containers are open.
    var skipStack: [Bool] = []
    /// Reused by `parseSlots`: the arrays and objects it has open around the innermost one.
    var frameStack: [BuildFrame] = []
    /// Reused by `parseSlots`: the slot and element count of each container around the innermost one.
    var slotStack: [Int] = []
    /// Reused by `scanString`: the bytes of a string built with escapes or across windows (a
    /// new array for each, grown append by append, was a visible part of reading a timeline).
    var spareScratch: [UInt8] = []
    /// Reused by `parseValue`: the table it reads a value into before making its tree (made
    /// at its first use: most scanners never build a tree).
    var treeSlots: JSONSlots? = nil
    /// Reused by `parseSlots`: the keys of the open objects, innermost last, for duplicate checks.
    var keyLog = KeyLog()
    /// What `parseSlots` keeps of the value it is parsing.
    var projection = JSONProjection.all
    /// The shapes of the objects `parseSlots` read with `projection`, and whether an open object
    /// is learning one (one at a time).
    var shapes = KeyShapes(for: nil, nodeCount: 0)
    var isLearning = false

    init(source: any JSONByteSource, options: JSONReaderOptions) {
        self.source = source
        self.options = options
        blockScan = JSONBlockScan(portable: options.portableScan)
        storage = JSONByteBuffer(capacity: options.bufferSize)
        bytes = storage.pointer
    }

    /// Absolute offset of the current byte.
    var offset: Int { base + pos }

    /// The position of an offset on the current line (every reported position is on it).
    func position(at offset: Int) -> JSONPosition {
        JSONPosition(offset: offset, line: line, column: offset - lineStart + 1)
    }

    var position: JSONPosition { position(at: offset) }

    func error(_ kind: JSONError.Kind, _ message: String, at offset: Int, hint: String? = nil) -> JSONError {
        JSONError(kind: kind, message: message, position: position(at: offset), hint: hint)
    }

    func syntaxError(_ message: String) -> JSONError { error(.syntax, message, at: offset) }

    /// The byte at `pos` as a message shows it; reads ahead so a multi-byte character shows whole.
    mutating func describeCurrent() -> String {
        _ = try? ensure(4)
        return JSONMessage.describe(UnsafeBufferPointer(start: bytes + pos, count: min(4, end - pos)))
    }

    /// Reads more input after `end`, keeping bytes from `min(pos, tokenStart, pinnedStart)`. False at end of input.
    mutating func fill() throws(JSONError) -> Bool {
        if atEndOfInput { return false }
        let keep = min(pos, tokenStart, pinnedStart)
        if keep > 0 {
            if end > keep { memmove(bytes, bytes + keep, end - keep) }
            base += keep
            pos -= keep
            end -= keep
            if tokenStart != Int.max { tokenStart -= keep }
            if pinnedStart != Int.max { pinnedStart -= keep }
        }
        if end == storage.capacity {
            storage.grow(keeping: end)
            bytes = storage.pointer
        }
        let count: Int
        do {
            count = try source.read(into: UnsafeMutableRawBufferPointer(start: bytes + end, count: storage.capacity - end))
        } catch let failure as JSONError {
            throw error(.io, failure.message, at: base + end, hint: failure.hint)
        } catch {
            throw self.error(.io, JSONMessage.readFailed("\(error)"), at: base + end)
        }
        precondition(count >= 0 && count <= storage.capacity - end, "a JSONByteSource returned an impossible count")
        if count == 0 {
            atEndOfInput = true
            return false
        }
        end += count
        bytesRead += count
        return true
    }

    /// Makes `count` bytes from `pos` available; false when the input ends first.
    @inline(__always)
    mutating func ensure(_ count: Int) throws(JSONError) -> Bool {
        while end - pos < count {
            guard try fill() else { return false }
        }
        return true
    }

    /// The current byte, or nil at end of input.
    @inline(__always)
    mutating func peek() throws(JSONError) -> UInt8? {
        if pos < end { return bytes[pos] }
        return try fill() ? bytes[pos] : nil
    }

    /// The byte `ahead` places after `pos`, or nil when the input ends first.
    @inline(__always)
    mutating func peek(ahead: Int) throws(JSONError) -> UInt8? {
        if pos + ahead < end { return bytes[pos + ahead] }
        return try ensure(ahead + 1) ? bytes[pos + ahead] : nil
    }

    /// ws = *( %x20 / %x09 / %x0A / %x0D ). Returns the next other byte without consuming it, nil at end.
    @inline(__always)
    mutating func skipWhitespace() throws(JSONError) -> UInt8? {
        while true {
            while pos < end {
                let byte = bytes[pos]
                if byte > ASCII.space { return byte }
                switch byte {
                case ASCII.space, ASCII.tab, ASCII.carriageReturn:
                    pos += 1
                case ASCII.lineFeed:
                    pos += 1
                    line += 1
                    lineStart = base + pos
                default:
                    return byte
                }
            }
            guard try fill() else { return nil }
        }
    }

    /// Skips a UTF-8 byte order mark; refuses UTF-16 and UTF-32, recognised by NUL in the first two bytes.
    mutating func skipByteOrderMark() throws(JSONError) {
        _ = try ensure(4)
        let available = end - pos
        guard available >= 2 else { return }
        let b0 = bytes[pos], b1 = bytes[pos + 1]
        let b2 = available > 2 ? bytes[pos + 2] : 1, b3 = available > 3 ? bytes[pos + 3] : 1
        if b0 == 0 || b1 == 0 || (b0 == 0xFE && b1 == 0xFF) || (b0 == 0xFF && b1 == 0xFE) {
            let wide = (b0 == 0 && b1 == 0) || (b2 == 0 && b3 == 0)
            let name = wide ? "UTF-32" : "UTF-16"
            throw error(.encoding, JSONMessage.wideEncoding(name), at: offset, hint: JSONMessage.convertHint(name))
        }
        if available >= 3, b0 == 0xEF, b1 == 0xBB, b2 == 0xBF {
            pos += 3
            lineStart = offset
        }
    }
}

extension JSONScanner {
    /// Forgets a token whose scan an error cut short, so that its bytes are no longer kept.
    mutating func forgetPartialToken() {
        tokenStart = Int.max
        pinnedStart = Int.max
        skipStack.removeAll(keepingCapacity: true)
    }

    /// Checks the value at `pos` against the grammar, as `skipValue` does, and returns its bytes
    /// as written: for a value that is read more than once (a record with records inside it).
    mutating func skipValueKeepingBytes(depth: Int) throws(JSONError) -> [UInt8] {
        pinnedStart = pos
        defer { pinnedStart = Int.max }
        try skipValue(depth: depth)
        return Array(UnsafeBufferPointer(start: bytes + pinnedStart, count: pos - pinnedStart))
    }

    /// Whether only whitespace stands between the start of the current line and `position`
    /// (a position on the current line); false when those bytes are no longer in the window.
    func onlyWhitespaceBeforeOnItsLine(_ position: JSONPosition) -> Bool {
        guard position.line == line, lineStart >= base else { return false }
        var index = lineStart - base
        while index < position.offset - base {
            guard bytes[index] == ASCII.space || bytes[index] == ASCII.tab || bytes[index] == ASCII.carriageReturn else { return false }
            index += 1
        }
        return true
    }

    /// Moves past the next line feed (or to the end of the input), counting it.
    mutating func skipPastLineBreak() throws(JSONError) {
        while true {
            while pos < end {
                let byte = bytes[pos]
                pos += 1
                if byte == ASCII.lineFeed {
                    line += 1
                    lineStart = base + pos
                    return
                }
            }
            guard try fill() else { return }
        }
    }
}
