import XCTest
@testable import PNGImage

/// Hostile and broken inputs: every one a typed error with a one-line description.
final class ErrorTests: XCTestCase {
    private func expect(_ want: PNGImageError, _ data: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        expect(data, file: file, line: line) { $0 == want }
    }

    private func expect(_ data: [UInt8], file: StaticString = #filePath, line: UInt = #line,
                        _ matches: (PNGImageError) -> Bool) {
        do {
            _ = try AvatarPipeline.resize(data: data, options: ResizeOptions())
            XCTFail("accepted", file: file, line: line)
        } catch {
            XCTAssertTrue(matches(error), "got \(error)", file: file, line: line)
            XCTAssertFalse(error.description.contains("\n"), file: file, line: line)
            XCTAssertFalse(error.description.isEmpty, file: file, line: line)
        }
    }

    private func sample() throws -> [UInt8] {
        try Fixtures.make(.rgb, depth: 8, trns: false, width: 64, height: 64).png
    }

    func testEmptyAndNonImageBytes() {
        expect(.notAnImage, [])
        expect(.notAnImage, Array("hello, this is not a PNG at all".utf8))
        expect(.notAnImage, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x00])
        expect(.truncated, [0x89, 0x50, 0x4E])
        XCTAssertThrowsError(try AvatarPipeline.info(data: [])) { XCTAssertEqual($0 as? PNGImageError, .notAnImage) }
    }

    func testTruncatedAnywhere() throws {
        let png = try sample()
        let idat = try XCTUnwrap(Chunks.find("IDAT", in: png))
        for cut in [8, 12, 20, 33, idat.offset, idat.offset + idat.length / 2, idat.offset + idat.length - 1] {
            expect(.truncated, Array(png[..<cut]))
        }
    }

    func testCorruptCRC() throws {
        var png = try sample()
        let idat = try XCTUnwrap(Chunks.find("IDAT", in: png))
        png[idat.offset + idat.length / 2] ^= 0x55
        expect(png) {
            guard case .corrupt(let why) = $0 else { return false }
            return why.contains("CRC")
        }
        var header = try sample()
        header[16 + 3] ^= 1  // IHDR width byte, CRC now wrong
        expect(header) { if case .corrupt = $0 { return true } else { return false } }
    }

    func testCorruptDeflateWithValidCRC() throws {
        var png = try sample()
        let idat = try XCTUnwrap(Chunks.find("IDAT", in: png))
        for i in idat.offset + 2..<idat.offset + 12 { png[i] = 0xFF }  // invalid block type / codes
        let crc = Chunks.crc32(png[(idat.offset - 4)..<(idat.offset + idat.length)])
        png.replaceSubrange((idat.offset + idat.length)..<(idat.offset + idat.length + 4), with: Chunks.be32(crc))
        expect(png) { if case .corrupt = $0 { return true } else { return false } }
    }

    func testBadHeaderValues() {
        // Bit depth 3 is not a PNG depth.
        let ihdr = Chunks.be32(10) + Chunks.be32(10) + [3, 0, 0, 0, 0]
        expect(Chunks.signature + Chunks.chunk("IHDR", ihdr) + Chunks.chunk("IEND", [])) {
            if case .corrupt = $0 { return true } else { return false }
        }
        expect(Chunks.declaring(width: 0, height: 10)) { if case .corrupt = $0 { return true } else { return false } }
    }

    func testMissingImageData() {
        // Declares 64x64 but carries only a few bytes of pixels.
        expect(Chunks.declaring(width: 64, height: 64)) { if case .corrupt = $0 { return true } else { return false } }
    }

    func testDecompressionBombRefusedAtOnce() throws {
        let start = Date()
        expect(.tooLarge(width: 100_000, height: 100_000, maxSide: 30_000, maxPixels: 100_000_000), Chunks.declaring(width: 100_000, height: 100_000))
        // Within the side limit but over the pixel limit.
        expect(.tooLarge(width: 20_000, height: 20_000, maxSide: 30_000, maxPixels: 100_000_000), Chunks.declaring(width: 20_000, height: 20_000))
        // Over the side limit with few pixels.
        expect(.tooLarge(width: 40_000, height: 1, maxSide: 30_000, maxPixels: 100_000_000), Chunks.declaring(width: 40_000, height: 1))
        // The PNG maximum, beyond libpng's own default limits.
        expect(.tooLarge(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF, maxSide: 30_000, maxPixels: 100_000_000), Chunks.declaring(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF))
        XCTAssertThrowsError(try AvatarPipeline.decode(data: Chunks.declaring(width: 100_000, height: 100_000))) {
            XCTAssertEqual($0 as? PNGImageError, .tooLarge(width: 100_000, height: 100_000, maxSide: 30_000, maxPixels: 100_000_000))
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.5)
        // Limits are the caller's: a tighter one refuses a small image.
        let png = try sample()
        XCTAssertThrowsError(try AvatarPipeline.resize(data: png, options: ResizeOptions(maxInputPixels: 1000))) {
            XCTAssertEqual($0 as? PNGImageError, .tooLarge(width: 64, height: 64, maxSide: 30_000, maxPixels: 1000))
        }
    }

    func testBombFromFileIsRefusedBeforeDecoding() throws {
        let path = NSTemporaryDirectory() + "pngimage-bomb-\(getpid()).png"
        try Data(Chunks.declaring(width: 100_000, height: 100_000)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertThrowsError(try AvatarPipeline.resize(file: path, options: ResizeOptions())) {
            XCTAssertEqual($0 as? PNGImageError, .tooLarge(width: 100_000, height: 100_000, maxSide: 30_000, maxPixels: 100_000_000))
        }
    }

    func testMissingFile() {
        let path = "/nonexistent/dir/avatar.png"
        XCTAssertThrowsError(try AvatarPipeline.resize(file: path, options: ResizeOptions())) {
            guard case .io(let p, let why) = $0 as? PNGImageError else { return XCTFail("\($0)") }
            XCTAssertEqual(p, path)
            XCTAssertTrue(why.contains("No such file"), why)
        }
        XCTAssertThrowsError(try AvatarPipeline.resize(file: "/", options: ResizeOptions())) {
            guard case .io = $0 as? PNGImageError else { return XCTFail("\($0)") }
        }
    }

    func testFuzzedInputsNeverCrash() throws {
        let png = try Fixtures.make(.palette, depth: 4, trns: true, width: 40, height: 30, interlaced: true).png
        var rng = LCG(state: 7)
        for _ in 0..<300 {
            var bytes = png
            for _ in 0..<(1 + rng.below(4)) { bytes[8 + rng.below(bytes.count - 8)] = UInt8(rng.below(256)) }
            if rng.below(3) == 0 { bytes = Array(bytes[..<(8 + rng.below(bytes.count - 8))]) }
            _ = try? AvatarPipeline.resize(data: bytes, options: ResizeOptions(size: 16))
            _ = try? AvatarPipeline.info(data: bytes)
        }
    }

    func testDescriptionsNameTheProblem() {
        XCTAssertEqual(PNGImageError.tooLarge(width: 20_000, height: 20_000, maxSide: 30_000, maxPixels: 100_000_000).description,
                       "image of 20000×20000 pixels is over the limit of 100 megapixels")
        XCTAssertEqual(PNGImageError.tooLarge(width: 40_000, height: 1, maxSide: 30_000, maxPixels: 100_000_000).description,
                       "image of 40000×1 pixels is over the limit of 30000 pixels a side")
        XCTAssertEqual(PNGImageError.tooLarge(width: 64, height: 64, maxSide: 30_000, maxPixels: 1000).description,
                       "image of 64×64 pixels is over the limit of 1000 pixels")
        XCTAssertEqual(PNGImageError.io(path: "/a.png", "No such file or directory").description,
                       "/a.png: No such file or directory")
        XCTAssertTrue(PNGImageError.corrupt("IDAT: CRC error").description.contains("IDAT: CRC error"))
    }
}
