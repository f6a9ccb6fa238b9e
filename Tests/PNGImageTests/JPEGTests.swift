import JPEGTestSupport
import XCTest
@testable import PNGImage

/// JPEG input through libjpeg-turbo: colour spaces, progressive, DCT scaling, EXIF orientation, damage.
final class JPEGTests: XCTestCase {
    private func jpeg(width: Int, height: Int, components: Int = 3, progressive: Bool = false, exif: [UInt8] = [],
                      _ pixel: (Int, Int) -> [UInt8]) throws -> [UInt8] {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * components)
        for y in 0..<height { for x in 0..<width { pixels += pixel(x, y) } }
        return try JPEGWriter(width: width, height: height, components: components, pixels: pixels, quality: 95,
                              progressive: progressive, exif: exif).encode()
    }

    /// A big-endian EXIF block with one IFD0 entry: Orientation.
    private func exif(orientation: UInt16) -> [UInt8] {
        // Appended part by part: Swift 6.0's type checker gives up on one `+` chain of all of them.
        var block: [UInt8] = Array("Exif".utf8) + [0, 0]
        block += Array("MM".utf8) + [0, 42, 0, 0, 0, 8]  // big-endian TIFF header, IFD0 at offset 8
        block += [0, 1]  // one entry: Orientation (0x0112), SHORT, count 1, the value left-aligned
        block += [0x01, 0x12, 0, 3, 0, 0, 0, 1, UInt8(orientation >> 8), UInt8(orientation & 0xFF), 0, 0]
        block += [0, 0, 0, 0]  // no next IFD
        return block
    }

    func testSolidColoursInEveryColourSpace() throws {
        let rgb = try jpeg(width: 64, height: 48) { _, _ in [255, 0, 0] }
        XCTAssertEqual(try AvatarPipeline.info(data: rgb), ImageInfo(width: 64, height: 48, format: "jpeg"))
        let out = try decodeSquare(try AvatarPipeline.resize(data: rgb, options: ResizeOptions()))
        near(out, 0, 0, [255, 0, 0, 255])
        near(out, 99, 99, [255, 0, 0, 255])
        let grey = try jpeg(width: 30, height: 70, components: 1) { _, _ in [77] }
        near(try decodeSquare(try AvatarPipeline.resize(data: grey, options: ResizeOptions())), 50, 50, [77, 77, 77, 255], 1)
        // Adobe CMYK is stored inverted: red is no cyan, full magenta and yellow, no black.
        let cmyk = try jpeg(width: 40, height: 40, components: 4) { _, _ in [255, 0, 0, 255] }
        near(try decodeSquare(try AvatarPipeline.resize(data: cmyk, options: ResizeOptions())), 50, 50, [255, 0, 0, 255], 6)
    }

    func testProgressiveMatchesBaseline() throws {
        let pattern: (Int, Int) -> [UInt8] = { x, y in [UInt8(x * 255 / 299), UInt8(y * 255 / 199), UInt8((x + y) % 256)] }
        let base = try jpeg(width: 300, height: 200, pattern)
        let prog = try jpeg(width: 300, height: 200, progressive: true, pattern)
        XCTAssertNotEqual(base, prog)
        let a = try decodeSquare(try AvatarPipeline.resize(data: base, options: ResizeOptions()))
        let b = try decodeSquare(try AvatarPipeline.resize(data: prog, options: ResizeOptions()))
        XCTAssertLessThanOrEqual(zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0, 2)
    }

    func testDCTScalingAgreesWithFullDecode() throws {
        // 1600x1200 -> 100: decoded at 1/4 scale. Compare with a box filter over the full decode.
        var rng = LCG(state: 3)
        let blobs = (0..<12).map { _ in (rng.below(1600), rng.below(1200), 50 + rng.below(300), UInt8(rng.below(256))) }
        let data = try jpeg(width: 1600, height: 1200) { x, y in
            var v = [UInt8(x * 255 / 1599), UInt8(y * 255 / 1199), 128]
            for (bx, by, r, c) in blobs where (x - bx) * (x - bx) + (y - by) * (y - by) < r * r { v[2] = c }
            return v
        }
        let full = try AvatarPipeline.decode(data: data)
        XCTAssertEqual(full.width, 1600)
        let out = try decodeSquare(try AvatarPipeline.resize(data: data, options: ResizeOptions()))
        var total = 0, worst = 0
        for oy in 0..<100 {
            for ox in 0..<100 {
                for c in 0..<3 {
                    var sum = 0
                    for y in (oy * 12)..<(oy * 12 + 12) { for x in (200 + ox * 12)..<(200 + ox * 12 + 12) { sum += Int(full.pixels[(y * 1600 + x) * 4 + c]) } }
                    let d = abs(Int(out.pixels[(oy * 100 + ox) * 4 + c]) - (sum + 72) / 144)
                    total += d
                    worst = max(worst, d)
                }
            }
        }
        XCTAssertLessThan(Double(total) / 30000, 1.5, "mean difference")
        XCTAssertLessThan(worst, 40, "worst difference (blob edges)")
    }

    func testEXIFOrientationIsApplied() throws {
        // Stored 200x100: left half black, right half white. Orientation 6 turns it
        // 90 degrees clockwise for display: 100x200, top half black.
        let data = try jpeg(width: 200, height: 100, exif: exif(orientation: 6)) { x, _ in x < 100 ? [0, 0, 0] : [255, 255, 255] }
        XCTAssertEqual(try AvatarPipeline.info(data: data), ImageInfo(width: 100, height: 200, format: "jpeg"))
        let full = try AvatarPipeline.decode(data: data)
        XCTAssertEqual([full.width, full.height], [100, 200])
        near(full, 50, 10, [0, 0, 0, 255])
        near(full, 50, 190, [255, 255, 255, 255])
        let pad = try decodeSquare(try AvatarPipeline.resize(data: data, options: ResizeOptions(fit: .pad)))
        near(pad, 5, 50, [0, 0, 0, 0], 0)  // transparent side borders after turning
        near(pad, 50, 10, [0, 0, 0, 255])
        near(pad, 50, 90, [255, 255, 255, 255])
        // Orientation 3 (180 degrees): white moves to the left.
        let turned = try jpeg(width: 200, height: 100, exif: exif(orientation: 3)) { x, _ in x < 100 ? [0, 0, 0] : [255, 255, 255] }
        let crop = try decodeSquare(try AvatarPipeline.resize(data: turned, options: ResizeOptions()))
        near(crop, 10, 50, [255, 255, 255, 255])
        near(crop, 90, 50, [0, 0, 0, 255])
        // A malformed EXIF block is ignored.
        let junk = try jpeg(width: 20, height: 10, exif: Array("Exif".utf8) + [0, 0, 77, 77, 0, 42, 255, 255, 255, 0]) { _, _ in [1, 2, 3] }
        XCTAssertEqual(try AvatarPipeline.info(data: junk).width, 20)
    }

    func testAllOrientationsTurnTheSameWay() throws {
        // A 3x2 image with distinct pixels, decoded under each orientation, must
        // match turning the orientation-1 decode by hand (TIFF 6.0 semantics).
        let pixel: (Int, Int) -> [UInt8] = { x, y in [UInt8(x * 100), UInt8(y * 200), 50] }
        let plain = try AvatarPipeline.decode(data: try jpeg(width: 48, height: 32) { x, y in pixel(x / 16, y / 16) })
        for o in 1...8 {
            let data = try jpeg(width: 48, height: 32, exif: exif(orientation: UInt16(o))) { x, y in pixel(x / 16, y / 16) }
            let image = try AvatarPipeline.decode(data: data)
            XCTAssertEqual(image, Orientation.apply(o, to: plain), "orientation \(o)")
        }
        // Spot-check the table: 8 turns counter-clockwise, so the stored right end lands on top.
        let eight = Orientation.apply(8, to: RGBAImage(width: 2, height: 1, pixels: [1, 1, 1, 1, 2, 2, 2, 2]))
        XCTAssertEqual([eight.width, eight.height], [1, 2])
        XCTAssertEqual(eight.pixels, [2, 2, 2, 2, 1, 1, 1, 1])
        let six = Orientation.apply(6, to: RGBAImage(width: 2, height: 1, pixels: [1, 1, 1, 1, 2, 2, 2, 2]))
        XCTAssertEqual(six.pixels, [1, 1, 1, 1, 2, 2, 2, 2])
    }

    func testFileEqualsData() throws {
        let data = try jpeg(width: 123, height: 77) { x, y in [UInt8(x), UInt8(y), 9] }
        let path = NSTemporaryDirectory() + "pngimage-\(getpid()).jpg"
        try Data(data).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(try AvatarPipeline.resize(file: path, options: ResizeOptions()),
                       try AvatarPipeline.resize(data: data, options: ResizeOptions()))
    }

    func testDamagedJPEGs() throws {
        let data = try jpeg(width: 64, height: 64) { x, y in [UInt8(x * 4), UInt8(y * 4), 0] }
        for cut in [1, 2, 3, 20, data.count / 2, data.count - 40] {
            XCTAssertThrowsError(try AvatarPipeline.resize(data: Array(data[..<cut]), options: ResizeOptions()), "cut \(cut)") {
                XCTAssertEqual($0 as? PNGImageError, .truncated, "cut \(cut)")
            }
        }
        var badPrecision = data
        let sof = try XCTUnwrap((0..<data.count - 1).first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 })
        badPrecision[sof + 4] = 7  // sample precision 7 bits does not exist
        XCTAssertThrowsError(try AvatarPipeline.resize(data: badPrecision, options: ResizeOptions())) {
            guard case .corrupt(let why) = $0 as? PNGImageError else { return XCTFail("\($0)") }
            XCTAssertFalse(why.isEmpty)
            XCTAssertFalse(why.contains("\n"))
        }
        for precision: UInt8 in [12, 16] {  // valid JPEG sample precisions libjpeg's 8-bit build does not decode
            var deep = data
            deep[sof + 4] = precision
            XCTAssertThrowsError(try AvatarPipeline.resize(data: deep, options: ResizeOptions())) {
                guard case .unsupported(let why) = $0 as? PNGImageError else { return XCTFail("\(precision): \($0)") }
                XCTAssertTrue(why.contains("precision"), why)
            }
        }
        var rng = LCG(state: 11)
        for _ in 0..<200 {
            var bytes = data
            for _ in 0..<(1 + rng.below(4)) { bytes[2 + rng.below(bytes.count - 2)] = UInt8(rng.below(256)) }
            _ = try? AvatarPipeline.resize(data: bytes, options: ResizeOptions(size: 16))
        }
    }

    func testDeclaredSizeBombIsRefused() throws {
        var data = try jpeg(width: 16, height: 16) { _, _ in [1, 2, 3] }
        // Patch the SOF0 frame header: FF C0, length, precision, height, width.
        let sof = try XCTUnwrap((0..<data.count - 1).first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 })
        data.replaceSubrange((sof + 5)..<(sof + 9), with: [0xEA, 0x60, 0xEA, 0x60])  // 60000 x 60000
        let start = Date()
        XCTAssertThrowsError(try AvatarPipeline.resize(data: data, options: ResizeOptions())) {
            XCTAssertEqual($0 as? PNGImageError, .tooLarge(width: 60000, height: 60000, maxSide: 30_000, maxPixels: 100_000_000))
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.5)
    }
}

/// Sizes that are not a multiple of the DCT scale: the partial last block is weighted by its real extent.
final class JPEGEdgeTests: XCTestCase {
    /// Mean red of each output row, or of each output column.
    private func means(_ image: RGBAImage, columns: Bool) -> [Double] {
        (0..<image.height).map { i in
            Double((0..<image.width).reduce(0) { $0 + Int((columns ? image[i, $1] : image[$1, i]).r) }) / Double(image.width)
        }
    }

    /// A light ramp along one axis whose last row (or column) is black, as JPEG and as the same
    /// decoded pixels in a PNG; every output row (column) of both, crop and pad, within 2 levels.
    private func checkEdge(across extent: Int, along length: Int, columns: Bool,
                           file: StaticString = #filePath, line: UInt = #line) throws {
        let (w, h) = columns ? (extent, length) : (length, extent)
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let at = columns ? x : y
                let v = at == extent - 1 ? 0 : UInt8(200 + 39 * at / extent)
                for c in 0..<3 { pixels[(y * w + x) * 3 + c] = v }
            }
        }
        let jpeg = try JPEGWriter(width: w, height: h, components: 3, pixels: pixels, quality: 95).encode()
        // The same pixels as libjpeg decodes them at full size, as a PNG.
        let full = try AvatarPipeline.decode(data: jpeg)
        var rgb = [UInt8]()
        rgb.reserveCapacity(w * h * 3)
        for i in stride(from: 0, to: full.pixels.count, by: 4) { rgb += full.pixels[i..<i + 3] }
        let png = try PNGWriter(width: w, height: h, colorType: .rgb, bitDepth: 8, rows: rgb, level: 1).encode()
        for fit in [FitMode.crop, .pad] {
            let options = ResizeOptions(fit: fit)
            let fromJPEG = means(try decodeSquare(try AvatarPipeline.resize(data: jpeg, options: options)), columns: columns)
            let fromPNG = means(try decodeSquare(try AvatarPipeline.resize(data: png, options: options)), columns: columns)
            // The last row (pad: 100x75 centred, rows 12...86) holds the black one and, in a scaled
            // decode, the encoder's padding below it: weighted 3/8 it was 205 where the PNG gives
            // 223 (pad), weighted as a whole row, as before that, 150.
            for y in 0..<100 where fromPNG[y] > 0 {
                XCTAssertEqual(fromJPEG[y], fromPNG[y], accuracy: 2, "\(w)x\(h) \(fit) \(columns ? "column" : "row") \(y)",
                               file: file, line: line)
            }
        }
    }

    func testLastPartialBlockRowAgreesWithTheSamePixelsAsPNG() throws {
        // 1601x1203 would decode at 1/8 to 201x151, the last row holding 3 real rows and 5 of padding.
        try checkEdge(across: 1203, along: 1601, columns: false)
    }

    func testLastPartialBlockColumnAgreesWithTheSamePixelsAsPNG() throws {
        try checkEdge(across: 1203, along: 1601, columns: true)
    }

    func testEvenEdgeAgreesWithTheSamePixelsAsPNG() throws {
        // 1202 rows: 2 real rows in the last 8, block-aligned at 1/2.
        try checkEdge(across: 1202, along: 1602, columns: false)
    }
}

/// EXIF orientation in PNG (eXIf) and the pad geometry under every orientation.
final class OrientationTests: XCTestCase {
    /// Big-endian TIFF data (PNG eXIf holds it without JPEG's "Exif\0\0") with one entry: Orientation.
    static func tiff(orientation: Int) -> [UInt8] {
        Array("MM".utf8) + [0, 42, 0, 0, 0, 8] + [0, 1]
            + [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation), 0, 0] + [0, 0, 0, 0]
    }

    private func png(_ image: RGBAImage, orientation: Int?) throws -> [UInt8] {
        var writer = PNGWriter(width: image.width, height: image.height, colorType: .rgba, bitDepth: 8, rows: image.pixels)
        if let orientation { writer.exif = Self.tiff(orientation: orientation) }
        return try writer.encode()
    }

    private func picture(width: Int, height: Int) -> RGBAImage {
        var rng = LCG(state: 5)
        var pixels = [UInt8]()
        for _ in 0..<width * height { pixels += [UInt8(rng.below(256)), UInt8(rng.below(256)), UInt8(rng.below(256)), 255] }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    func testPNGeXIfOrientationIsApplied() throws {
        let plain = picture(width: 6, height: 4)
        for o in 1...8 {
            let data = try png(plain, orientation: o)
            let info = try AvatarPipeline.info(data: data)
            XCTAssertEqual([info.width, info.height], Orientation.swapsAxes(o) ? [4, 6] : [6, 4], "orientation \(o)")
            XCTAssertEqual(try AvatarPipeline.decode(data: data), Orientation.apply(o, to: plain), "orientation \(o)")
        }
    }

    func testPadIsCentredTheSameUnderEveryOrientation() throws {
        // 200x98 pads to 100x49: 51 border rows, 25 above and 26 below. Turned images must
        // put their border where the same picture stored upright puts it.
        let plain = picture(width: 200, height: 98)
        for o in 1...8 {
            // Stored so that turning by o shows `plain`: the inverse turn of `plain`.
            let inverse = [1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 8, 7: 7, 8: 6][o] ?? 1
            let stored = Orientation.apply(inverse, to: plain)
            XCTAssertEqual(Orientation.apply(o, to: stored), plain, "orientation \(o) inverse")
            let options = ResizeOptions(fit: .pad)
            let turned = try decodeSquare(try AvatarPipeline.resize(data: try png(stored, orientation: o), options: options))
            let upright = try decodeSquare(try AvatarPipeline.resize(data: try png(plain, orientation: nil), options: options))
            for y in [24, 25, 73, 74] {
                XCTAssertEqual(turned[50, y].a, upright[50, y].a, "orientation \(o) row \(y)")
            }
            var worst = 0
            for i in 0..<turned.pixels.count { worst = max(worst, abs(Int(turned.pixels[i]) - Int(upright.pixels[i]))) }
            XCTAssertLessThanOrEqual(worst, 1, "orientation \(o)")
        }
    }
}
