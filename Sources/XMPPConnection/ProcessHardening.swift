import CResolv
import Glibc

/// What a process holding passwords and keys does first: it makes no core dump (RLIMIT_CORE 0,
/// inherited by what it starts) and is not "dumpable" (PR_SET_DUMPABLE 0), so no crash leaves
/// a password on disk and no other process of the same user can attach to it or read its
/// memory through /proc. Root still can; nothing in user space stops root.
public enum ProcessHardening {
    /// Applies both; failures are ignored, as there is nothing better to do than go on. The
    /// soft limit is what stops a core file; the hard one is left as it is, so the process that
    /// started the tool (a test runner, a shell) is not changed for the rest of its life when
    /// the tool runs inside it.
    public static func forbidCoreDumps() {
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit) != 0 { limit.rlim_max = 0 }
        limit.rlim_cur = 0
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit)
        _ = xt_set_dumpable(0)
    }

    /// True when the process could dump core or be attached to (before `forbidCoreDumps`).
    public static var isDumpable: Bool { xt_get_dumpable() != 0 }

    /// The core-file size limit now in force.
    public static var coreLimit: UInt64 {
        var limit = rlimit()
        _ = getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit)
        return UInt64(limit.rlim_cur)
    }
}
