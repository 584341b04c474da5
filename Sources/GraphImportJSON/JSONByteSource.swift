#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where bytes come from. Reads up to `buffer.count` bytes, returns 0 at end of input.
public protocol JSONByteSource {
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Bytes read from an open file descriptor with read(2), retrying when a signal interrupts.
///
/// The descriptor is not closed: whoever opened it owns it.
public struct FileDescriptorSource: JSONByteSource {
    public let fileDescriptor: Int32
    /// Asked when a read is interrupted by a signal: true stops reading with an error.
    let isInterrupted: (@Sendable () -> Bool)?

    /// Reads from `fileDescriptor`, which stays open.
    public init(fileDescriptor: Int32, isInterrupted: (@Sendable () -> Bool)? = nil) {
        self.fileDescriptor = fileDescriptor
        self.isInterrupted = isInterrupted
    }

    /// The corresponding C function is read(2). Errors are thrown as `JSONError` of kind `.io`.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count = systemRead(fileDescriptor, base, buffer.count)
            if count >= 0 { return count }
            let code = errno
            if code == EINTR {
                // A signal arrived: go on reading unless the caller says the import should stop.
                if let isInterrupted, isInterrupted() {
                    throw JSONError(
                        kind: .io, message: JSONMessage.readFailed("interrupted"), position: JSONPosition(offset: 0, line: 1, column: 1))
                }
                continue
            }
            let reason = String(cString: strerror(code)) + " (errno \(code))"
            throw JSONError(
                kind: .io, message: JSONMessage.readFailed(reason), position: JSONPosition(offset: 0, line: 1, column: 1))
        }
    }
}

@inline(__always)
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
        return Darwin.read(fd, buffer, count)
    #elseif canImport(Musl)
        return Musl.read(fd, buffer, count)
    #else
        return Glibc.read(fd, buffer, count)
    #endif
}

/// Bytes held in memory, handed out in whatever sizes the reader asks for.
public struct BytesSource: JSONByteSource {
    private let bytes: [UInt8]
    private var offset = 0

    /// Hands out `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Copies the next bytes; 0 once all have been handed out.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}
