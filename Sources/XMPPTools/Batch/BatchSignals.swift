#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C and SIGTERM during a batch: the first asks the engines to stop sending, let the
/// requests in flight answer, record everything and write the report; a second one kills the
/// process at once (the journal is safe either way).
enum BatchSignals {
    // Written only by the signal handler, read by the loop: a word-sized flag, as sig_atomic_t.
    nonisolated(unsafe) private static var flag: Int32 = 0

    /// True once SIGINT or SIGTERM arrived.
    static var interrupted: Bool { flag != 0 }

    /// Installs the handlers.
    static func install() {
        let handler: @convention(c) (Int32) -> Void = { signo in
            BatchSignals.flag = signo
            signal(signo, SIG_DFL)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
    }
}
