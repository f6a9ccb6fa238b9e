import Glibc

/// A local admin command (prosodyctl, ejabberdctl, or what runs them: `sudo …`), run as a shell
/// runs a command line, with a deadline.
public enum AdminCommandLine {
    /// Runs `line` with /bin/sh -c, standard input at its end, standard output and error
    /// read together; its exit status (-1 when killed at the deadline) and output.
    public static func run(_ line: String, timeoutSeconds: Int) throws(AdminError) -> (Int32, String) {
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
