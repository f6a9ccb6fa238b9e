import Foundation
import ShellTestSupport
import XCTest
import XMPPTools

/// `make install DESTDIR=… PREFIX=/usr` puts the programs, man pages and completions in the
/// standard places with the right modes, `man` finds the pages there, and `make uninstall`
/// removes every file again. It installs programs that are already built (a release build in
/// .build/release when there is one, else the build these tests run from), so it takes a second.
final class DocsInstallTests: XCTestCase {
    /// Linked with full RELRO (`-z relro -z now`, Debian's hardening LDFLAGS) unless the packager's
    /// LDFLAGS say otherwise: without it lintian warns hardening-no-relro on Debian 13 (issue 41).
    func testMakeBuildsReleaseWithTheStaticStandardLibrary() throws {
        let plan = try make(["-n", "build", "SWIFT=swift", "SWIFTFLAGS="])
        XCTAssertEqual(plan.stdout, "swift build  -c release --static-swift-stdlib "
                       + "-Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now\n")
        let own = try make(["-n", "build", "SWIFT=swift", "SWIFTFLAGS=", "LDFLAGS=-Wl,-z,relro -Wl,--as-needed"])
        XCTAssertEqual(own.stdout, "swift build  -c release --static-swift-stdlib "
                       + "-Xlinker -z -Xlinker relro -Xlinker --as-needed\n")
    }

    func testInstallAndUninstall() throws {
        let binaries = try programs()
        let destination = try Shell.temporaryDirectory("install")
        defer { try? FileManager.default.removeItem(at: destination) }
        let variables = ["DESTDIR=" + destination.path, "PREFIX=/usr", "BUILDDIR=" + binaries]
        let install = try make(["install"] + variables)
        XCTAssertEqual(install.status, 0, install.stderr)

        var expected: [String: Int] = ["usr/share/man/man7/xmpp-tools.7": 0o644,
                                       "usr/share/man/man7/xmpp-tools-provisioning.7": 0o644]
        expected["usr/bin/xmpp-tools"] = 0o755  // the one program; each tool's name is a link to it
        expected["usr/libexec/xmpp-tools/xmpp-tools-slips"] = 0o755  // xmpp-register handout's slip printer
        expected["usr/libexec/xmpp-tools/xmpp-tools-http"] = 0o755  // shared-groups --apply's HTTPS (libcurl)
        for spec in AllSpecs.tools {
            expected["usr/share/man/man1/\(spec.name).1"] = 0o644
            expected["usr/share/bash-completion/completions/" + spec.name] = 0o644
            expected["usr/share/zsh/site-functions/_" + spec.name] = 0o644
            expected["usr/share/fish/vendor_completions.d/\(spec.name).fish"] = 0o644
        }
        XCTAssertEqual(try installedFiles(destination), expected)
        for file in Documentation.files() where file.path.hasPrefix("man/") {
            let installed = try String(contentsOf: destination.appendingPathComponent(
                "usr/share/man/man\(file.path.suffix(1))/" + file.path.dropFirst(4)), encoding: .utf8)
            XCTAssertEqual(installed, file.contents, file.path)
        }

        // man finds the pages by name under the installed tree, and the programs run.
        let manpath = destination.path + "/usr/share/man"
        for (name, section) in AllSpecs.tools.map({ ($0.name, "1") }) + [("xmpp-tools", "7")] {
            let page = try Shell.run(
                "man", ["-M", manpath, section, name], environment: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "100"])
            XCTAssertEqual(page.status, 0, "man \(section) \(name): \(page.stderr)")
            XCTAssertTrue(Self.spacesCollapsed(Shell.plain(page.stdout)).contains("\(name) — "), "man \(section) \(name)")
        }
        for spec in AllSpecs.tools {
            XCTAssertEqual(try? FileManager.default.destinationOfSymbolicLink(atPath: destination.path + "/usr/bin/" + spec.name),
                           "xmpp-tools", "\(spec.name) is a relative link to the one program")
            let help = try Shell.run(destination.path + "/usr/bin/" + spec.name, ["--help"])
            XCTAssertEqual(help.status, 0, spec.name)
            XCTAssertTrue(help.stdout.hasPrefix("Usage: \(spec.name) "), spec.name)
        }

        // The installed xmpp-register finds its slip printer in ../libexec/xmpp-tools.
        let report = destination.path + "/report.csv"
        try Data("line,jid,status,error,profile,password,note\r\n2,a@school.example,created,,,Pw7x,\r\n".utf8)
            .write(to: URL(fileURLWithPath: report))
        XCTAssertEqual(chmod(report, 0o600), 0)
        XCTAssertEqual(chmod(destination.path, 0o700), 0)
        let handout = try Shell.run(destination.path + "/usr/bin/xmpp-register", ["handout", report, "-o", destination.path + "/s.pdf"])
        XCTAssertEqual(handout.status, 0, handout.stderr)
        for file in [report, destination.path + "/s.pdf"] { try FileManager.default.removeItem(atPath: file) }
        // And its HTTPS program: an answer (a refused connection) from it, not "not installed".
        let csv = destination.path + "/g.csv"
        try Data("username,groups,contacts\na,G,G\nb,G,G\n".utf8).write(to: URL(fileURLWithPath: csv))
        let apply = try Shell.run(destination.path + "/usr/bin/xmpp-register",
                                  ["shared-groups", csv, "--domain", "localhost", "--for", "ejabberd", "--apply", "--api", "https://127.0.0.1:1/api"])
        XCTAssertEqual(apply.status, 6, apply.stderr)
        XCTAssertTrue(apply.stderr.contains("cannot reach the server's admin API at https://127.0.0.1:1/api"), apply.stderr)
        try FileManager.default.removeItem(atPath: csv)

        let uninstall = try make(["uninstall"] + variables)
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        XCTAssertEqual(try installedFiles(destination), [:])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: destination.path + "/usr/bin"), [], "no link is left")
    }

    /// `text` with every run of spaces as one space: groff 1.23 (Debian 13) justifies a NAME
    /// line that wraps, so "xmpp-register — create…" may be set as "xmpp-register  —  create…".
    static func spacesCollapsed(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// A release build when one exists, else the programs these tests were built with.
    private func programs() throws -> String {
        for candidate in [
            ProcessInfo.processInfo.environment["XT_RELEASE_DIR"], DocsSupport.root.path + "/.build/release",
        ] {
            if let candidate, FileManager.default.isExecutableFile(atPath: candidate + "/xmpp-tools") { return candidate }
        }
        return try DocsSupport.binaries()
    }

    private func make(_ arguments: [String]) throws -> Shell.Output {
        try Shell.run("make", ["--no-print-directory", "-C", DocsSupport.root.path] + arguments)
    }

    /// Every regular file below `directory` and its permission bits.
    private func installedFiles(_ directory: URL) throws -> [String: Int] {
        var files: [String: Int] = [:]
        for entry in try FileManager.default.subpathsOfDirectory(atPath: directory.path) {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.path + "/" + entry)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            files[entry] = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        return files
    }
}
