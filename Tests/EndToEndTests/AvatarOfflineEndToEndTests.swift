import Foundation
import XCTest

/// xmpp-avatar without a server: resize, bad images, and where binary output may go.
final class AvatarOfflineEndToEndTests: XCTestCase {
    private var offline: OfflineHome?
    private var home: String { offline?.path ?? "/nonexistent" }
    private var image: String { offline?.image ?? "/nonexistent" }

    override func setUpWithError() throws { offline = try OfflineHome("avatar", imageSeed: 3) }

    override func tearDownWithError() throws { offline?.remove() }

    /// Runs the tool with a private, empty configuration: no account, no session.
    private func avatar(_ args: [String], stdin: Data? = nil) throws -> RunResult {
        try Shell.run([Paths.binaries + "/xmpp-avatar"] + args, stdin: stdin, environment: offline?.environment ?? [:])
    }

    private func read(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func testResizeWritesASquarePNGWithoutAnAccount() throws {
        let r = try avatar(["resize", image, "-o", home + "/out.png"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "")
        let out = try read(home + "/out.png")
        XCTAssertEqual(TestPNG.size(out).map { [$0.0, $0.1] }, [100, 100])
        let attributes = try FileManager.default.attributesOfItem(atPath: home + "/out.png")
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber).map { $0.intValue & 0o600 }, 0o600)
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: home).contains { $0.contains(".tmp.") })

        // Same input, same bytes: the hash is stable, as `set` needs to be idempotent.
        let again = try avatar(["resize", image, "-o", home + "/again.png"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try read(home + "/again.png"), out)
    }

    func testResizeOptionsAndJSON() throws {
        let r = try avatar(["resize", image, "-o", home + "/pad.png", "--size", "64", "--fit", "pad", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
        XCTAssertEqual(doc.keys.sorted(), ["bytes", "file", "hash", "height", "type", "width"])
        let out = try read(home + "/pad.png")
        XCTAssertEqual(doc["hash"] as? String, try sha1Hex(out))
        XCTAssertEqual(doc["bytes"] as? Int, out.count)
        XCTAssertEqual(doc["width"] as? Int, 64)
        XCTAssertEqual(TestPNG.size(out).map { [$0.0, $0.1] }, [64, 64])
        let crop = try avatar(["resize", image, "-o", home + "/crop.png", "--size", "64"])
        XCTAssertEqual(crop.status, 0, crop.stderr)
        XCTAssertNotEqual(try read(home + "/crop.png"), out, "pad and crop differ on a wide image")
    }

    func testResizeBetweenPipes() throws {
        let r = try avatar(["resize", "-", "-o", "-"], stdin: try read(image))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(TestPNG.size(r.stdoutData).map { [$0.0, $0.1] }, [100, 100])
        let file = try avatar(["resize", image])
        XCTAssertEqual(file.stdoutData, r.stdoutData, "no -o means standard output")
    }

    func testBadImagesExitNineWithOneLine() throws {
        let png = try read(image)
        try png.prefix(png.count / 2).write(to: URL(fileURLWithPath: home + "/truncated.png"))
        try Data("hello, world".utf8).write(to: URL(fileURLWithPath: home + "/text.png"))
        let cases: [(String, String)] = [
            (home + "/truncated.png", "truncated"), (home + "/text.png", "not a PNG, JPEG or WebP image"),
            (home + "/missing.png", "missing.png"),
        ]
        for (path, words) in cases {
            let r = try avatar(["resize", path, "-o", home + "/x.png"])
            XCTAssertEqual(r.status, 9, "\(path): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("xmpp-avatar: ") && r.stderr.contains(words), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/x.png"))
        // `set` checks the image before it looks for an account or a server.
        let set = try avatar(["set", home + "/text.png", "-a", "nobody@localhost", "--server", "127.0.0.1:1"])
        XCTAssertEqual(set.status, 9, set.stderr)
    }

    /// An image over the size limits is refused with its name, its size and the limit it is over.
    func testOversizedImagesNameTheFileAndTheLimit() throws {
        let big = home + "/big.png", wide = home + "/wide-bomb.png"
        try TestPNG.declaring(width: 20_000, height: 20_000).write(to: URL(fileURLWithPath: big))
        try TestPNG.declaring(width: 40_000, height: 10).write(to: URL(fileURLWithPath: wide))
        let expected = [
            (["resize", big, "-o", home + "/x.png"], "xmpp-avatar: \(big): image of 20000×20000 pixels is over the limit of 100 megapixels\n"),
            (["resize", wide, "-o", home + "/x.png"], "xmpp-avatar: \(wide): image of 40000×10 pixels is over the limit of 30000 pixels a side\n"),
            (["set", big, "-a", "nobody@localhost"], "xmpp-avatar: \(big): image of 20000×20000 pixels is over the limit of 100 megapixels\n"),
        ]
        for (args, message) in expected {
            let r = try avatar(args)
            XCTAssertEqual(r.status, 9, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr, message)
        }
        let piped = try avatar(["resize", "-", "-o", home + "/x.png"], stdin: try read(big))
        XCTAssertEqual(piped.stderr, "xmpp-avatar: standard input: image of 20000×20000 pixels is over the limit of 100 megapixels\n")
        let text = home + "/text.png"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
        XCTAssertEqual(try avatar(["resize", text, "-o", home + "/x.png"]).stderr, "xmpp-avatar: \(text): not a PNG, JPEG or WebP image\n")
        // xmpp-vcard set --photo puts PNG and JPEG photos through the same pipeline.
        let vcard = try Shell.run([Paths.binaries + "/xmpp-vcard", "set", "--photo", big, "-a", "nobody@localhost"],
                                  environment: ["HOME": home, "XDG_CONFIG_HOME": home + "/config", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(vcard.status, 9, vcard.stderr)
        XCTAssertEqual(vcard.stderr, "xmpp-vcard: \(big): image of 20000×20000 pixels is over the limit of 100 megapixels\n")
    }

    func testUsageErrorsExitTwo() throws {
        for args in [["resize", image, "--size", "8"], ["resize", image, "--fit", "stretch"],
                     ["get", "--source", "ldap"], ["set", image, "--access", "roster"],
                     ["get", "bob", "--json"], ["resize", image, "--json"]] {
            let r = try avatar(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
        }
    }

    func testBinaryIsNeverWrittenToATerminal() throws {
        // script(1) gives the tool a pseudo-terminal as standard output.
        for args in [["resize", image], ["resize", image, "-o", "-"], ["get", "bob", "-a", "alice@localhost"]] {
            let command = ([Paths.binaries + "/xmpp-avatar"] + args).map { "'\($0)'" }.joined(separator: " ")
            let r = try Shell.run(["/usr/bin/script", "-qefc", command, "/dev/null"],
                                  environment: ["HOME": home, "XDG_CONFIG_HOME": home + "/config", "PATH": "/usr/bin:/bin"])
            XCTAssertEqual(r.status, 2, "\(args): \(r.stdout)")
            XCTAssertTrue(r.stdout.contains("refusing to write binary image data to a terminal"), r.stdout)
            XCTAssertTrue(r.stdout.contains("-o FILE"), r.stdout)
            XCTAssertFalse(r.stdout.contains("PNG"), "no image bytes reached the terminal")
        }
        // Nor is an image read from a terminal (it would wait for typing).
        let command = "'\(Paths.binaries)/xmpp-avatar' resize - -o '\(home)/tty.png'"
        let r = try Shell.run(["/usr/bin/script", "-qefc", command, "/dev/null"], environment: ["HOME": home, "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(r.status, 2, r.stdout)
        XCTAssertTrue(r.stdout.contains("standard input is a terminal"), r.stdout)
    }
}
