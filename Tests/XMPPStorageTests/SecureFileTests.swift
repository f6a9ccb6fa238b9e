import Foundation
import XCTest
import XMPPStorage

/// `SecureFile.write` by what is at the path: regular files replaced atomically, devices and
/// FIFOs written in place, symlinks followed, missing directories never created.
final class SecureFileTests: XCTestCase {
    var root: String!

    override func setUpWithError() throws { root = try scratchDirectory("securefile") }

    private func lstatMode(_ path: String) -> mode_t? {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode : nil
    }

    private func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    /// glibc's `makedev` for small numbers (a macro Swift cannot call).
    private static func device(_ major: UInt, _ minor: UInt) -> dev_t { dev_t((major << 8) | minor) }

    /// Everything a reader of `fifo` gets (FileManager reads a FIFO as empty: its size is 0).
    private static func drain(_ fifo: String) -> [UInt8] {
        let fd = open(fifo, O_RDONLY)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var out: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { return out }
            out += buffer.prefix(n)
        }
    }

    private var leftovers: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter { $0.contains(".tmp.") }
    }

    func testRegularFilesAreReplacedPrivately() throws {
        let path = root + "/file"
        try SecureFile.write([1, 2, 3], to: path)
        try SecureFile.write([4], to: path)
        XCTAssertEqual(contents(path), [4])
        XCTAssertEqual(lstatMode(path).map { $0 & 0o7777 }, 0o600)
        XCTAssertEqual(leftovers, [])
    }

    func testMissingDirectoriesAreAnErrorNamingThePath() throws {
        let path = root + "/missing/deeper/file"
        XCTAssertThrowsError(try SecureFile.write([1], to: path)) { error in
            guard case .io(let p, let reason)? = error as? StorageError else { return XCTFail("\(error)") }
            XCTAssertEqual(p, path)
            XCTAssertTrue(reason.contains("No such file or directory"), reason)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/missing"))
    }

    func testADirectoryIsNotReplaced() throws {
        XCTAssertThrowsError(try SecureFile.write([1], to: root)) { error in
            XCTAssertEqual(error as? StorageError, .io(path: self.root, reason: "is a directory"))
        }
    }

    func testAFIFOIsWrittenInPlace() throws {
        let fifo = root + "/fifo"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let received = expectation(description: "reader got the bytes")
        nonisolated(unsafe) var got: [UInt8] = []
        DispatchQueue.global().async {
            got = Self.drain(fifo)
            received.fulfill()
        }
        try SecureFile.write([7, 8, 9], to: fifo, mode: .private)
        wait(for: [received], timeout: 10)
        XCTAssertEqual(got, [7, 8, 9])
        XCTAssertEqual(lstatMode(fifo).map { $0 & S_IFMT }, S_IFIFO)
        XCTAssertEqual(lstatMode(fifo).map { $0 & 0o777 }, 0o644, "a FIFO keeps its mode")
        XCTAssertEqual(leftovers, [])
    }

    func testDeviceNodesAreWrittenInPlaceAndTheirErrorsReported() throws {
        let null = root + "/null", full = root + "/full"
        try XCTSkipIf(mknod(null, S_IFCHR | 0o666, Self.device(1, 3)) != 0, "mknod needs root")
        XCTAssertEqual(mknod(full, S_IFCHR | 0o666, Self.device(1, 7)), 0)
        let mode = lstatMode(full)
        try SecureFile.write([1, 2], to: null, mode: .shared)
        XCTAssertEqual(lstatMode(null).map { $0 & S_IFMT }, S_IFCHR)
        XCTAssertThrowsError(try SecureFile.write([1, 2], to: full)) { error in
            XCTAssertEqual(error as? StorageError, .io(path: full, reason: "No space left on device"))
        }
        XCTAssertEqual(lstatMode(full).map { $0 & S_IFMT }, S_IFCHR, "the device node is still there")
        XCTAssertEqual(lstatMode(full), mode, "and keeps its mode")
        XCTAssertEqual(leftovers, [])
    }

    func testSymlinksAreFollowedAndTheirTargetReplacedAtomically() throws {
        try FileManager.default.createDirectory(atPath: root + "/real", withIntermediateDirectories: false)
        let link = root + "/link", hop = root + "/hop"
        XCTAssertEqual(symlink("real/target", link), 0)  // dangling at first
        XCTAssertEqual(symlink("link", hop), 0)          // a link to the link
        try SecureFile.write([1], to: hop)
        XCTAssertEqual(contents(root + "/real/target"), [1])
        try SecureFile.write([2, 3], to: hop, mode: .private)
        XCTAssertEqual(contents(root + "/real/target"), [2, 3])
        XCTAssertEqual(lstatMode(link).map { $0 & S_IFMT }, S_IFLNK, "the links stay")
        XCTAssertEqual(lstatMode(hop).map { $0 & S_IFMT }, S_IFLNK)
        XCTAssertEqual(lstatMode(root + "/real/target").map { $0 & 0o7777 }, 0o600)
        XCTAssertEqual(((try? FileManager.default.contentsOfDirectory(atPath: root + "/real")) ?? []), ["target"])
    }

    func testASymlinkToAFIFOIsWrittenThrough() throws {
        let fifo = root + "/fifo", link = root + "/to-fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertEqual(symlink(fifo, link), 0)
        let received = expectation(description: "reader got the bytes")
        nonisolated(unsafe) var got: [UInt8] = []
        DispatchQueue.global().async {
            got = Self.drain(fifo)
            received.fulfill()
        }
        try SecureFile.write([5], to: link)
        wait(for: [received], timeout: 10)
        XCTAssertEqual(got, [5])
        XCTAssertEqual(lstatMode(link).map { $0 & S_IFMT }, S_IFLNK)
    }

    func testASymlinkLoopIsAnError() throws {
        let a = root + "/a", b = root + "/b"
        XCTAssertEqual(symlink("b", a), 0)
        XCTAssertEqual(symlink("a", b), 0)
        XCTAssertThrowsError(try SecureFile.write([1], to: a))
        XCTAssertEqual(lstatMode(a).map { $0 & S_IFMT }, S_IFLNK)
    }
}
