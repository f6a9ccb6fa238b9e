import XCTest
@testable import PNGImage

/// Resizing: colours, premultiplied averaging, crop and pad geometry, the box filter's maths.
final class ResizeTests: XCTestCase {
    private func assertPixel(_ image: RGBAImage, _ x: Int, _ y: Int, _ want: (Int, Int, Int, Int), tolerance: Int = 0,
                             _ what: String = "", file: StaticString = #filePath, line: UInt = #line) {
        let p = image[x, y]
        let got = [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
        let expected = [want.0, want.1, want.2, want.3]
        if zip(got, expected).contains(where: { abs($0 - $1) > tolerance }) {
            XCTFail("\(what) pixel (\(x), \(y)) is \(got), want \(expected)", file: file, line: line)
        }
    }

    func testEveryKindResizesToValid100Square() throws {
        for interlaced in [false, true] {
            for (type, depth, trns) in Fixtures.kinds {
                let f = try Fixtures.make(type, depth: depth, trns: trns, width: 3, height: 7, interlaced: interlaced)
                for fit in FitMode.allCases {
                    let out = try AvatarPipeline.resize(data: f.png, options: ResizeOptions(fit: fit))
                    _ = try decodeSquare(out)
                }
            }
        }
    }

    func testInterlacedAndPlainGiveIdenticalOutput() throws {
        for (type, depth, trns) in Fixtures.kinds {
            let plain = try Fixtures.make(type, depth: depth, trns: trns, width: 157, height: 93)
            let adam7 = try Fixtures.make(type, depth: depth, trns: trns, width: 157, height: 93, interlaced: true)
            XCTAssertNotEqual(plain.png, adam7.png)
            for fit in FitMode.allCases {
                // Pass order changes float summation order: allow one unit of rounding.
                let a = try decodeSquare(try AvatarPipeline.resize(data: plain.png, options: ResizeOptions(fit: fit)))
                let b = try decodeSquare(try AvatarPipeline.resize(data: adam7.png, options: ResizeOptions(fit: fit)))
                let worst = zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
                XCTAssertLessThanOrEqual(worst, 1, "\(plain.name) \(fit)")
            }
        }
    }

    func testSolidColourStaysExact() throws {
        for (w, h) in [(1, 1), (1, 5000), (5000, 1), (3, 7), (640, 480), (101, 99)] {
            let png = try Fixtures.solid(width: w, height: h, (255, 0, 0, 255))
            let crop = try decodeSquare(try AvatarPipeline.resize(data: png, options: ResizeOptions()))
            for y in 0..<100 { for x in 0..<100 { assertPixel(crop, x, y, (255, 0, 0, 255), "\(w)x\(h) crop") } }
        }
        let grey = try Fixtures.make(.grey, depth: 16, trns: false, width: 1, height: 1)
        let out = try decodeSquare(try AvatarPipeline.resize(data: grey.png, options: ResizeOptions(size: 16)), size: 16)
        let g = Int(grey.expected[0])
        assertPixel(out, 7, 7, (g, g, g, 255), tolerance: 1, "16-bit grey")
    }

    func testPadOfExtremeAspectRatios() throws {
        let tall = try decodeSquare(try AvatarPipeline.resize(
            data: try Fixtures.solid(width: 1, height: 5000, (0, 0, 255, 255)), options: ResizeOptions(fit: .pad)))
        // 1 px wide scaled by 100/5000 still keeps one visible column in the middle.
        assertPixel(tall, 50 - 1, 0, (0, 0, 255, 255), "tall pad column")
        assertPixel(tall, 0, 50, (0, 0, 0, 0), "tall pad border")
        let wide = try decodeSquare(try AvatarPipeline.resize(
            data: try Fixtures.solid(width: 5000, height: 1, (0, 0, 255, 255)), options: ResizeOptions(fit: .pad)))
        assertPixel(wide, 99, 49, (0, 0, 255, 255), "wide pad row")
        assertPixel(wide, 50, 0, (0, 0, 0, 0), "wide pad border")
    }

    func testTransparencyIsAveragedPremultiplied() throws {
        // Opaque red and fully transparent green in a checkerboard: each 2x2 block
        // averages to red at half alpha, never brownish.
        let png = try Fixtures.rgba(width: 32, height: 32) { x, y in (x + y) % 2 == 0 ? (255, 0, 0, 255) : (0, 255, 0, 0) }
        let out = try decodeSquare(try AvatarPipeline.resize(data: png, options: ResizeOptions(size: 16)), size: 16)
        for y in 0..<16 { for x in 0..<16 { assertPixel(out, x, y, (255, 0, 0, 128), "checker") } }
        // Same with half-transparent green: colour is weighted by alpha.
        let half = try Fixtures.rgba(width: 32, height: 32) { x, y in (x + y) % 2 == 0 ? (255, 0, 0, 255) : (0, 255, 0, 85) }
        let mixed = try decodeSquare(try AvatarPipeline.resize(data: half, options: ResizeOptions(size: 16)), size: 16)
        assertPixel(mixed, 3, 3, (191, 64, 0, 170), "weighted")
    }

    func testCropAndPadGeometry() throws {
        let png = try Fixtures.rgba(width: 200, height: 100) { x, _ in x < 100 ? (0, 0, 0, 255) : (255, 255, 255, 255) }
        let crop = try decodeSquare(try AvatarPipeline.resize(data: png, options: ResizeOptions(fit: .crop)))
        for y in [0, 50, 99] {
            assertPixel(crop, 0, y, (0, 0, 0, 255), "crop left")
            assertPixel(crop, 49, y, (0, 0, 0, 255), "crop left edge")
            assertPixel(crop, 50, y, (255, 255, 255, 255), "crop right edge")
            assertPixel(crop, 99, y, (255, 255, 255, 255), "crop right")
        }
        let pad = try decodeSquare(try AvatarPipeline.resize(data: png, options: ResizeOptions(fit: .pad)))
        for x in [0, 49, 50, 99] {
            assertPixel(pad, x, 0, (0, 0, 0, 0), "pad top border")
            assertPixel(pad, x, 24, (0, 0, 0, 0), "pad top border end")
            assertPixel(pad, x, 75, (0, 0, 0, 0), "pad bottom border")
            assertPixel(pad, x, 99, (0, 0, 0, 0), "pad bottom")
        }
        for y in [25, 50, 74] {
            assertPixel(pad, 0, y, (0, 0, 0, 255), "pad left")
            assertPixel(pad, 49, y, (0, 0, 0, 255), "pad left edge")
            assertPixel(pad, 50, y, (255, 255, 255, 255), "pad right edge")
            assertPixel(pad, 99, y, (255, 255, 255, 255), "pad right")
        }
        // Portrait: crop keeps the middle rows.
        let tall = try Fixtures.rgba(width: 50, height: 150) { _, y in y < 50 || y >= 100 ? (255, 0, 0, 255) : (0, 255, 0, 255) }
        let tallCrop = try decodeSquare(try AvatarPipeline.resize(data: tall, options: ResizeOptions(size: 50)), size: 50)
        for y in [0, 25, 49] { assertPixel(tallCrop, 25, y, (0, 255, 0, 255), "portrait crop") }
    }

    func testMatchesReferenceBoxFilter() throws {
        // Fractional scales (250 -> 100 is 2.5, 97 -> 16 is 6.06) and a
        // half-pixel crop offset (251x250), with noisy alpha.
        for (w, h, size) in [(250, 250, 100), (251, 250, 100), (97, 130, 16), (300, 200, 100), (40, 40, 100)] {
            var rng = LCG(state: UInt64(w * h))
            let png = try Fixtures.rgba(width: w, height: h) { _, _ in
                (UInt8(rng.below(256)), UInt8(rng.below(256)), UInt8(rng.below(256)), UInt8(rng.below(4) == 0 ? 0 : rng.below(256)))
            }
            let src = try AvatarPipeline.decode(data: png)
            let want = referenceBoxFilter(src, size: size)
            let got = try decodeSquare(try AvatarPipeline.resize(data: png, options: ResizeOptions(size: size)), size: size)
            var worst = 0.0
            for i in 0..<want.count {
                // Colour under tiny alpha is ill-conditioned after 8-bit rounding of alpha: compare only alpha there.
                if i % 4 != 3 && want[i - i % 4 + 3] < 8 { continue }
                worst = max(worst, abs(Double(got.pixels[i]) - want[i]))
            }
            XCTAssertLessThanOrEqual(worst, 0.51, "\(w)x\(h)->\(size)")
        }
    }

    func testDeterministicAndFileEqualsData() throws {
        let f = try Fixtures.make(.rgba, depth: 8, trns: false, width: 321, height: 123)
        let a = try AvatarPipeline.resize(data: f.png, options: ResizeOptions())
        XCTAssertEqual(a, try AvatarPipeline.resize(data: f.png, options: ResizeOptions()))
        let path = NSTemporaryDirectory() + "pngimage-\(getpid()).png"
        try Data(f.png).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(try AvatarPipeline.resize(file: path, options: ResizeOptions()), a)
    }

    func testOutputIsCompact() throws {
        let red = try AvatarPipeline.resize(data: try Fixtures.solid(width: 640, height: 480, (255, 0, 0, 255)),
                                            options: ResizeOptions())
        XCTAssertLessThan(red.count, 120)
        let info = try XCTUnwrap(Chunks.find("IHDR", in: red))
        XCTAssertEqual(red[info.offset + 9], 3, "a one-colour image is written indexed")
        // Only the critical chunks (and tRNS) and sRGB, what the pixels were converted to, are written.
        var types = [String](), i = 8
        while i + 8 <= red.count {
            let n = Int(red[i]) << 24 | Int(red[i + 1]) << 16 | Int(red[i + 2]) << 8 | Int(red[i + 3])
            types.append(String(decoding: red[i + 4..<i + 8], as: UTF8.self))
            i += 12 + n
        }
        XCTAssertEqual(types.filter { !["IDAT"].contains($0) }, ["IHDR", "sRGB", "PLTE", "IEND"])
        // A photo-like opaque image is written as RGB, not RGBA.
        let noisy = try Fixtures.make(.rgb, depth: 8, trns: false, width: 200, height: 200)
        let out = try AvatarPipeline.resize(data: noisy.png, options: ResizeOptions())
        let ihdr = try XCTUnwrap(Chunks.find("IHDR", in: out))
        XCTAssertEqual(out[ihdr.offset + 9], 2)
        XCTAssertEqual(try AvatarPipeline.decode(data: out).pixels.count, 100 * 100 * 4)
    }

    func testSizeOption() throws {
        let png = try Fixtures.solid(width: 10, height: 10, (1, 2, 3, 255))
        for size in [16, 64, 1024] {
            _ = try decodeSquare(try AvatarPipeline.resize(data: png, options: ResizeOptions(size: size)), size: size)
        }
        for size in [0, 15, 1025, -1] {
            XCTAssertThrowsError(try AvatarPipeline.resize(data: png, options: ResizeOptions(size: size))) {
                guard case .invalidOptions = $0 as? PNGImageError else { return XCTFail("\($0)") }
            }
        }
    }
}
