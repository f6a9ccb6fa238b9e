import Glibc

/// A credential helper, as msmtp's `passwordeval` and isync's `PassCmd`: a shell command such as
/// `pass show xmpp/bot` whose first line of output is the password. It runs through
/// `/bin/sh -c` with standard input from /dev/null and standard error left to the user (a
/// password manager's own messages belong there); the password is only ever in this process's
/// memory, never in a file, an argument list or the trace.
///
/// It runs in a process group of its own, and `--timeout` covers all of it, not only the
/// reading: at the deadline the whole group is stopped (SIGTERM, then SIGKILL), so neither the
/// command nor anything it started can hold the tool or outlive it; when the command ends,
/// whatever it left running in its group is stopped too (a daemon that detaches with setsid,
/// as gpg-agent does, has left the group and is not touched). Its output is read until the
/// command has ended, not until every child has closed the pipe. It does not see
/// `XMPP_PASSWORD`: that is the tool's password, not the helper's.
struct PasswordCommand: Sendable {
    /// The command as the user gave it.
    let command: String
    /// How long it may take before it is stopped.
    let timeout: Duration

    /// Most a password manager prints; more is not a password.
    static let outputLimit = 64 << 10

    /// Runs the command and returns the first line of its output. A failure, an empty first
    /// line or a timeout is an authentication failure (exit status 3) naming the command.
    func password() throws(ToolFailure) -> String {
        let deadline = ContinuousClock.now + timeout
        let run = try spawn()
        var (output, timedOut) = collect(run.stdout, deadline: deadline, pid: run.pid)
        close(run.stdout)
        if !timedOut { timedOut = !awaitExit(run.pid, deadline: deadline) }
        // The leader is a zombie until reaped, so its group id cannot have been reused.
        stopGroup(run.pid, leaderEnded: !timedOut)
        let status = reap(run.pid)
        if timedOut {
            throw failure("did not print a password within \(timeout.components.seconds) s (--timeout) and was stopped")
        }
        switch status {
        case .exited(0): break
        case .exited(let code): throw failure("failed (exit status \(code))")
        case .signalled(let signal): throw failure("was killed by signal \(signal)")
        }
        let line = Self.firstLine(output)
        guard !line.isEmpty else { throw failure("printed no password (its first line of output is empty)") }
        return line
    }

    /// The password in `output`: its first line, without a trailing CR.
    static func firstLine(_ output: [UInt8]) -> String {
        var line = output.prefix { $0 != 0x0A }
        if line.last == 0x0D { line = line.dropLast() }
        return String(decoding: line, as: UTF8.self)
    }

    private func failure(_ what: String) -> ToolFailure {
        ToolFailure(.auth, "the password command '\(command)' \(what)")
    }

    private enum Ending { case exited(Int32), signalled(Int32) }

    private func spawn() throws(ToolFailure) -> (pid: pid_t, stdout: Int32) {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw failure("could not be started: no pipe (\(errnoText()))") }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(command), nil]
        defer { for arg in argv { free(arg) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)  // a group of its own, led by the shell
        var environment = Self.environmentPassedOn().map { strdup($0) }
        environment.append(nil)
        defer { for entry in environment { free(entry) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environment)
        close(pipeEnds[1])
        guard result == 0 else {
            close(pipeEnds[0])
            throw failure("could not be started (\(String(cString: strerror(result))))")
        }
        _ = fcntl(pipeEnds[0], F_SETFL, fcntl(pipeEnds[0], F_GETFL) | O_NONBLOCK)
        return (pid, pipeEnds[0])
    }

    /// The environment the command runs with: ours without `XMPP_PASSWORD`.
    static func environmentPassedOn() -> [String] {
        var out: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if !text.hasPrefix("XMPP_PASSWORD=") { out.append(text) }
            entry += 1
        }
        return out
    }

    /// Reads until end of file, the limit or the deadline (true when it came first), or until
    /// the command has ended and what it wrote is read: a child it left behind may hold the
    /// pipe open for as long as it likes.
    private func collect(_ fd: Int32, deadline: ContinuousClock.Instant, pid: pid_t) -> ([UInt8], Bool) {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        defer { for i in buffer.indices { buffer[i] = 0 } }
        var leaderEnded = false
        while output.count < Self.outputLimit {
            let left = deadline - .now
            guard left > .zero else { return (output, true) }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            // Short waits while the command runs, to notice its end; then only what is buffered.
            let slice = leaderEnded ? 0 : min(50, max(1, Int32(clamping: left.components.seconds * 1000
                                                              + left.components.attoseconds / 1_000_000_000_000_000)))
            let ready = poll(&pfd, 1, slice)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 {
                if leaderEnded { break }
                leaderEnded = hasExited(pid)
                continue
            }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if n <= 0 { break }
            output += buffer.prefix(n)
        }
        return (output, false)
    }

    /// True once `pid` has ended; it is left a zombie (WNOWAIT) for `reap`.
    private func hasExited(_ pid: pid_t) -> Bool {
        // With WNOHANG and no change, Linux leaves the zeroed siginfo as it is (no SIGCHLD).
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0 {
            if errno != EINTR { return true }
        }
        return info.si_signo == SIGCHLD
    }

    /// Waits for the command to end until `deadline`; false if it did not.
    private func awaitExit(_ pid: pid_t, deadline: ContinuousClock.Instant) -> Bool {
        while !hasExited(pid) {
            if ContinuousClock.now >= deadline { return false }
            usleep(5_000)
        }
        return true
    }

    /// Stops the command's process group: SIGTERM, then SIGKILL for what is still there after a
    /// moment. With `leaderEnded`, only what the command left behind is in it.
    private func stopGroup(_ pid: pid_t, leaderEnded: Bool) {
        guard kill(-pid, SIGTERM) == 0 else { return }  // ESRCH: nothing left
        for _ in 0..<20 {
            usleep(10_000)
            if !groupHasLiveMembers(pid, leaderEnded: leaderEnded) { return }
        }
        kill(-pid, SIGKILL)
    }

    /// True while a process of group `pgid` other than a zombie leader can still receive signals.
    private func groupHasLiveMembers(_ pgid: pid_t, leaderEnded: Bool) -> Bool {
        if !leaderEnded && !hasExited(pgid) { return true }
        // The group holds only the zombie leader when no other process has it: /proc tells.
        guard let dir = opendir("/proc") else { return true }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let other = pid_t(name), other != pgid, getpgid(other) == pgid else { continue }
            return true
        }
        return false
    }

    private func reap(_ pid: pid_t) -> Ending {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return .exited(0) }
        }
        if status & 0x7F == 0 { return .exited((status >> 8) & 0xFF) }
        return .signalled(status & 0x7F)
    }

    private func errnoText() -> String { String(cString: strerror(errno)) }
}
