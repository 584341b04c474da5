import CLibFuzzer

/// The program's entry point: libFuzzer's driver, testing `fuzz`.
///
/// SwiftPM links an executable with `--defsym main=FuzzArguments_main` (so tests can link executables),
/// and `-parse-as-library` emits no such symbol; this is it.
@_cdecl("FuzzArguments_main")
func fuzzArgumentsMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzz(data!, size) }
}
