import GraphImportJSON

/// Passes bytes through and notes whether any of them was more than whitespace,
/// so that an empty feed (a failed download) is told apart from malformed JSON.
struct ContentSniffingSource<Base: JSONByteSource>: JSONByteSource {
    var base: Base
    let seen: SniffedContent

    init(_ base: Base, seen: SniffedContent) {
        self.base = base
        self.seen = seen
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try base.read(into: buffer)
        if !seen.sawContent {
            for byte in buffer.prefix(count) where !(byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09) {
                seen.sawContent = true
                break
            }
        }
        return count
    }
}

/// Shared with the importer, which cannot reach into the reader's copy of the source.
final class SniffedContent {
    var sawContent = false
}
