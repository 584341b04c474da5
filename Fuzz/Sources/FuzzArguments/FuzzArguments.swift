/// libFuzzer's entry point: one input as a command line, parsed and checked, invariants checked.
///
/// Built only with `-sanitize=fuzzer` (libFuzzer supplies `main`); see Fuzz/README.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    ArgumentInvariants.check(ArgumentInvariants.arguments(from: UnsafeBufferPointer(start: data, count: size)))
    return 0
}
