/// Reads of a slot's bytes for callers in other modules, which cannot specialise the generic
/// `withBytes(at:)`: called unspecialised, its result and closure go through generic thunks for
/// every value read, on the reading thread's hot path (figures in Benchmarks/README.md).
extension JSONSlots {
    /// The bytes of a string, key or number slot as a String, made without checking them again.
    public func string(at slot: Int) -> String {
        withBytes(at: slot) { bytes in
            // Unchecked, and safe: the table's bytes are valid UTF-8 (the type's invariant). A
            // string's and a key's come from the scanner, which checks every multi-byte sequence
            // as RFC 3629 says (`skipUTF8Sequence`) and writes an escape as the UTF-8 of a scalar
            // (a lone surrogate is refused), or from a String (`init(_:projection:)`); a number's
            // literal is ASCII that the scanner's grammar took. Checking them again was most of
            // what making a String of a slot cost (docs/slot-table-plan.md).
            String(copying: UTF8Span(unchecked: Span(_unsafeElements: bytes)))
        }
    }

    /// `body`'s integer for the bytes of a string, key or number slot (a date parser's
    /// milliseconds, say), or nil: `withBytes(at:)` with a result that needs no generic thunk.
    public func withBytes(at slot: Int, reading body: (UnsafeBufferPointer<UInt8>) -> Int64?) -> Int64? {
        withBytes(at: slot, body)
    }
}
