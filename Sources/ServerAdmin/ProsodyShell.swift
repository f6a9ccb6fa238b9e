import Glibc
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

    /// Runs `line` with /bin/sh -c, standard input at its end, standard output and error
    /// read together; its exit status (-1 when killed at the deadline) and output.
    private func run(_ line: String) throws(AdminError) -> (Int32, String) {
        let running: LibexecProgram.Running
        do { running = try LibexecProgram.spawn("/bin/sh", arguments: ["-c", line], errorsToOutput: true) } catch {
            throw .command(line, status: -1, output: error.message)
        }
        close(running.input)  // standard input at its end, as /dev/null
        close(running.errors)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        var timedOut = false
        while output.count < 1 << 20 {
            let left = deadline - .now
            if left <= .zero { timedOut = true; break }
            var pfd = pollfd(fd: running.output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(clamping: left.components.seconds * 1000 + 1))
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { continue }
            let n = buffer.withUnsafeMutableBytes { read(running.output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            output += buffer.prefix(n)
        }
        close(running.output)
        if timedOut { _ = kill(running.pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(running.pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        let text = String(decoding: output, as: UTF8.self)
        if timedOut { throw .command(line, status: -1, output: "no answer in \(timeoutSeconds) s") }
        return (exited ? (status >> 8) & 0xFF : -1, text)
    }
}
