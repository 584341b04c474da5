import Foundation
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
        // Once the import is over, the source is at its end: no read begins (`closeGate`).
        guard state.beginRead() else { return 0 }
        defer { state.endRead() }
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

    /// Guards the reads of the source: a failed import returns while its reading thread may still
    /// run, and its caller then closes the input's descriptor; a read begun after that would read
    /// whatever file a later `open` got the same number for (another import's feed, in a process
    /// that runs several), taking its bytes.
    private let gate = NSCondition()
    private var closed = false
    private var reading = false

    /// Whether a read may begin (it then runs until `endRead`): false once the gate is closed.
    func beginRead() -> Bool {
        gate.lock()
        defer { gate.unlock() }
        if closed { return false }
        reading = true
        return true
    }

    func endRead() {
        gate.lock()
        reading = false
        gate.broadcast()
        gate.unlock()
    }

    /// Lets no read of the source begin from now on. A read under way finishes on the file it
    /// began on, even if the descriptor is closed meanwhile; the gate waits a moment for one that
    /// is just beginning, and no longer: a read of a quiet pipe blocks until input comes, and a
    /// pipe (standard input) is not closed by the importer's caller.
    func closeGate() {
        gate.lock()
        closed = true
        let deadline = Date(timeIntervalSinceNow: 0.1)
        while reading && gate.wait(until: deadline) {}
        gate.unlock()
    }

    deinit { hash.close() }
}
