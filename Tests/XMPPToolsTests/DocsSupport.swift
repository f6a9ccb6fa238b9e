import Foundation
import ShellTestSupport
import XCTest

/// Where the package, its checked-in docs and its built programs are.
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
        try Shell.missing("the built xmpp-login")
    }
}
