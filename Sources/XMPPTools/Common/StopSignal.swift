import Glibc
import Synchronization

/// SIGINT and SIGTERM as a flag: the handler only stores the signal number in a lock-free
/// atomic (async-signal-safe); long-running commands check it between short waits, from any
/// thread.
enum StopSignal {
    private static let received = Atomic<Int32>(0)

    /// Installs the handlers (calling again is harmless). With `secondSignalKills`, the first
    /// signal asks to stop and a second one ends the process at once (`xmpp-register batch`:
    /// its journal is safe either way).
    static func install(secondSignalKills: Bool = false) {
        _ = received.load(ordering: .relaxed)  // initialise the global before any handler can run
        for signo in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signo in StopSignal.received.store(signo, ordering: .relaxed) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = secondSignalKills ? Int32(truncatingIfNeeded: SA_RESETHAND) : 0  // 0x80000000
            sigaction(signo, &action, nil)
        }
    }

    /// The signal that asked the process to stop, if any.
    static var pending: Int32? {
        let value = received.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    /// True once SIGINT or SIGTERM arrived, or standard output can no longer be written (its
    /// reader went away, the disk is full): what is left to do would report to no one.
    static var stopRequested: Bool { pending != nil || Output.stdoutFailure != nil }
}
