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
enum Shell {
    static func run(_ argv: [String], stdin: Data? = nil, environment: [String: String]? = nil,
                    timeout: TimeInterval = 60) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
        if let environment { process.environment = environment }
        let outPipe = Pipe(), errPipe = Pipe(), inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        try process.run()
        if let stdin { inPipe.fileHandleForWriting.write(stdin) }
        try? inPipe.fileHandleForWriting.close()
        // Drain both pipes concurrently so a chatty child never blocks on a full pipe.
        final class Box: @unchecked Sendable { var data = Data() }
        let outBox = Box(), errBox = Box()
        let group = DispatchGroup()
        group.enter()
        Thread.detachNewThread { outBox.data = outPipe.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        Thread.detachNewThread { errBox.data = errPipe.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            _ = group.wait(timeout: .now() + 5)
            throw TestServerError.unusable("\(argv.joined(separator: " ")) timed out after \(timeout) s")
        }
        process.waitUntilExit()
        return RunResult(status: process.terminationStatus,
                         stdout: String(decoding: outBox.data, as: UTF8.self),
                         stderr: String(decoding: errBox.data, as: UTF8.self),
                         stdoutData: outBox.data)
    }
}
