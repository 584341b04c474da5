/// The keys of the objects `parseSlots` has open, for finding duplicate keys: each key's hash,
/// where its UTF-8 starts, and the UTF-8 itself, back to back.
///
/// Plain memory reused from record to record: this runs for every key of every record, and a
/// Swift array append costs a uniqueness check (and often a retain) each time. The memory is
/// freed with the last copy of the log (its `owner`). Copies share the memory until one of them
/// grows (the scanner never copies its log); growing takes new memory and frees the old only
/// when no other copy still points at it.
struct KeyLog {
    /// Frees the log's memory; holds the current buffers, which change only when they grow.
    private final class Owner {
        var bytes: UnsafeMutablePointer<UInt8>
        var hashes: UnsafeMutablePointer<UInt32>
        var starts: UnsafeMutablePointer<Int>

        init(bytes: UnsafeMutablePointer<UInt8>, hashes: UnsafeMutablePointer<UInt32>, starts: UnsafeMutablePointer<Int>) {
            self.bytes = bytes
            self.hashes = hashes
            self.starts = starts
        }

        deinit {
            bytes.deallocate()
            hashes.deallocate()
            starts.deallocate()
        }
    }

    private var owner: Owner
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
        bytes = .allocate(capacity: byteCapacity)
        hashes = .allocate(capacity: entryCapacity)
        starts = .allocate(capacity: entryCapacity)
        owner = Owner(bytes: bytes, hashes: hashes, starts: starts)
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
        bytes = bigger
        byteCapacity = capacity
        adopt()
    }

    private mutating func growEntries() {
        let capacity = entryCapacity * 2
        let biggerHashes = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        let biggerStarts = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
        biggerHashes.update(from: hashes, count: count)
        biggerStarts.update(from: starts, count: count)
        hashes = biggerHashes
        starts = biggerStarts
        entryCapacity = capacity
        adopt()
    }

    /// Makes the owner hold this log's current buffers after one grew: the old buffer is freed
    /// (by the owner) unless another copy of the log still uses it, which then keeps the old owner.
    private mutating func adopt() {
        guard isKnownUniquelyReferenced(&owner) else {
            let shared = owner
            // The other copy's owner keeps what it points at; whatever this copy did not replace
            // it now shares, so it takes copies of its own.
            if bytes == shared.bytes { bytes = Self.copy(bytes, count: byteCount, capacity: byteCapacity) }
            if hashes == shared.hashes { hashes = Self.copy(hashes, count: count, capacity: entryCapacity) }
            if starts == shared.starts { starts = Self.copy(starts, count: count, capacity: entryCapacity) }
            owner = Owner(bytes: bytes, hashes: hashes, starts: starts)
            return
        }
        if owner.bytes != bytes { owner.bytes.deallocate(); owner.bytes = bytes }
        if owner.hashes != hashes { owner.hashes.deallocate(); owner.hashes = hashes }
        if owner.starts != starts { owner.starts.deallocate(); owner.starts = starts }
    }

    private static func copy<Element>(_ buffer: UnsafeMutablePointer<Element>, count: Int, capacity: Int) -> UnsafeMutablePointer<Element> {
        let copy = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        copy.update(from: buffer, count: count)
        return copy
    }
}
