import Glibc
import TextFormats

/// JSON over HTTPS for the admin interfaces, through `xmpp-tools-http` (the suite's own program
/// that links libcurl, so that no tool maps libcurl's libraries at start-up): started on the
/// first request, one request and one answer a line through its pipes, one TLS connection kept
/// for the whole run. TLS is verified (the system's authorities, or `caFile`).
public final class HTTPClient {
    private let caFile: String?
    private let timeout: Int
    private var helper: (pid: pid_t, input: Int32, output: Int32)?
    private var pending: [UInt8] = []

    static let programName = "xmpp-tools-http"

    public init(caFile: String?, timeoutSeconds: Int) {
        self.caFile = caFile
        self.timeout = timeoutSeconds
    }

    deinit {
        guard let helper else { return }
        close(helper.input)  // end of requests: the helper ends
        close(helper.output)
        var status: Int32 = 0
        while waitpid(helper.pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// The body and status of a POST of `body` (JSON) to `url`.
    public func postJSON(_ url: String, body: JSONValue, basicAuth: (user: String, password: String)? = nil) throws(AdminError) -> (status: Int, body: [UInt8]) {
        var request: [(String, JSONValue)] = [("url", .string(url)), ("body", .string(body.compact)), ("timeout", .int(timeout))]
        if let caFile { request.append(("ca_file", .string(caFile))) }
        if let basicAuth { request += [("user", .string(basicAuth.user)), ("password", .string(basicAuth.password))] }
        let running = try start(url: url)
        guard LibexecProgram.writeAll(Array((JSONValue.object(request).compact + "\n").utf8), to: running.input) else {
            throw .unreachable(url: url, reason: "\(Self.programName) ended")
        }
        guard let line = readLine(from: running.output),
              case .object(let fields)? = try? JSONParser.parse(line) else {
            throw .unreachable(url: url, reason: "\(Self.programName) gave no answer")
        }
        if case .string(let message)? = fields.first(where: { $0.0 == "error" })?.1 { throw .unreachable(url: url, reason: message) }
        guard case .int(let status)? = fields.first(where: { $0.0 == "status" })?.1,
              case .string(let reply)? = fields.first(where: { $0.0 == "body" })?.1 else {
            throw .unreachable(url: url, reason: "\(Self.programName) gave an answer without status")
        }
        return (status, Array(reply.utf8))
    }

    /// The helper, started on first use (its standard error is the tool's own).
    private func start(url: String) throws(AdminError) -> (pid: pid_t, input: Int32, output: Int32) {
        if let helper { return helper }
        let running: LibexecProgram.Running
        do { running = try LibexecProgram.start(Self.programName) } catch { throw .unreachable(url: url, reason: error.message) }
        close(running.errors)
        helper = (running.pid, running.input, running.output)
        return (running.pid, running.input, running.output)
    }

    /// The next line from `fd` (without its newline); nil at its end.
    private func readLine(from fd: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                return line
            }
            guard pending.count < 64 << 20 else { return nil }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            pending += buffer[..<n]
        }
    }
}
