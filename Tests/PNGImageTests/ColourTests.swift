import Foundation
import XCTest
@testable import PNGImage

/// Colour management: ICC-profiled PNG and JPEG (Adobe RGB, Display P3) and gAMA are converted
/// to sRGB. Expected values come from Data/colour/expected.json, computed by formula in
/// Data/colour/gen.py (and checked there against Pillow's ImageCms), not by this code.
final class ColourTests: XCTestCase {
    static let dataDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Data/colour")

    struct Patch: Decodable { var x: Int; var y: Int; var stored: [Int]; var srgb: [Int] }
    struct Expected: Decodable { var patches: [Patch] }

    private func load(_ name: String) throws -> ([UInt8], [Patch]) {
        let json = try Data(contentsOf: Self.dataDir.appendingPathComponent("expected.json"))
        let all = try JSONDecoder().decode([String: Expected].self, from: json)
        let bytes = [UInt8](try Data(contentsOf: Self.dataDir.appendingPathComponent(name)))
        return (bytes, try XCTUnwrap(all[name]).patches)
    }

    private func assertNear(_ got: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), _ want: [Int], _ tolerance: Int,
                            _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        let values = [Int(got.r), Int(got.g), Int(got.b)]
        XCTAssertTrue(zip(values, want).allSatisfy { abs($0 - $1) <= tolerance }, "\(label): \(values), want \(want)",
                      file: file, line: line)
        XCTAssertEqual(got.a, 255, label, file: file, line: line)
    }

    func testProfiledInputsDecodeToSRGB() throws {
        for name in ["adobe-rgb.png", "display-p3.png", "adobe-rgb.jpg", "display-p3.jpg"] {
            let (bytes, patches) = try load(name)
            XCTAssertTrue(try AvatarPipeline.info(data: bytes).colourTagged, name)
            let managed = try AvatarPipeline.decode(data: bytes)
            let stored = try AvatarPipeline.decode(data: bytes, options: ResizeOptions(manageColour: false))
            var changed = 0
            for p in patches {
                assertNear(managed[p.x, p.y], p.srgb, 1, "\(name) (\(p.x), \(p.y)) managed")
                // The raw decode is what Pillow's libjpeg gave the script: same data, same decoder.
                assertNear(stored[p.x, p.y], p.stored, name.hasSuffix(".jpg") ? 1 : 0, "\(name) (\(p.x), \(p.y)) stored")
                if p.srgb != p.stored { changed += 1 }
            }
            XCTAssertGreaterThan(changed, 40, "\(name): the profile must matter for most patches")
        }
    }

    func testResizeAveragesInSRGBAndTagsTheOutput() throws {
        // 64 -> 16: every flat 8x8 patch becomes a flat 2x2 block of the box filter's output.
        for name in ["adobe-rgb.png", "display-p3.jpg"] {
            let (bytes, patches) = try load(name)
            let png = try AvatarPipeline.resize(data: bytes, options: ResizeOptions(size: 16))
            XCTAssertNotNil(Chunks.find("sRGB", in: png), "\(name): output is tagged sRGB")
            XCTAssertNil(Chunks.find("iCCP", in: png))
            XCTAssertFalse(try AvatarPipeline.info(data: png).colourTagged)
            let out = try decodeSquare(png, size: 16)
            for p in patches {
                assertNear(out[p.x / 4, p.y / 4], p.srgb, 1, "\(name) (\(p.x), \(p.y)) resized")
            }
        }
    }

    func testAdobeRGBSaturationSurvives() throws {
        // Adobe RGB (200, 60, 40) is a more saturated red than sRGB (200, 60, 40): read as sRGB it loses that.
        let (bytes, patches) = try load("adobe-rgb.png")
        let p = try XCTUnwrap(patches.first { $0.stored == [200, 60, 40] })
        func saturation(_ c: [Int]) -> Double {
            let hi = Double(c.max() ?? 0), lo = Double(c.min() ?? 0)
            return hi == 0 ? 0 : (hi - lo) / hi
        }
        let out = try AvatarPipeline.decode(data: bytes)[p.x, p.y]
        let managed = saturation([Int(out.r), Int(out.g), Int(out.b)])
        XCTAssertGreaterThan(managed, saturation(p.stored) + 0.05, "managed \(managed)")
        XCTAssertEqual(managed, saturation(p.srgb), accuracy: 0.02)
    }

    /// sRGB's encoding of a linear value, by the formula of IEC 61966-2-1.
    static func srgbEncode(_ linear: Double) -> Double {
        let v = min(1, max(0, linear))
        return v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
    }

    func testGammaIsHonouredAtSixteenBits() throws {
        // A 16-bit grey ramp at gamma 1.0 (linear light) and 0.7: stored = linear^gamma.
        let samples = (0..<256).map { UInt16($0 * 257) }
        for gamma in [1.0, 0.7] {
            var writer = PNGWriter(width: 256, height: 1, colorType: .grey, bitDepth: 16,
                                   rows: PNGWriter.pack(samples: samples, width: 256, height: 1, channels: 1, bitDepth: 16))
            writer.gamma = gamma
            let png = try writer.encode()
            XCTAssertTrue(try AvatarPipeline.info(data: png).colourTagged)
            let image = try AvatarPipeline.decode(data: png)
            for x in 0..<256 {
                let linear = pow(Double(samples[x]) / 65535, 1 / gamma)
                let want = Int((255 * Self.srgbEncode(linear)).rounded())
                let got = image[x, 0]
                XCTAssertEqual(Int(got.r), want, accuracy: 1, "gamma \(gamma), sample \(samples[x])")
                XCTAssertEqual(got.r, got.g, "grey stays grey")
                XCTAssertEqual(got.r, got.b, "grey stays grey")
            }
        }
    }

    func testSRGBGammaAndSRGBChunkLeavePixelsAlone() throws {
        let f = try Fixtures.make(.rgb, depth: 8, trns: false, width: 40, height: 30)
        let plain = try AvatarPipeline.decode(data: f.png)
        // An sRGB chunk wins over gAMA (libpng allows only a matching one beside it).
        for (gamma, srgb) in [(0.45455, false), (nil, true), (0.45455, true), (0.4530, false)] as [(Double?, Bool)] {
            var writer = PNGWriter(width: 40, height: 30, colorType: .rgb, bitDepth: 8, rows: [])
            writer.rows = plainRows(plain)
            writer.gamma = gamma
            writer.sRGB = srgb
            let png = try writer.encode()
            XCTAssertFalse(try AvatarPipeline.info(data: png).colourTagged, "gamma \(String(describing: gamma)) sRGB \(srgb)")
            XCTAssertEqual(try AvatarPipeline.decode(data: png), plain, "gamma \(String(describing: gamma)) sRGB \(srgb)")
        }
    }

    private func plainRows(_ image: RGBAImage) -> [UInt8] {
        var rgb = [UInt8]()
        for i in stride(from: 0, to: image.pixels.count, by: 4) { rgb += image.pixels[i..<i + 3] }
        return rgb
    }

    func testCropOfAProfiledImageIsTheAreaAverageOfItsManagedDecode() throws {
        // Only the columns a crop reads are converted: the result must not notice.
        let icc = [UInt8](try Data(contentsOf: Self.dataDir.appendingPathComponent("adobe-rgb.icc")))
        for (w, h) in [(150, 40), (40, 150), (97, 61)] {
            var rng = LCG(state: UInt64(w))
            var writer = PNGWriter(width: w, height: h, colorType: .rgb, bitDepth: 8,
                                   rows: (0..<w * h * 3).map { _ in UInt8(rng.below(256)) })
            writer.iccProfile = icc
            let png = try writer.encode()
            let want = referenceBoxFilter(try AvatarPipeline.decode(data: png), size: 16)
            let got = try decodeSquare(try AvatarPipeline.resize(data: png, options: ResizeOptions(size: 16)), size: 16)
            let worst = zip(got.pixels, want).map { abs(Double($0) - $1) }.max() ?? 0
            XCTAssertLessThanOrEqual(worst, 0.51, "\(w)x\(h)")
        }
    }

    func testTurningManagementOffKeepsTheOldResult() throws {
        let (bytes, patches) = try load("display-p3.png")
        let out = try decodeSquare(try AvatarPipeline.resize(data: bytes, options: ResizeOptions(size: 16, manageColour: false)),
                                   size: 16)
        for p in patches { assertNear(out[p.x / 4, p.y / 4], p.stored, 0, "unmanaged (\(p.x), \(p.y))") }
    }
}
