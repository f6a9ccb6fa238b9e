import Foundation
import XCTest

/// Runs the external programs some tests need: bash, zsh, fish, mandoc, man.
enum Shell {
    /// The result of one run.
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// A required program is absent under CI=true.
    struct Missing: Error, CustomStringConvertible {
        var program: String
        var description: String { "\(program) is required under CI=true but is not on PATH" }
    }

    /// The path of `program` on PATH. Skips the test when it is absent, unless CI is "true",
    /// where absence is a failure.
    static func require(_ program: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = String(directory) + "/" + program
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        if ProcessInfo.processInfo.environment["CI"] == "true" { throw Missing(program: program) }
        throw XCTSkip("\(program) is not installed")
    }

    /// Runs `program` with `arguments`, extra `environment` variables and `stdin`; output goes
    /// through files so that a large output cannot block the child.
    static func run(
        _ program: String, _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil
    ) throws -> Output {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("stdout")
        let err = directory.appendingPathComponent("stderr")
        let input = directory.appendingPathComponent("stdin")
        try Data((stdin ?? "").utf8).write(to: input)
        try Data().write(to: out)
        try Data().write(to: err)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try require(program))
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: try String(contentsOf: out, encoding: .utf8),
            stderr: try String(contentsOf: err, encoding: .utf8))
    }

    /// Terminal output without overstrike: `X\bX` (bold) and `_\bX` (underline) become `X`.
    static func plain(_ text: String) -> String {
        var scalars: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars {
            if scalar == "\u{8}" { _ = scalars.popLast() } else { scalars.append(scalar) }
        }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars)
        return String(out)
    }

    /// A new empty directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("args-tests-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `text` to `name` in `directory`, executable when asked; returns its path.
    @discardableResult
    static func write(_ text: String, to name: String, in directory: URL, executable: Bool = false) throws -> String {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
        return url.path
    }
}
