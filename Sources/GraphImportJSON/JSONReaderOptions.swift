/// How the input is framed: one JSON text, JSON Lines, or decided by what follows the first text.
public enum JSONInputFormat: Sendable, Equatable {
    /// One JSON text, unless a second text follows on a later line: then JSON Lines.
    case auto
    /// Exactly one JSON text; anything but whitespace after it is an error.
    case json
    /// One JSON text per line; blank lines are skipped. Texts must be separated by a line break;
    /// a text may itself span lines (whitespace inside it is whitespace), so concatenated
    /// pretty-printed documents read too.
    case jsonLines
}

/// Limits and checks for reading JSON; the defaults suit untrusted web-service payloads.
public struct JSONReaderOptions: Sendable {
    /// Containers may nest this deep; deeper input is refused (kind `.limit`) instead of exhausting memory.
    public var maxDepth: Int
    /// The longest string, in UTF-8 bytes as written, before the reader refuses it (kind `.limit`).
    public var maxStringBytes: Int
    /// Refuse an object that names a key twice, since which value wins is undefined (RFC 8259 section 4).
    public var rejectDuplicateKeys: Bool
    /// Bytes read from the source at a time; the buffer grows only for a string or number longer than this.
    public var bufferSize: Int
    /// Scan strings byte by byte (eight at a time) instead of in vector blocks: the same results
    /// more slowly, for tests and fuzzers that check the two ways agree.
    public var portableScan: Bool

    /// The defaults: depth 512, strings up to 256 MiB, duplicate keys refused, 64 KiB reads, blocks.
    public init(
        maxDepth: Int = 512, maxStringBytes: Int = 256 << 20, rejectDuplicateKeys: Bool = true,
        bufferSize: Int = 1 << 16, portableScan: Bool = false
    ) {
        self.maxDepth = maxDepth
        self.maxStringBytes = maxStringBytes
        self.rejectDuplicateKeys = rejectDuplicateKeys
        self.bufferSize = bufferSize
        self.portableScan = portableScan
    }
}
