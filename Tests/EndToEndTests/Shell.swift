import Foundation

/// Where the package and its built binaries are.
enum Paths {
    /// The package root, found from this file's path.
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The directory holding the built tools: XT_BIN_DIR, or next to the test bundle, or .build/debug.
    static let binaries: String = {
        if let dir = ProcessInfo.processInfo.environment["XT_BIN_DIR"] { return dir }
        let fm = FileManager.default
        for arg in CommandLine.arguments + [Bundle.main.bundlePath] {
            var url = URL(fileURLWithPath: arg)
            for _ in 0..<4 {
                url.deleteLastPathComponent()
                if fm.isExecutableFile(atPath: url.appendingPathComponent("xmpp-login").path) { return url.path }
            }
        }
        return root + "/.build/debug"
    }()
}

/// The outcome of running a program.
struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var stdoutData: Data
}

/// Runs programs with a timeout, capturing their output.
///
/// Uses posix_spawn and waitpid directly: Foundation's Process left zombies unreaped (and its
/// pipes never reached EOF) when the child started a daemon that outlives it, which hung tests.
/// Output goes to temporary files for the same reason.
enum Shell {
    static func run(_ argv: [String], stdin: Data? = nil, environment: [String: String]? = nil,
                    timeout: TimeInterval = 60) throws -> RunResult {
        let fm = FileManager.default
        let base = NSTemporaryDirectory() + "xt-run-" + UUID().uuidString
        let outPath = base + ".out", errPath = base + ".err", inPath = base + ".in"
        fm.createFile(atPath: inPath, contents: stdin ?? Data())
        defer { for p in [outPath, errPath, inPath] { try? fm.removeItem(atPath: p) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = env.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) }; cEnv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, argv[0], &actions, nil, cArgs, cEnv)
        guard rc == 0 else { throw TestServerError.unusable("cannot run \(argv[0]): \(String(cString: strerror(rc)))") }

        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR { throw TestServerError.unusable("waitpid failed for \(argv[0])") }
            if Date() >= deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                throw TestServerError.unusable("\(argv.joined(separator: " ")) timed out after \(timeout) s")
            }
            usleep(2_000)
        }
        // WIFEXITED/WEXITSTATUS are macros: decode by hand.
        let exitCode: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let outData = fm.contents(atPath: outPath) ?? Data()
        let errData = fm.contents(atPath: errPath) ?? Data()
        return RunResult(status: exitCode,
                         stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self),
                         stdoutData: outData)
    }
}
