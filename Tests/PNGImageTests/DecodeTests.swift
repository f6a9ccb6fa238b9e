import XCTest
@testable import PNGImage

/// Decoding every PNG kind at its own size, against independently computed pixels.
final class DecodeTests: XCTestCase {
    private func check(_ f: Fixture, file: StaticString = #filePath, line: UInt = #line) throws {
        let image = try AvatarPipeline.decode(data: f.png)
        XCTAssertEqual(image.width, f.width, f.name, file: file, line: line)
        XCTAssertEqual(image.height, f.height, f.name, file: file, line: line)
        var bad = 0
        for i in 0..<f.expected.count where abs(Int(image.pixels[i]) - Int(f.expected[i])) > f.tolerance {
            if bad < 3 { XCTFail("\(f.name): byte \(i) is \(image.pixels[i]), want \(f.expected[i])", file: file, line: line) }
            bad += 1
        }
    }

    func testEveryColourTypeAndDepth() throws {
        for (type, depth, trns) in Fixtures.kinds {
            try check(try Fixtures.make(type, depth: depth, trns: trns, width: 13, height: 11))
        }
    }

    func testEveryKindInterlaced() throws {
        for (type, depth, trns) in Fixtures.kinds {
            try check(try Fixtures.make(type, depth: depth, trns: trns, width: 13, height: 11, interlaced: true))
        }
    }

    func testInterlacedTinyAndOddSizes() throws {
        // Sizes where some Adam7 passes are empty.
        for (w, h) in [(1, 1), (1, 9), (9, 1), (2, 2), (3, 7), (5, 3), (8, 8), (17, 4)] {
            try check(try Fixtures.make(.rgba, depth: 8, trns: false, width: w, height: h, interlaced: true))
            try check(try Fixtures.make(.palette, depth: 2, trns: true, width: w, height: h, interlaced: true))
        }
    }

    func testOddSizes() throws {
        for (w, h) in [(1, 1), (1, 5000), (5000, 1), (3, 7)] {
            try check(try Fixtures.make(.rgb, depth: 8, trns: false, width: w, height: h))
            try check(try Fixtures.make(.grey, depth: 1, trns: false, width: w, height: h))
        }
    }

    func testInfoReadsHeaderOnly() throws {
        let f = try Fixtures.make(.rgba, depth: 16, trns: false, width: 37, height: 5)
        XCTAssertEqual(try AvatarPipeline.info(data: f.png), ImageInfo(width: 37, height: 5, format: "png"))
        // Pixel data need not be there for info: cut the file just inside the first IDAT.
        let idat = try XCTUnwrap(Chunks.find("IDAT", in: f.png))
        XCTAssertEqual(try AvatarPipeline.info(data: Array(f.png[..<idat.offset])).width, 37)
        XCTAssertEqual(try AvatarPipeline.info(data: Chunks.declaring(width: 100_000, height: 100_000)),
                       ImageInfo(width: 100_000, height: 100_000, format: "png"))
    }

    func testMetadataChunksAreIgnored() throws {
        let f = try Fixtures.make(.rgb, depth: 8, trns: false, width: 4, height: 4)
        let idat = try XCTUnwrap(Chunks.find("IDAT", in: f.png))
        let text = Chunks.chunk("tEXt", Array("Comment\u{0}hello".utf8))
        let iccp = Chunks.chunk("iCCP", Array("x\u{0}\u{0}".utf8) + [0x78, 0x9C, 0xFF, 0xFF])  // broken profile
        let withMeta = Array(f.png[..<(idat.offset - 8)]) + text + iccp + Array(f.png[(idat.offset - 8)...])
        XCTAssertEqual(try AvatarPipeline.decode(data: withMeta).pixels, try AvatarPipeline.decode(data: f.png).pixels)
    }
}
