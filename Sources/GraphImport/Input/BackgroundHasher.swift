import Foundation

/// Computes the SHA-256 of the input on the machine's other core while the import parses and
/// writes, so that fingerprinting every run (for the history and `--if-changed`) adds no time.
///
/// Chunks are copied into a small queue; `feed` waits when the queue is full, so memory stays
/// bounded even if hashing falls behind.
final class BackgroundHasher: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [[UInt8]] = []
    /// Hashed chunks, emptied with their memory kept, for `feed` to copy the next reads into: a
    /// new array of 64 KiB for every read was the reading thread's only large allocation, and
    /// each made malloc consolidate its free lists.
    private var spares: [[UInt8]] = []
    private var finished = false
    private var digest: [UInt8]?
    /// How many chunks may wait; each is at most one read of the input (64 KiB by default).
    private static let queueLimit = 64
    /// How many hashed chunks are kept for reuse (the rest are freed): a few are in flight when
    /// hashing keeps up, and a full queue's worth kept would stay allocated for the rest of the run.
    private static let spareLimit = 8

    init() {
        Thread.detachNewThread { [self] in hashLoop() }
    }

    /// Queues a copy of `bytes` for hashing.
    func feed(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        condition.lock()
        var copy = spares.popLast() ?? []
        condition.unlock()
        copy.append(contentsOf: bytes)
        condition.lock()
        while chunks.count >= Self.queueLimit { condition.wait() }
        chunks.append(consume copy)
        condition.broadcast()
        condition.unlock()
    }

    /// The digest of everything fed, once the hashing thread has caught up.
    func finish() -> [UInt8] {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        condition.broadcast()
        while digest == nil { condition.wait() }
        return digest!
    }

    /// Lets the hashing thread end without waiting for its digest (an import that failed).
    func close() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    private func hashLoop() {
        var hasher = SHA256()
        var batch: [[UInt8]] = []
        while true {
            condition.lock()
            while chunks.isEmpty && !finished { condition.wait() }
            swap(&batch, &chunks)
            let done = finished && batch.isEmpty
            condition.broadcast()
            condition.unlock()
            if done { break }
            for index in batch.indices {
                hasher.update(batch[index])
                batch[index].removeAll(keepingCapacity: true)
            }
            condition.lock()
            while let chunk = batch.popLast() {
                if spares.count < Self.spareLimit { spares.append(chunk) }
            }
            condition.unlock()
        }
        let result = hasher.finalize()
        condition.lock()
        digest = result
        condition.broadcast()
        condition.unlock()
    }
}
