import CLibWebP
import XCTest
@testable import PNGImage

/// WebP input through libwebp, as phones and browsers hand out photos: size and alpha from
/// the header, decoding scaled for big images, and damaged files refused with a reason.
final class WebPTests: XCTestCase {
    /// A lossless WebP of `width` × `height` RGBA pixels.
    private func webp(width: Int, height: Int, _ pixel: (Int, Int) -> [UInt8]) throws -> [UInt8] {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height { for x in 0..<width { pixels += pixel(x, y) } }
        var output: UnsafeMutablePointer<UInt8>?
        let size = WebPEncodeLosslessRGBA(pixels, Int32(width), Int32(height), Int32(width * 4), &output)
        let encoded = try XCTUnwrap(output)
        defer { WebPFree(encoded) }
        XCTAssertGreaterThan(size, 0)
        return Array(UnsafeBufferPointer(start: encoded, count: size))
    }

    func testHalvesOfTwoColoursKeepTheirPlaces() throws {
        let image = try webp(width: 300, height: 200) { x, _ in x < 150 ? [255, 0, 0, 255] : [0, 0, 255, 255] }
        XCTAssertEqual(try AvatarPipeline.info(data: image), ImageInfo(width: 300, height: 200, format: "webp"))
        var pad = ResizeOptions()
        pad.fit = .pad
        let out = try decodeSquare(try AvatarPipeline.resize(data: image, options: pad))
        near(out, 10, 50, [255, 0, 0, 255])
        near(out, 90, 50, [0, 0, 255, 255])
        near(out, 50, 2, [0, 0, 0, 0], 0)  // the padding above a wide image stays transparent
    }

    /// A photo-sized input is decoded scaled down (the decoded pixels stay small), and the
    /// averaged colour is the same.
    func testLargeInputIsDecodedScaled() throws {
        let image = try webp(width: 2400, height: 1600) { x, y in (x / 8 + y / 8) % 2 == 0 ? [0, 0, 0, 255] : [255, 255, 255, 255] }
        let out = try decodeSquare(try AvatarPipeline.resize(data: image, options: ResizeOptions()))
        let p = out[50, 50]
        XCTAssertEqual(Int(p.a), 255)
        XCTAssertTrue((110...145).contains(Int(p.r)), "a fine checkerboard averages to grey, got \(p.r)")
    }

    func testAlphaIsKept() throws {
        let image = try webp(width: 64, height: 64) { _, _ in [0, 128, 0, 0] }
        let out = try decodeSquare(try AvatarPipeline.resize(data: image, options: ResizeOptions()))
        XCTAssertEqual(out[50, 50].a, 0)
    }

    func testDamagedWebPIsRefused() throws {
        let image = try webp(width: 64, height: 64) { _, _ in [1, 2, 3, 255] }
        XCTAssertThrowsError(try AvatarPipeline.resize(data: Array(image.prefix(40)), options: ResizeOptions())) { error in
            XCTAssertEqual(error as? PNGImageError, .truncated, "\(error)")
        }
        XCTAssertThrowsError(try AvatarPipeline.info(data: Array(image.prefix(10)))) { error in
            XCTAssertEqual(error as? PNGImageError, .truncated, "\(error)")
        }
        var wave = Array("RIFF".utf8) + [4, 0, 0, 0] + Array("WAVEfmt ".utf8)
        wave += [UInt8](repeating: 0, count: 32)
        XCTAssertThrowsError(try AvatarPipeline.info(data: wave)) { error in
            XCTAssertEqual(error as? PNGImageError, .notAnImage, "\(error)")
        }
    }
}
