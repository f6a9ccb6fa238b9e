import Glibc
import Handouts
import ServerAdmin

/// Runs the slip printer, `xmpp-tools-slips`: the request (which holds the passwords) through a
/// pipe on its standard input, the PDF back through one from its standard output. It is found
/// beside the running program (a build directory) or in ../libexec/xmpp-tools/ from it (what
/// make install and the Debian package install), never through PATH.
enum SlipPrinterProgram {
    static let name = "xmpp-tools-slips"

    /// The PDF of `request`.
    static func print(_ request: SlipRequest) throws(ToolFailure) -> [UInt8] {
        let running: LibexecProgram.Running
        do { running = try LibexecProgram.start(name) } catch { throw ToolFailure(.failed, error.message) }
        // The printer reads the whole request before it writes anything, so writing it all and
        // then reading cannot deadlock; SIGPIPE is ignored by the tools (a printer that died
        // early makes write fail with EPIPE, and its status says why).
        let written = LibexecProgram.writeAll(request.json, to: running.input)
        close(running.input)
        let pdf = readAll(running.output)
        let message = readAll(running.errors)
        close(running.output)
        close(running.errors)
        var status: Int32 = 0
        while waitpid(running.pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        guard exited && (status >> 8) & 0xFF == 0 && written else {
            let said = String(decoding: message, as: UTF8.self).split(separator: "\n").last.map(String.init)
            let how = exited ? "exit status \((status >> 8) & 0xFF)" : "signal \(status & 0x7F)"
            throw ToolFailure(.failed, (said ?? "\(name) failed") + " (\(how))")
        }
        return pdf
    }

    private static func readAll(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return bytes }
            bytes += buffer[0..<n]
        }
    }
}
