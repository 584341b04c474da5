import GraphImportJSON

/// libFuzzer's entry point: one input through every way graphimport reads JSON, invariants checked.
///
/// Built only with `-sanitize=fuzzer` (libFuzzer supplies `main`); see Fuzz/README.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    JSONInvariants.check(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
