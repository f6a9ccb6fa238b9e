import XCTest
@testable import PNGImage

/// Deterministic pseudo-random numbers for test images.
struct LCG {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state >> 33
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// One test input: PNG bytes plus the RGBA8 a correct decoder must produce.
struct Fixture {
    var name: String
    var png: [UInt8]
    var expected: [UInt8]
    var width: Int
    var height: Int
    /// 16-bit inputs may round either way when scaled to 8 bits.
    var tolerance: Int
}

enum Fixtures {
    /// Every PNG kind: (colour type, bit depth, tRNS, label).
    static let kinds: [(PNGWriter.ColorType, Int, Bool)] = [
        (.grey, 1, false), (.grey, 2, false), (.grey, 4, false), (.grey, 8, false), (.grey, 16, false),
        (.grey, 8, true), (.grey, 16, true), (.grey, 2, true),
        (.greyAlpha, 8, false), (.greyAlpha, 16, false),
        (.rgb, 8, false), (.rgb, 16, false), (.rgb, 8, true), (.rgb, 16, true),
        (.rgba, 8, false), (.rgba, 16, false),
        (.palette, 1, false), (.palette, 2, false), (.palette, 4, false), (.palette, 8, false),
        (.palette, 1, true), (.palette, 2, true), (.palette, 4, true), (.palette, 8, true),
    ]

    static func scale(_ v: Int, depth: Int) -> Int {
        depth == 16 ? Int((Double(v) * 255 / 65535).rounded()) : v * 255 / ((1 << depth) - 1)
    }

    /// A noisy image of the given kind with its expected decode.
    static func make(_ type: PNGWriter.ColorType, depth: Int, trns: Bool, width: Int, height: Int,
                     interlaced: Bool = false, seed: UInt64 = 1) throws -> Fixture {
        var rng = LCG(state: seed &+ UInt64(type.rawValue) * 100 &+ UInt64(depth))
        let maxV = (1 << depth) - 1
        let n = width * height
        var samples = [UInt16]()
        var expected = [UInt8]()
        var writer = PNGWriter(width: width, height: height, colorType: type, bitDepth: depth, rows: [])
        writer.interlaced = interlaced
        var paletteRGBA: [(Int, Int, Int, Int)] = []
        if type == .palette {
            let entries = 1 << depth
            for i in 0..<entries {
                let a = trns ? (i == 0 ? 0 : (i == 1 ? 128 : 255)) : 255
                paletteRGBA.append((rng.below(256), rng.below(256), rng.below(256), a))
                writer.palette += [UInt8(paletteRGBA[i].0), UInt8(paletteRGBA[i].1), UInt8(paletteRGBA[i].2)]
            }
            if trns { writer.paletteAlpha = paletteRGBA.prefix(min(2, entries)).map { UInt8($0.3) } }
        }
        let key = trns && type != .palette ? (0..<(type == .rgb ? 3 : 1)).map { _ in UInt16(rng.below(maxV + 1)) } : nil
        writer.transparentColour = key
        for i in 0..<n {
            var px = (0..<type.channels).map { _ in UInt16(rng.below(maxV + 1)) }
            if let key, i % 5 == 0 { px = key }  // some pixels hit the transparent key
            samples += px
            var rgba: [Int]
            switch type {
            case .grey:
                let g = scale(Int(px[0]), depth: depth)
                rgba = [g, g, g, (key != nil && px == key!) ? 0 : 255]
            case .greyAlpha:
                let g = scale(Int(px[0]), depth: depth)
                rgba = [g, g, g, scale(Int(px[1]), depth: depth)]
            case .rgb:
                rgba = px.map { scale(Int($0), depth: depth) } + [(key != nil && px == key!) ? 0 : 255]
            case .rgba:
                rgba = px.map { scale(Int($0), depth: depth) }
            case .palette:
                let e = paletteRGBA[Int(px[0])]
                rgba = [e.0, e.1, e.2, e.3]
            }
            if rgba[3] == 0 { rgba = [0, 0, 0, 0] }  // colour under alpha 0 is not kept
            expected += rgba.map { UInt8($0) }
        }
        writer.rows = PNGWriter.pack(samples: samples, width: width, height: height, channels: type.channels,
                                     bitDepth: depth)
        let label = "\(type)\(depth)\(trns ? "+tRNS" : "")\(interlaced ? "-adam7" : "") \(width)x\(height)"
        return Fixture(name: label, png: try writer.encode(), expected: expected, width: width, height: height,
                       tolerance: depth == 16 ? 1 : 0)
    }

    /// A width×height image where pixel(x, y) gives the RGBA, as an RGBA8 PNG.
    static func rgba(width: Int, height: Int, interlaced: Bool = false,
                     _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) throws -> [UInt8] {
        var rows = [UInt8]()
        rows.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let p = pixel(x, y)
                rows += [p.0, p.1, p.2, p.3]
            }
        }
        var writer = PNGWriter(width: width, height: height, colorType: .rgba, bitDepth: 8, rows: rows)
        writer.interlaced = interlaced
        writer.level = 1
        return try writer.encode()
    }

    /// A solid-colour image.
    static func solid(width: Int, height: Int, _ c: (UInt8, UInt8, UInt8, UInt8)) throws -> [UInt8] {
        try rgba(width: width, height: height) { _, _ in c }
    }
}

/// PNG chunk surgery for crafted and damaged files.
enum Chunks {
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    /// A header declaring width×height RGB8, followed by a tiny IDAT and IEND.
    static func declaring(width: UInt32, height: UInt32) -> [UInt8] {
        let ihdr = be32(width) + be32(height) + [8, 2, 0, 0, 0]
        // zlib stream of a few zero bytes (stored block).
        let idat: [UInt8] = [0x78, 0x01, 0x01, 0x04, 0x00, 0xFB, 0xFF, 0, 0, 0, 0, 0x00, 0x04, 0x00, 0x01]
        return signature + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", [])
    }

    /// (offset, length) of the first chunk of the given type's data.
    static func find(_ type: String, in png: [UInt8]) -> (offset: Int, length: Int)? {
        var i = 8
        while i + 8 <= png.count {
            let length = Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
            if String(decoding: png[i + 4..<i + 8], as: UTF8.self) == type { return (i + 8, length) }
            i += 12 + length
        }
        return nil
    }
}

/// Reference box filter (centre crop to size×size): for each output pixel, the coverage-weighted
/// premultiplied mean of the source pixels its rectangle overlaps.
func referenceBoxFilter(_ src: RGBAImage, size: Int) -> [Double] {
    let side = Double(min(src.width, src.height))
    let x0 = (Double(src.width) - side) / 2, y0 = (Double(src.height) - side) / 2, step = side / Double(size)
    var out = [Double]()
    for oy in 0..<size {
        for ox in 0..<size {
            let ax = x0 + Double(ox) * step, bx = ax + step, ay = y0 + Double(oy) * step, by = ay + step
            var sum = [0.0, 0.0, 0.0, 0.0], area = 0.0
            for y in Int(ay.rounded(.down))..<min(src.height, Int(by.rounded(.up))) {
                let cy = min(by, Double(y + 1)) - max(ay, Double(y))
                for x in Int(ax.rounded(.down))..<min(src.width, Int(bx.rounded(.up))) {
                    let w = (min(bx, Double(x + 1)) - max(ax, Double(x))) * cy
                    let p = src[x, y], a = Double(p.a)
                    sum[0] += w * Double(p.r) * a
                    sum[1] += w * Double(p.g) * a
                    sum[2] += w * Double(p.b) * a
                    sum[3] += w * a
                    area += w
                }
            }
            if sum[3] == 0 { out += [0, 0, 0, 0] } else { out += [sum[0] / sum[3], sum[1] / sum[3], sum[2] / sum[3], sum[3] / area] }
        }
    }
    return out
}

/// Decodes an output PNG and checks it is size×size.
func decodeSquare(_ png: [UInt8], size: Int = 100, file: StaticString = #filePath, line: UInt = #line) throws -> RGBAImage {
    let image = try AvatarPipeline.decode(data: png)
    XCTAssertEqual(image.width, size, "width", file: file, line: line)
    XCTAssertEqual(image.height, size, "height", file: file, line: line)
    return image
}

/// Asserts that pixel (x, y) of `image` is `want` (RGBA) within `tolerance` per channel.
func near(_ image: RGBAImage, _ x: Int, _ y: Int, _ want: [Int], _ tolerance: Int = 4,
          file: StaticString = #filePath, line: UInt = #line) {
    let p = image[x, y]
    let got = [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
    XCTAssertTrue(zip(got, want).allSatisfy { abs($0 - $1) <= tolerance }, "(\(x), \(y)) is \(got), want \(want)",
                  file: file, line: line)
}
