/// libFuzzer's entry point: one input as `.map` text, parsed, validated and compiled, invariants checked.
///
/// Built only with `-sanitize=fuzzer` (libFuzzer supplies `main`); see Fuzz/README.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    MapInvariants.check(String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self))
    return 0
}
