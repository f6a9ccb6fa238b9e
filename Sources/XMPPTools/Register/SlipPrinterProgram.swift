#if canImport(Glibc)
import Glibc
#endif
import Handouts

/// Runs the slip printer, `xmpp-tools-slips`: the request (which holds the passwords) through a
/// pipe on its standard input, the PDF back through one from its standard output. It is found
/// beside the running program (a build directory) or in ../libexec/xmpp-tools/ from it (what
/// make install and the Debian package install), never through PATH.
enum SlipPrinterProgram {
    static let name = "xmpp-tools-slips"

    /// Where the printer is, seen from the running program; nil when it is in neither place.
    static func locate() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let executable = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = executable.lastIndex(of: "/") else { return nil }
        let directory = String(executable[..<slash])
        return [directory + "/" + name, directory + "/../libexec/xmpp-tools/" + name].first { access($0, X_OK) == 0 }
    }

    /// The PDF of `request`.
    static func print(_ request: SlipRequest) throws(ToolFailure) -> [UInt8] {
        guard let path = locate() else {
            throw ToolFailure(.failed, "the slip printer \(name) is not installed beside this program "
                              + "(nor in ../libexec/xmpp-tools/): install xmpp-tools again (make install)")
        }
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard pipe(&input) == 0, pipe(&output) == 0, pipe(&errors) == 0 else {
            throw ToolFailure(.failed, "cannot start \(name): no pipe (\(String(cString: strerror(errno))))")
        }
        for end in input + output + errors { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        defer { for arg in argv { free(arg) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, path, &actions, nil, argv, environ)
        for end in [input[0], output[1], errors[1]] { close(end) }
        guard started == 0 else {
            for end in [input[1], output[0], errors[0]] { close(end) }
            throw ToolFailure(.failed, "cannot start \(path): \(String(cString: strerror(started)))")
        }
        // The printer reads the whole request before it writes anything, so writing it all and
        // then reading cannot deadlock; SIGPIPE is ignored by the tools (a printer that died
        // early makes write fail with EPIPE, and its status says why).
        let request = request.json
        var offset = 0
        while offset < request.count {
            let n = request.withUnsafeBytes { write(input[1], $0.baseAddress! + offset, request.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            offset += n
        }
        close(input[1])
        let pdf = readAll(output[0])
        let message = readAll(errors[0])
        close(output[0])
        close(errors[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        guard exited && (status >> 8) & 0xFF == 0 && offset == request.count else {
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
