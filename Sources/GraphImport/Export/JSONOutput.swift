/// A streaming JSON writer: values go into a buffer that is handed to `sink` whenever it fills,
/// so that an export of any size holds one buffer, not the document.
///
/// Commas are placed by the writer: each container remembers whether it has a member yet.
final class JSONOutput {
    private var buffer: [UInt8] = []
    private let sink: (UnsafeRawBufferPointer) -> Void
    /// For each open container, whether the next member needs a comma before it.
    private var needsComma: [Bool] = []
    /// Bytes kept before they are handed on.
    private static let capacity = 1 << 16

    init(sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.sink = sink
        buffer.reserveCapacity(Self.capacity + 1024)
    }

    /// Hands what is buffered to the sink.
    func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { sink($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    @inline(__always) private func flushIfFull() {
        if buffer.count >= Self.capacity && marks == 0 { flush() }
    }

    /// A place in the output that what follows can be read back from, or taken back to; the
    /// buffer is kept whole (not handed on) until every mark is kept or taken back.
    struct Mark {
        fileprivate let offset: Int
        fileprivate let needsComma: [Bool]
        fileprivate let afterKey: Bool
    }

    /// Marks that are neither kept nor taken back.
    private var marks = 0

    func mark() -> Mark {
        marks += 1
        return Mark(offset: buffer.count, needsComma: needsComma, afterKey: afterKey)
    }

    /// The value written since `mark` (without the comma that separated it from the one before).
    func value(since mark: Mark) -> ArraySlice<UInt8> {
        let written = buffer[mark.offset...]
        return written.first == UInt8(ascii: ",") ? written.dropFirst() : written
    }

    /// Keeps what was written since `mark`.
    func keep(_ mark: Mark) {
        marks -= 1
        flushIfFull()
    }

    /// Takes back what was written since `mark`, as if it never was.
    func takeBack(_ mark: Mark) {
        marks -= 1
        buffer.removeSubrange(mark.offset...)
        needsComma = mark.needsComma
        afterKey = mark.afterKey
    }

    /// Before a value in an array, or a key in an object: a comma unless it is the first.
    @inline(__always) private func separate() {
        guard let last = needsComma.indices.last else { return }
        if needsComma[last] { buffer.append(UInt8(ascii: ",")) } else { needsComma[last] = true }
    }

    func beginObject() {
        separateValue()
        buffer.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }

    func endObject() {
        needsComma.removeLast()
        buffer.append(UInt8(ascii: "}"))
        flushIfFull()
    }

    func beginArray() {
        separateValue()
        buffer.append(UInt8(ascii: "["))
        needsComma.append(false)
    }

    func endArray() {
        needsComma.removeLast()
        buffer.append(UInt8(ascii: "]"))
        flushIfFull()
    }

    /// A member's key; its value follows.
    func key(_ key: String) {
        separate()
        appendString(key)
        buffer.append(UInt8(ascii: ":"))
        afterKey = true
    }

    /// Set between a key and its value, so that the value does not take a comma.
    private var afterKey = false

    @inline(__always) private func separateValue() {
        if afterKey { afterKey = false } else { separate() }
    }

    func null() {
        separateValue()
        buffer.append(contentsOf: "null".utf8)
    }

    func bool(_ value: Bool) {
        separateValue()
        buffer.append(contentsOf: (value ? "true" : "false").utf8)
    }

    func integer(_ value: Int64) {
        separateValue()
        buffer.append(contentsOf: String(value).utf8)
    }

    /// A finite double in the shortest text that reads back as the same value.
    func double(_ value: Double) {
        separateValue()
        buffer.append(contentsOf: value.description.utf8)
    }

    func string(_ value: String) {
        separateValue()
        appendString(value)
    }

    /// JSON text written as it is (a stored JSON value, a number literal).
    func raw(_ text: String) {
        separateValue()
        buffer.append(contentsOf: text.utf8)
    }

    /// Members of a JSON object given as text (`"a":1,"b":2`), written into the open object.
    func rawMembers(_ text: Substring) {
        guard !text.isEmpty else { return }
        separate()
        buffer.append(contentsOf: text.utf8)
    }

    /// Ends a JSON Lines record.
    func newline() {
        buffer.append(UInt8(ascii: "\n"))
        flushIfFull()
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// A JSON string: `"` and `\` escaped, control characters as `\n`, `\t` … or `\u00XX`; every
    /// other byte as it is (UTF-8 passes through).
    private func appendString(_ value: String) {
        buffer.append(UInt8(ascii: "\""))
        var text = value
        text.withUTF8 { bytes in
            var start = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                start = index + 1
                buffer.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): buffer.append(byte)
                case 0x0A: buffer.append(UInt8(ascii: "n"))
                case 0x0D: buffer.append(UInt8(ascii: "r"))
                case 0x09: buffer.append(UInt8(ascii: "t"))
                case 0x08: buffer.append(UInt8(ascii: "b"))
                case 0x0C: buffer.append(UInt8(ascii: "f"))
                default:
                    buffer.append(contentsOf: "u00".utf8)
                    buffer.append(Self.hex[Int(byte >> 4)])
                    buffer.append(Self.hex[Int(byte & 15)])
                }
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        buffer.append(UInt8(ascii: "\""))
    }
}
