import Foundation
import ShellTestSupport
import XCTest
import XMPPTools

/// The C libraries listed in Sources/CLazyLibraries/symbols/ are loaded on first use, not at
/// start-up (docs/DESIGN-NOTES.md "Footprint"): the built programs do not need them, start
/// without them, call into them through the trampolines, and end with one line and status 70
/// when one cannot be loaded.
final class LazyLibrariesTests: XCTestCase {
    private static let root = DocsSupport.root

    /// The sonames of the lists, e.g. libexpat.so.1.
    private func lazySonames() throws -> [String] {
        let directory = Self.root.appendingPathComponent("Sources/CLazyLibraries/symbols")
        let lists = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".txt") }.sorted()
        let sonames = try lists.compactMap { list -> String? in
            let text = try String(contentsOf: directory.appendingPathComponent(list), encoding: .utf8)
            return text.split(separator: "\n").first { $0.hasPrefix("soname ") }.map { String($0.dropFirst("soname ".count)) }
        }
        XCTAssertEqual(sonames.count, lists.count, "every list names its soname")
        XCTAssertTrue(sonames.contains("libexpat.so.1") && sonames.contains("libssl.so.3"), "\(sonames)")
        return sonames
    }

    private func needed(_ binary: String) throws -> Set<String> {
        let dynamic = try Shell.run(try Shell.require("readelf"), ["-d", "-W", binary])
        XCTAssertEqual(dynamic.status, 0, dynamic.stderr)
        // "0x0000000000000001 (NEEDED)  Shared library: [libc.so.6]"
        return Set(dynamic.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
            guard let open = line.lastIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        })
    }

    private func program() throws -> String { try DocsSupport.binaries() + "/xmpp-tools" }

    func testTheProgramAndTheTestsDoNotNeedTheLazyLibraries() throws {
        let sonames = Set(try lazySonames())
        for binary in [try program(), "/proc/self/exe"] {
            let libraries = try needed(binary)
            XCTAssertTrue(libraries.contains("libc.so.6"), "\(binary): \(libraries.sorted())")
            XCTAssertEqual(libraries.intersection(sonames).sorted(), [], "\(binary) links lazy libraries the usual way")
        }
    }

    func testTheTrampolinesAreWhatTheListsGive() throws {
        let check = try Shell.run(Self.root.appendingPathComponent("scripts/lazy-libraries").path, ["--check"])
        XCTAssertEqual(check.status, 0, check.stderr)
    }

    /// The trampolines and the resolver, built into a small C program whose first call of
    /// liblcms2 passes a double, from 8 threads at once (Sources/CLazyLibraries/check/).
    func testTheFirstCallKeepsItsArgumentsInEveryThread() throws {
        let target = Self.root.appendingPathComponent("Sources/CLazyLibraries")
        let scratch = try Shell.temporaryDirectory("lazy-check")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let compiler = ProcessInfo.processInfo.environment["CC"] ?? "cc"
        let sources = ["check/first_call_check.c", "resolver.c", "unistring.c", "first_call.S",
                       "generated/trampolines.S", "generated/tables.c"].map { target.appendingPathComponent($0).path }
        let program = scratch.appendingPathComponent("check").path
        let build = try Shell.run(try Shell.require(compiler), ["-O1", "-I", target.path + "/include"] + sources + ["-lm", "-lpthread", "-o", program])
        XCTAssertEqual(build.status, 0, build.stderr)
        let run = try Shell.run(program, [])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix("ok:"), run.stdout)
    }

    /// A directory where each of `sonames` is an empty file: loading it fails ("file too short").
    private func brokenLibraries(_ sonames: [String]) throws -> URL {
        let directory = try Shell.temporaryDirectory("broken-libs")
        for soname in sonames { _ = FileManager.default.createFile(atPath: directory.appendingPathComponent(soname).path, contents: Data()) }
        return directory
    }

    func testStartUpLoadsNoLazyLibrary() throws {
        let broken = try brokenLibraries(try lazySonames())
        defer { try? FileManager.default.removeItem(at: broken) }
        let version = try Shell.run(try program(), ["xmpp-login", "--version"], environment: ["LD_LIBRARY_PATH": broken.path])
        XCTAssertEqual(version.status, 0, "a library loaded at start-up would fail here: \(version.stderr)")
        XCTAssertEqual(version.stderr, "")
    }

    private func image(_ name: String) -> String {
        Self.root.appendingPathComponent("Tests/PNGImageTests/Data/colour/" + name).path
    }

    /// JPEG with an ICC profile in, PNG out, its SHA-1 in the JSON: libjpeg, liblcms2, libpng16
    /// and libcrypto, each through its trampolines.
    func testAResizeCallsIntoFourLazyLibraries() throws {
        let scratch = try Shell.temporaryDirectory("lazy")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("out.png").path
        let resize = try Shell.run(try program(), ["xmpp-avatar", "--json", "resize", image("adobe-rgb.jpg"), "-o", out, "--size", "32"])
        XCTAssertEqual(resize.status, 0, resize.stderr)
        XCTAssertTrue(resize.stdout.contains("\"hash\""), resize.stdout)
        let png = try Data(contentsOf: URL(fileURLWithPath: out))
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
    }

    func testALibraryThatCannotBeLoadedEndsTheProgramWithOneLineAndStatus70() throws {
        let broken = try brokenLibraries(["libpng16.so.16"])
        defer { try? FileManager.default.removeItem(at: broken) }
        // Through a link, as installed: the message names the tool.
        let link = broken.appendingPathComponent("xmpp-avatar").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: try program())
        let resize = try Shell.run(link, ["resize", image("adobe-rgb.png"), "-o", broken.path + "/out.png"],
                                   environment: ["LD_LIBRARY_PATH": broken.path])
        XCTAssertEqual(resize.status, ExitCode.libraryMissing.rawValue, resize.stderr)
        XCTAssertEqual(resize.status, 70, "resolver.c's status is the documented one")
        XCTAssertTrue(resize.stderr.hasPrefix("xmpp-avatar: cannot load libpng16.so.16: "), resize.stderr)
        XCTAssertEqual(resize.stderr.filter { $0 == "\n" }.count, 1, resize.stderr)
    }
}
