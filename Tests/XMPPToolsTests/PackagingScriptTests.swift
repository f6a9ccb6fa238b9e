import Foundation
import ShellTestSupport
import XCTest

/// The packaging scripts on a machine that lacks a tool they run: they name the tool and the
/// Debian package that has it (exit status 1), never stop with bash's 127 and no message (issue
/// 41: `scripts/make-deb` without dpkg-dev, whose dpkg-shlibdeps ran with its errors hidden).
final class PackagingScriptTests: XCTestCase {
    func testMakeDebNamesAMissingTool() throws {
        let scratch = try Shell.temporaryDirectory("make-deb")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let path = try Self.path(without: ["dpkg-shlibdeps"], in: scratch)
        // A built program to package: any ELF executable will do for the steps before Depends.
        let built = scratch.appendingPathComponent("release")
        try FileManager.default.createDirectory(at: built, withIntermediateDirectories: true)
        for program in ["xmpp-tools", "xmpp-tools-slips"] {
            try FileManager.default.copyItem(atPath: "/bin/true", toPath: built.path + "/" + program)
        }
        let r = try Shell.run(
            DocsSupport.root.path + "/scripts/make-deb", ["--builddir", built.path, "--out", scratch.path, "--no-lintian"],
            environment: ["PATH": path, "HOME": scratch.path])
        XCTAssertEqual(r.status, 1, "stdout: \(r.stdout) stderr: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("dpkg-shlibdeps") && r.stderr.contains("dpkg-dev"), r.stderr)
        XCTAssertEqual(r.stdout, "", "no .deb path")
    }

    /// A PATH of links to every program in /usr/bin and /bin but `missing`.
    static func path(without missing: Set<String>, in scratch: URL) throws -> String {
        let bin = scratch.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for directory in ["/usr/bin", "/bin", "/usr/sbin", "/sbin"] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where !missing.contains(name) {
                let link = bin.path + "/" + name
                if FileManager.default.fileExists(atPath: link) { continue }
                try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory + "/" + name)
            }
        }
        return bin.path
    }
}
