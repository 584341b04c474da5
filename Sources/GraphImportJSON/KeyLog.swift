/// The keys of the objects `parseValue` has open, for finding duplicate keys: each key's hash,
/// where its UTF-8 starts, and the UTF-8 itself, back to back.
///
/// Plain memory reused from record to record: this runs for every key of every record, and a
/// Swift array append costs a uniqueness check (and often a retain) each time. The memory is
/// freed with the last copy of the log (its `owner`).
struct KeyLog {
    /// Frees the log's memory; holds the current buffers, which change only when they grow.
    private final class Owner {
        var bytes: UnsafeMutablePointer<UInt8>
        var hashes: UnsafeMutablePointer<UInt32>
        var starts: UnsafeMutablePointer<Int>

        init(byteCapacity: Int, entryCapacity: Int) {
            bytes = .allocate(capacity: byteCapacity)
            hashes = .allocate(capacity: entryCapacity)
            starts = .allocate(capacity: entryCapacity)
        }

        deinit {
            bytes.deallocate()
            hashes.deallocate()
            starts.deallocate()
        }
    }

    private let owner: Owner
    private var bytes: UnsafeMutablePointer<UInt8>
    private var hashes: UnsafeMutablePointer<UInt32>
    private var starts: UnsafeMutablePointer<Int>
    private var byteCapacity: Int
    private var entryCapacity: Int
    /// Bytes of keys held.
    private(set) var byteCount = 0
    /// Keys recorded (hash and start).
    private(set) var count = 0

    init(byteCapacity: Int = 4096, entryCapacity: Int = 256) {
        owner = Owner(byteCapacity: byteCapacity, entryCapacity: entryCapacity)
        bytes = owner.bytes
        hashes = owner.hashes
        starts = owner.starts
        self.byteCapacity = byteCapacity
        self.entryCapacity = entryCapacity
    }

    /// Appends a key's UTF-8; returns where it starts.
    @inline(__always)
    mutating func appendBytes(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        if byteCount + key.count > byteCapacity { growBytes(toFit: byteCount + key.count) }
        let start = byteCount
        if let base = key.baseAddress, key.count > 0 { (bytes + start).update(from: base, count: key.count) }
        byteCount += key.count
        return start
    }

    /// Records the key whose bytes were appended at `start`.
    @inline(__always)
    mutating func record(hash: UInt32, start: Int) {
        if count == entryCapacity { growEntries() }
        hashes[count] = hash
        starts[count] = start
        count += 1
    }

    func hash(at index: Int) -> UInt32 { hashes[index] }

    /// The bytes of recorded key `index`, which end where the next recorded key starts, or at
    /// `end` for the last one.
    func key(at index: Int, end: Int) -> UnsafeBufferPointer<UInt8> {
        let start = starts[index]
        let stop = index + 1 < count ? starts[index + 1] : end
        return UnsafeBufferPointer(start: bytes + start, count: stop - start)
    }

    /// The bytes from `start` to the end: the key appended last.
    func bytes(from start: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes + start, count: byteCount - start)
    }

    /// Drops the keys recorded from `count` on and the bytes from `byteCount` on (an object closed).
    mutating func truncate(count: Int, byteCount: Int) {
        self.count = min(self.count, count)
        self.byteCount = min(self.byteCount, byteCount)
    }

    private mutating func growBytes(toFit needed: Int) {
        var capacity = byteCapacity * 2
        while capacity < needed { capacity *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        bigger.update(from: bytes, count: byteCount)
        bytes.deallocate()
        bytes = bigger
        owner.bytes = bigger
        byteCapacity = capacity
    }

    private mutating func growEntries() {
        let capacity = entryCapacity * 2
        let biggerHashes = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        let biggerStarts = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
        biggerHashes.update(from: hashes, count: count)
        biggerStarts.update(from: starts, count: count)
        hashes.deallocate()
        starts.deallocate()
        hashes = biggerHashes
        starts = biggerStarts
        owner.hashes = biggerHashes
        owner.starts = biggerStarts
        entryCapacity = capacity
    }
}
