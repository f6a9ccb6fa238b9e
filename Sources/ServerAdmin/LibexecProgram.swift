import Glibc

/// A program of the suite's own that the tools run (never found through PATH): beside the
/// running program (a build directory) or in ../libexec/xmpp-tools/ from it (what make install
/// and the Debian package install). Programs that link large libraries live there, so that the
/// tools do not map them at every start (the slip printer's Pango and cairo, libcurl).
public enum LibexecProgram {
    /// A started program: its process and the tool's ends of its standard input, output and
    /// error (close-on-exec). The caller closes them and reaps the process.
    public struct Running: Sendable {
        public let pid: pid_t
        public let input: Int32
        public let output: Int32
        public let errors: Int32
    }

    /// Why it could not be started, for an error message.
    public struct Failure: Error, Sendable { public let message: String }

    /// The path of `name`, or nil when it is in neither place.
    public static func locate(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let bytes = buffer[0..<n].map { UInt8(bitPattern: $0) }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        let directory = String(decoding: bytes[..<slash], as: UTF8.self)
        return [directory + "/" + name, directory + "/../libexec/xmpp-tools/" + name].first { access($0, X_OK) == 0 }
    }

    /// Starts `name` with pipes for its standard input, output and error.
    public static func start(_ name: String) throws(Failure) -> Running {
        guard let path = locate(name) else {
            throw Failure(message: "\(name) is not installed beside this program (nor in ../libexec/xmpp-tools/): "
                          + "install xmpp-tools again (make install)")
        }
        return try spawn(path, arguments: [])
    }

    /// Starts the program at `path` with `arguments` and pipes for its standard input, output
    /// and error; with `errorsToOutput`, its standard error goes to the output pipe too (and
    /// `errors` is a pipe nothing writes to).
    static func spawn(_ path: String, arguments: [String], errorsToOutput: Bool = false) throws(Failure) -> Running {
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard pipe(&input) == 0, pipe(&output) == 0, pipe(&errors) == 0 else {
            throw Failure(message: "cannot start \(path): no pipe (\(String(cString: strerror(errno))))")
        }
        for end in input + output + errors { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorsToOutput ? output[1] : errors[1], 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, path, &actions, nil, argv, environ)
        for end in [input[0], output[1], errors[1]] { close(end) }
        guard started == 0 else {
            for end in [input[1], output[0], errors[0]] { close(end) }
            throw Failure(message: "cannot start \(path): \(String(cString: strerror(started)))")
        }
        return Running(pid: pid, input: input[1], output: output[0], errors: errors[0])
    }

    /// Writes all of `bytes` to `fd` (a started program's input), through short writes and
    /// EINTR; false when the program stopped reading (EPIPE: the tools ignore SIGPIPE).
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var rest = bytes[...]
        while !rest.isEmpty {
            let n = rest.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            rest = rest.dropFirst(n)
        }
        return true
    }
}
