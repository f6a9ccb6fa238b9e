import Foundation
import XCTest

/// Where results go when standard output or `-o FILE` is not an ordinary file: a full disk is
/// an error, a reader that went away ends the program quietly, and devices, FIFOs and symlinks
/// named by -o stay what they are.
final class OutputEndToEndTests: XCTestCase {
    private var offline: OfflineHome?
    private var home: String { offline?.path ?? "/nonexistent" }
    private var image: String { offline?.image ?? "/nonexistent" }
    private var environment: [String: String] { offline?.environment ?? [:] }

    override func setUpWithError() throws { offline = try OfflineHome("output", imageSeed: 5) }

    override func tearDownWithError() throws { offline?.remove() }

    /// Runs `/bin/sh -c script tool args…` ($0 is the tool).
    private func sh(_ script: String, _ tool: String, _ args: [String]) throws -> RunResult {
        try Shell.run(["/bin/sh", "-c", script, Paths.binaries + "/" + tool] + args, environment: environment)
    }

    private func kind(_ path: String) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    }

    func testAFullStandardOutputIsExitStatusOne() throws {
        let cases: [(String, [String])] = [
            ("xmpp-avatar", ["resize", image, "-o", "-"]), ("xmpp-avatar", ["resize", image]),
            ("xmpp-login", ["--help"]), ("xmpp-vcard", ["--version"]), ("xmpp-roster", ["list", "--help"]),
            ("xmpp-register", ["batch", "--help"]),
        ]
        for (tool, args) in cases {
            let r = try sh("exec \"$0\" \"$@\" >/dev/full", tool, args)
            XCTAssertEqual(r.status, 1, "\(tool) \(args): \(r.stderr)")
            XCTAssertEqual(r.stderr, "\(tool): cannot write standard output: No space left on device\n", "\(tool) \(args)")
        }
    }

    func testAReaderThatWentAwayEndsTheProgramQuietlyBySIGPIPE() throws {
        // `true` has exited long before the tool writes: its write fails with EPIPE.
        let script = "(sleep 0.3; exec \"$0\" \"$@\") | true; exit \"${PIPESTATUS[0]}\""
        for (tool, args) in [("xmpp-avatar", ["resize", image]), ("xmpp-login", ["--help"])] {
            let r = try Shell.run(["/bin/bash", "-c", script, Paths.binaries + "/" + tool] + args, environment: environment)
            XCTAssertEqual(r.status, 128 + SIGPIPE, "\(tool) \(args): \(r.stderr)")
            XCTAssertEqual(r.stderr, "", "quietly, as other Unix programs")
        }
    }

    func testOutputIntoDevicesIsWrittenInPlace() throws {
        let full = home + "/full", null = home + "/null"
        for (path, minor) in [(full, "7"), (null, "3")] {
            let made = try Shell.run(["/usr/bin/mknod", path, "c", "1", minor])
            try XCTSkipIf(made.status != 0, "mknod needs root: \(made.stderr)")
        }
        let toFull = try sh("exec \"$0\" \"$@\"", "xmpp-avatar", ["resize", image, "-o", full])
        XCTAssertEqual(toFull.status, 1, toFull.stderr)
        XCTAssertEqual(toFull.stderr, "xmpp-avatar: cannot write \(full): No space left on device\n")
        XCTAssertEqual(kind(full), .typeCharacterSpecial, "the device node is still there")
        let toNull = try sh("exec \"$0\" \"$@\"", "xmpp-avatar", ["resize", image, "-o", null])
        XCTAssertEqual(toNull.status, 0, toNull.stderr)
        XCTAssertEqual(kind(null), .typeCharacterSpecial)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home).filter { $0.contains(".tmp.") }, [])
    }

    func testOutputIntoAFIFOReachesItsReader() throws {
        let fifo = home + "/fifo", copy = home + "/copy.png"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let r = try sh("cat \"$1\" > \"$2\" & \"$0\" resize \"$3\" -o \"$1\" && wait $!", "xmpp-avatar", [fifo, copy, image])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(TestPNG.size(try Data(contentsOf: URL(fileURLWithPath: copy))).map { [$0.0, $0.1] }, [100, 100])
        var st = stat()
        XCTAssertEqual(lstat(fifo, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "the FIFO is still a FIFO")
    }

    func testOutputThroughASymlinkReplacesItsTargetAndKeepsTheLink() throws {
        let link = home + "/link.png", target = home + "/target.png"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.png")
        for round in 0..<2 {  // first the link dangles, then its target exists
            let r = try sh("exec \"$0\" \"$@\"", "xmpp-avatar", ["resize", image, "-o", link, "--size", String(64 + round)])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "target.png", "the link stays")
            XCTAssertEqual(TestPNG.size(try Data(contentsOf: URL(fileURLWithPath: target))).map { $0.0 }, 64 + round)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home).filter { $0.contains(".tmp.") }, [])
    }

    func testMissingDirectoriesOfAnOutputFileAreNotCreated() throws {
        let path = home + "/no-such-dir/sub/out.png"
        let r = try sh("exec \"$0\" \"$@\"", "xmpp-avatar", ["resize", image, "-o", path])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("xmpp-avatar: cannot write \(path): "), r.stderr)
        XCTAssertTrue(r.stderr.contains("No such file or directory"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/no-such-dir"), "no directory was made")
        let dir = try sh("exec \"$0\" \"$@\"", "xmpp-avatar", ["resize", image, "-o", home])
        XCTAssertEqual(dir.status, 1, dir.stderr)
        XCTAssertEqual(dir.stderr, "xmpp-avatar: cannot write \(home): is a directory\n")
    }
}
