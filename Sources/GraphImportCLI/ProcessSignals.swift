import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Set by SIGINT, SIGTERM or SIGHUP: the import stops at the next record, rolls back, and exits 75.
private let interruptRequested = Atomic<Bool>(false)

/// The process-wide signal set-up of the command; called once by `main.swift`.
public enum ProcessSignals {
    /// Installs the handlers. A second signal of the same kind kills at once (the default action).
    /// SIGXFSZ is ignored so that a file-size limit (`ulimit -f`) makes writes fail with an
    /// I/O error that is reported (exit 74), instead of killing the process silently.
    public static func install() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { received in
                interruptRequested.store(true, ordering: .relaxed)
                signal(received, SIG_DFL)
            }
        }
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Whether a stop was requested.
    public static var interrupted: Bool { interruptRequested.load(ordering: .relaxed) }
}
