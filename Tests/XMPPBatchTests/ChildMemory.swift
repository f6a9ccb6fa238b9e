import Foundation
import Glibc

/// What the memory tests measure in a child process (this test binary run again with one test
/// and its environment): a process's peak is for its whole life, and this test process has
/// peaked at whatever earlier tests held.
///
/// The child's peak is its own address space's high-water mark (`VmHWM`), not `getrusage`'s
/// `ru_maxrss`: Linux carries the peak of the address space an `execve` replaces into the new
/// program's `ru_maxrss`, and a child started by `posix_spawn` (vfork) replaces its parent's, so
/// `ru_maxrss` began at this test process's own peak. The parent raises its own peak past the
/// ceilings before it starts the child (`touchAndFree`), so a measure that counted it fails
/// every time, not by test order.
enum ChildMemory {
    /// Runs this test binary with only `test` (`Class/method`) and `environment` added; its exit status.
    static func run(test: String, environment extra: [String: String]) throws -> Int32 {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = [test]
        var environment = ProcessInfo.processInfo.environment.merging(extra) { _, new in new }
        // Under AddressSanitizer freed memory is kept in quarantine (256 MB by default), which
        // would count as growth: the child frees at once.
        environment["ASAN_OPTIONS"] = (environment["ASAN_OPTIONS"].map { $0 + ":" } ?? "")
            + "quarantine_size_mb=0:thread_local_quarantine_size_kb=0"
        child.environment = environment
        child.standardOutput = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        return child.terminationStatus
    }

    /// Whether this process runs with AddressSanitizer's runtime (whose allocator keeps what is
    /// freed for itself, so its RSS says nothing of what the code holds).
    static var underAddressSanitizer: Bool { dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil }

    /// Makes `bytes` resident, then frees them: this process's peak is at least that.
    static func touchAndFree(bytes: Int) {
        let ballast = [UInt8](repeating: 1, count: bytes)
        precondition(ballast[bytes / 2] == 1)
    }

    /// This process's resident memory now, in KiB (`/proc/self/statm`).
    static func residentKiB() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }

    /// The peak resident memory of this process's own address space, in KiB (`VmHWM` in
    /// `/proc/self/status`): what this program touched, without the peak of the parent whose
    /// address space `execve` replaced, which `getrusage`'s `ru_maxrss` includes.
    static func ownPeakKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return Int.max }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kib = Int(fields[1]) { return kib }
        }
        return Int.max
    }

    /// This process's peak resident memory over its life (and its exec'd parents'), in KiB
    /// (`getrusage`'s `ru_maxrss`).
    static func processPeakKiB() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss
    }
}
