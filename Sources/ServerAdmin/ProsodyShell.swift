#if canImport(Glibc)
import Glibc
#endif
import TextFormats

/// Prosody's admin shell (`prosodyctl shell`, mod_admin_shell, on in Prosody 13's packaged
/// configuration), reached through the command that runs prosodyctl on the server's machine
/// (`prosodyctl`, or `sudo prosodyctl`, word-split as a shell splits it).
public struct ProsodyShell: Sendable {
    /// The command that runs prosodyctl.
    public let prosodyctl: String
    /// How long one shell command may take.
    public let timeoutSeconds: Int

    public init(prosodyctl: String, timeoutSeconds: Int) {
        self.prosodyctl = prosodyctl
        self.timeoutSeconds = timeoutSeconds
    }

    /// Reloads `module` on `host` (mod_groups reads its groups file when it loads): sessions stay
    /// connected. The shell answers "OK: Module reloaded on N host(s)"; 0 hosts means the module
    /// is not loaded there, which is an error naming the way to load it.
    public func reloadModule(_ module: String, host: String) throws(AdminError) {
        let words = ["shell", "module", "reload", module, host].map { ShellWord.quoted($0) ?? "''" }
        let line = prosodyctl + " " + words.joined(separator: " ")
        let (status, output) = try run(line)
        guard status == 0 else { throw .command(line, status: status, output: Self.lastLines(output)) }
        if output.contains("reloaded on 0 hosts") || !output.contains("Module reloaded on") {
            throw .command(line, status: status, output: "mod_\(module) is not loaded on \(host): add \"\(module)\" to its "
                           + "modules_enabled (and groups_file) and restart Prosody once; " + Self.lastLines(output))
        }
    }

    /// The last lines of `output`, for an error (prosodyctl prints banners about optional
    /// libraries before the answer).
    static func lastLines(_ output: String) -> String {
        output.split(separator: "\n").suffix(2).joined(separator: " / ")
    }

    /// Runs `line` with /bin/sh -c, standard input from /dev/null, standard output and error
    /// read together; its exit status (-1 when killed at the deadline) and output.
    private func run(_ line: String) throws(AdminError) -> (Int32, String) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .command(line, status: -1, output: "no pipe") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(line), nil]
        defer { for arg in argv { free(arg) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ)
        close(ends[1])
        guard started == 0 else {
            close(ends[0])
            throw .command(line, status: -1, output: String(cString: strerror(started)))
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        var timedOut = false
        while output.count < 1 << 20 {
            let left = deadline - .now
            if left <= .zero { timedOut = true; break }
            var pfd = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(clamping: left.components.seconds * 1000 + 1))
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { continue }
            let n = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            output += buffer.prefix(n)
        }
        close(ends[0])
        if timedOut { _ = kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        let text = String(decoding: output, as: UTF8.self)
        if timedOut { throw .command(line, status: -1, output: "no answer in \(timeoutSeconds) s") }
        return (exited ? (status >> 8) & 0xFF : -1, text)
    }
}
