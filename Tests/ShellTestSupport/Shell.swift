// Test support only: a release build (make), which has no XCTest, compiles this module empty.
#if canImport(XCTest)
import Foundation
import XCTest

/// Runs the external programs the docs and completion tests need (bash, zsh, fish, mandoc, man,
/// make), and makes the scratch files they work on. Under CI=true a missing program fails the
/// test; elsewhere it skips it.
public enum Shell {
    /// The result of one run.
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Something required under CI=true is absent.
    public struct Missing: Error, CustomStringConvertible {
        public var what: String
        public var description: String { "\(what) is required under CI=true but is not available" }
    }

    /// Whether a test must fail rather than skip when something it needs is absent.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Skips the test, or fails it under CI=true.
    public static func missing(_ what: String) throws -> Never {
        if isCI { throw Missing(what: what) }
        throw XCTSkip("\(what) is not available")
    }

    /// The path of `program` on PATH; skips (or fails under CI=true) when it is absent.
    public static func require(_ program: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = String(directory) + "/" + program
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        try missing(program)
    }

    /// Runs `program` (looked up on PATH unless it holds a '/') with `arguments`, in `directory`,
    /// with `environment` replacing the given variables and `stdin` as its input (none: the null
    /// device). Output goes through files so that a large output cannot block the child.
    public static func run(
        _ program: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
        stdin: String? = nil
    ) throws -> Output {
        let scratch = try temporaryDirectory("run")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("stdout")
        let err = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program.contains("/") ? program : try require(program))
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        if let stdin {
            let input = scratch.appendingPathComponent("stdin")
            try Data(stdin.utf8).write(to: input)
            process.standardInput = try FileHandle(forReadingFrom: input)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    /// A new empty directory; the caller removes it.
    public static func temporaryDirectory(_ label: String = "tests") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("xt-\(label)-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `text` to `path` below `directory` (creating its folders), executable when asked;
    /// returns the file's path.
    @discardableResult
    public static func write(_ text: String, to path: String, in directory: URL, executable: Bool = false) throws -> String {
        let url = directory.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
        return url.path
    }

    /// Terminal output without overstrike: `X\bX` (bold) and `_\bX` (underline) become `X`.
    public static func plain(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\u{8}" { _ = scalars.popLast() } else { scalars.append(scalar) }
        }
        return String(scalars)
    }
}
#endif
