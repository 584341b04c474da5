import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Set by SIGINT, SIGTERM or SIGHUP: the import stops at the next record, rolls back, and exits 75.
private let interruptRequested = Atomic<Bool>(false)

/// The process-wide signal set-up of the command; called once by `main.swift`.
package enum ProcessSignals {
    /// Installs the handlers. A second signal of the same kind kills at once (the default action).
    /// SIGXFSZ is ignored so that a file-size limit (`ulimit -f`) makes writes fail with an
    /// I/O error that is reported (exit 74), instead of killing the process silently.
    /// The handlers are installed without SA_RESTART, so a read blocked on a quiet pipe returns
    /// EINTR and the import can stop; and the signals are unblocked, since a parent (a test runner,
    /// a supervisor) may have started graphimport with them blocked.
    package static func install() {
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { received in
                interruptRequested.store(true, ordering: .relaxed)
                signal(received, SIG_DFL)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signalNumber, &action, nil)
            sigaddset(&unblock, signalNumber)
        }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Whether a stop was requested.
    package static var interrupted: Bool { interruptRequested.load(ordering: .relaxed) }
}
