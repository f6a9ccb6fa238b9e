import Foundation
import XCTest
import XMPPStorage

/// `SecretFileWriter` and `SecretLineReader`: a file with secrets written and read a line at a
/// time, with `SecureFile.writeSecret`'s checks and atomicity.
final class SecretFileStreamTests: XCTestCase {
    private func names(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    func testTheFileAppearsWholeAtCommitAndPrivate() throws {
        let root = try scratchDirectory("secret-stream")
        let path = root + "/state"
        try SecureFile.writeSecret(Array("old\n".utf8), to: path)
        let writer = try SecretFileWriter(path)
        for i in 0..<20_000 { try writer.write("line \(i)\n") }  // more than one block
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old\n", "the old file until commit")
        try writer.commit()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(text.split(separator: "\n").count, 20_000)
        XCTAssertTrue(text.hasSuffix("line 19999\n"))
        let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
        XCTAssertEqual(mode, 0o600)
        XCTAssertEqual(names(root), ["state"], "no temporary file left")
    }

    func testAWriterNotCommittedLeavesTheOldFileAndNoTemporaryOne() throws {
        let root = try scratchDirectory("secret-stream")
        let path = root + "/state"
        try SecureFile.writeSecret(Array("old\n".utf8), to: path)
        do {
            let writer = try SecretFileWriter(path)
            try writer.write(String(repeating: "x", count: 200_000))
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old\n")
        XCTAssertEqual(names(root), ["state"])
    }

    func testASymlinkIsNeitherWrittenThroughNorRead() throws {
        let root = try scratchDirectory("secret-stream")
        let target = root + "/target", link = root + "/link"
        try SecureFile.writeSecret(Array("a\n".utf8), to: target)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        XCTAssertThrowsError(try SecretFileWriter(link)) { error in
            guard case .untrusted? = error as? StorageError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try SecretLineReader(link)) { error in
            guard case .untrusted? = error as? StorageError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "a\n")
    }

    /// A FIFO of the user's own (`--report` into a pipe) is written in place as the records come.
    func testAFIFOIsWrittenInPlaceAsTheBytesCome() throws {
        let root = try scratchDirectory("secret-stream")
        let fifo = root + "/fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let received = expectation(description: "the reader got every byte")
        nonisolated(unsafe) var count = 0
        DispatchQueue.global().async {
            let fd = open(fifo, O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while fd >= 0, case let n = read(fd, &buffer, buffer.count), n > 0 { count += n }
            close(fd)
            received.fulfill()
        }
        let writer = try SecretFileWriter(fifo)
        for _ in 0..<100 { try writer.write(String(repeating: "r", count: 1000)) }  // more than a block
        try writer.commit()
        wait(for: [received], timeout: 10)
        XCTAssertEqual(count, 100_000)
        var st = stat()
        XCTAssertEqual(lstat(fifo, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "still a FIFO")
        XCTAssertEqual(names(root), ["fifo"])
    }

    func testLinesAreReadAcrossBlocksWithAndWithoutAFinalLineFeed() throws {
        let root = try scratchDirectory("secret-stream")
        let path = root + "/lines"
        let long = String(repeating: "é", count: 70_000)  // 140,000 bytes: across blocks
        try SecureFile.writeSecret(Array("first\n\n\(long)\nlast".utf8), to: path)
        let reader = try XCTUnwrap(try SecretLineReader(path))
        var lines: [String] = []
        while let line = try reader.next() { lines.append(String(decoding: line, as: UTF8.self)) }
        XCTAssertEqual(lines, ["first", "", long, "last"])
        XCTAssertNil(try SecretLineReader(root + "/missing"))
    }

    func testALineOverTheLimitAndAFileOthersCanReadAreRefused() throws {
        let root = try scratchDirectory("secret-stream")
        let path = root + "/lines"
        try SecureFile.writeSecret(Array((String(repeating: "x", count: 300_000) + "\n").utf8), to: path)
        let reader = try XCTUnwrap(try SecretLineReader(path, maxLineBytes: 100_000))
        XCTAssertThrowsError(try reader.next()) { error in
            guard case .corrupt? = error as? StorageError else { return XCTFail("\(error)") }
        }
        chmod(path, 0o644)
        XCTAssertThrowsError(try SecretLineReader(path)) { error in
            guard case .insecurePermissions? = error as? StorageError else { return XCTFail("\(error)") }
        }
    }
}
