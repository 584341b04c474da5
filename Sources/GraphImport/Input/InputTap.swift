import GraphImportJSON
import Synchronization

/// Passes the input's bytes through to the reader, hashing them (SHA-256, for the run history
/// and `--if-changed`) and noting whether any was more than whitespace, so that an empty feed
/// (a failed download) is told apart from malformed JSON.
struct InputTap<Base: JSONByteSource>: JSONByteSource {
    var base: Base
    let state: InputTapState

    init(_ base: Base, state: InputTapState) {
        self.base = base
        self.state = state
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try base.read(into: buffer)
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[..<count])
        state.hash.feed(bytes)
        state.bytes.add(count, ordering: .relaxed)
        if !state.sawContent {
            for byte in bytes where !(byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09) {
                state.content.store(true, ordering: .relaxed)
                break
            }
        }
        return count
    }
}

/// What the tap learned, shared with the importer (the reader owns its copy of the source).
final class InputTapState {
    let hash = BackgroundHasher()
    /// Written by the reading thread, read by the importing one (also after a failure, while the
    /// reading thread may still run): atomic.
    let bytes = Atomic<Int>(0)
    let content = Atomic<Bool>(false)

    var byteCount: Int { bytes.load(ordering: .relaxed) }
    var sawContent: Bool { content.load(ordering: .relaxed) }

    deinit { hash.close() }
}
