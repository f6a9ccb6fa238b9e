import Foundation
import XCTest

/// Where the package, its checked-in docs and its built programs are, and how the docs tests
/// run external programs (bash, zsh, fish, mandoc, man, make).
enum DocsSupport {
    /// The package root, found from this file's path.
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// A checked-in file as text; nil when absent.
    static func checkedIn(_ path: String) -> String? {
        (try? Data(contentsOf: root.appendingPathComponent(path))).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The directory of the built tools: XT_BIN_DIR, or the one holding this test bundle.
    static func binaries() throws -> String {
        if let dir = ProcessInfo.processInfo.environment["XT_BIN_DIR"] { return dir }
        for start in CommandLine.arguments + [Bundle.main.bundlePath] {
            var url = URL(fileURLWithPath: start)
            for _ in 0..<4 {
                url.deleteLastPathComponent()
                if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("xmpp-login").path) {
                    return url.path
                }
            }
        }
        try missing("the built xmpp-login")
    }

    /// Whether a test must fail rather than skip when something it needs is absent.
    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Skips the test, or fails it under CI=true.
    static func missing(_ what: String) throws -> Never {
        if isCI { throw Missing(what: what) }
        throw XCTSkip("\(what) is not available")
    }

    /// Something required under CI=true is absent.
    struct Missing: Error, CustomStringConvertible {
        var what: String
        var description: String { "\(what) is required under CI=true but is not available" }
    }

    /// The path of `program` on PATH; skips (or fails under CI=true) when it is absent.
    static func require(_ program: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = String(directory) + "/" + program
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        try missing(program)
    }

    /// The result of one run.
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `program` (looked up on PATH unless it holds a '/') with `arguments`, in `directory`,
    /// with `environment` replacing the given variables; output goes through files so a large
    /// output cannot block the child.
    static func run(
        _ program: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
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
        process.standardInput = FileHandle.nullDevice
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
    static func temporaryDirectory(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("xt-docs-\(label)-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `text` to `path` below `directory`, executable when asked.
    static func write(_ text: String, to path: String, in directory: URL, executable: Bool = false) throws {
        let url = directory.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
    }

    /// Terminal output without overstrike: `X\bX` (bold) and `_\bX` (underline) become `X`.
    static func plain(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\u{8}" { _ = scalars.popLast() } else { scalars.append(scalar) }
        }
        return String(scalars)
    }
}
