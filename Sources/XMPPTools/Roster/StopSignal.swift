#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// SIGINT and SIGTERM as a flag: the handler only stores the signal number in a lock-free
/// atomic (async-signal-safe); long-running commands check it between short waits.
enum StopSignal {
    private static let received = Atomic<Int32>(0)

    /// Installs the handlers (once per process is enough; calling again is harmless).
    static func install() {
        _ = received.load(ordering: .relaxed)  // initialise the global before any handler can run
        for signo in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signo in StopSignal.received.store(signo, ordering: .relaxed) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signo, &action, nil)
        }
    }

    /// The signal that asked the process to stop, if any.
    static var pending: Int32? {
        let value = received.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }
}
