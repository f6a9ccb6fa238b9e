import CLibWebP
import JPEGTestSupport
import XCTest
@testable import PNGImage

/// Issue 39: a .vcf photo whose Base64 was cut short is used only when the image is all there.
final class ImageCompletenessTests: XCTestCase {
    private func noise(_ x: Int, _ y: Int) -> UInt8 { UInt8(truncatingIfNeeded: (x &* 73) ^ (y &* 151) ^ (x * y)) }

    private func jpeg(progressive: Bool, exif: [UInt8] = []) throws -> [UInt8] {
        var pixels = [UInt8]()
        for y in 0..<48 { for x in 0..<64 { pixels += [noise(x, y), noise(y, x), UInt8(x * 4)] } }
        return try JPEGWriter(width: 64, height: 48, components: 3, pixels: pixels, quality: 90, progressive: progressive, exif: exif).encode()
    }

    private func webp() throws -> [UInt8] {
        var pixels = [UInt8]()
        for y in 0..<40 { for x in 0..<40 { pixels += [noise(x, y), noise(y, x), 9, 255] } }
        var output: UnsafeMutablePointer<UInt8>?
        let size = WebPEncodeLosslessRGBA(pixels, 40, 40, 160, &output)
        let encoded = try XCTUnwrap(output)
        defer { WebPFree(encoded) }
        return Array(UnsafeBufferPointer(start: encoded, count: size))
    }

    /// Whole images are whole; the same bytes cut anywhere (the last byte, the end marker,
    /// the middle of the pixel data) are not.
    func testAnImageIsWholeOnlyWithEveryByteToItsEnd() throws {
        let png = try Fixtures.rgba(width: 40, height: 30) { x, y in (noise(x, y), noise(y, x), 7, 255) }
        let images: [(String, [UInt8])] = [
            ("png", png), ("interlaced png", try Fixtures.rgba(width: 40, height: 30, interlaced: true) { x, y in (noise(x, y), 1, 2, 255) }),
            ("jpeg", try jpeg(progressive: false)), ("progressive jpeg", try jpeg(progressive: true)),
            ("jpeg with exif", try jpeg(progressive: false, exif: Array("Exif".utf8) + [0, 0] + Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 0])),
            ("webp", try webp()),
        ]
        for (name, image) in images {
            XCTAssertTrue(ImageCompleteness.isWhole(image), name)
            for cut in [1, 2, 12, image.count / 2, image.count - 20] {
                XCTAssertFalse(ImageCompleteness.isWhole(Array(image.dropLast(cut))), "\(name) without its last \(cut) bytes")
            }
        }
        // The decoder alone is no test: libpng reads rows, not the chunks after them.
        let cutPNG = Array(png.dropLast(12))
        XCTAssertNoThrow(try AvatarPipeline.resize(data: cutPNG, options: ResizeOptions(size: 16)))
        XCTAssertFalse(ImageCompleteness.isWhole(cutPNG))
        // Bytes after the end marker (some phones pad) leave the image whole.
        XCTAssertTrue(ImageCompleteness.isWhole(png + [0, 0, 0]))
        // What cannot be checked is never whole.
        XCTAssertFalse(ImageCompleteness.isWhole(Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B]))
        XCTAssertFalse(ImageCompleteness.isWhole([]))
        // A PNG whose pixel data is damaged though its chunks all end: the decode decides.
        var damaged = png
        let idat = try XCTUnwrap(Chunks.find("IDAT", in: png))
        for i in idat.offset + 2..<idat.offset + min(idat.length, 40) { damaged[i] ^= 0x5A }
        XCTAssertFalse(ImageCompleteness.isWhole(damaged))
    }
}
