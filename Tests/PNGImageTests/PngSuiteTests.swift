import Foundation
import XCTest
@testable import PNGImage

/// Willem van Schaik's PngSuite, as Debian's libsixel-examples installs it (scripts/install-deps
/// lists the package; nothing is vendored). Valid files decode and resize like an exact area
/// average of their decode; gamma is honoured; every corrupt `x*` file is refused.
final class PngSuiteTests: XCTestCase {
    static let root = "/usr/share/doc/libsixel-examples/examples/images/pngsuite"

    /// Every PngSuite file (relative path, bytes); skips without the package, fails under CI=true.
    private func suite() throws -> [(name: String, bytes: [UInt8])] {
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: Self.root))?.filter { $0.hasSuffix(".png") }.sorted() ?? []
        if names.count < 150 {
            let why = "PngSuite not found under \(Self.root) (\(names.count) files): apt-get install libsixel-examples"
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail(why); return [] }
            throw XCTSkip(why)
        }
        return try names.map { ($0, [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.root + "/" + $0)))) }
    }

    private func isCorrupt(_ name: String) -> Bool { (name as NSString).lastPathComponent.hasPrefix("x") }

    func testCorruptFilesAreRefused() throws {
        let corrupt = try suite().filter { isCorrupt($0.name) }
        XCTAssertEqual(corrupt.count, 14)
        for (name, bytes) in corrupt {
            for attempt in ["info", "decode", "resize"] {
                do {
                    switch attempt {
                    case "info": _ = try AvatarPipeline.info(data: bytes); continue  // a header may be fine
                    case "decode": _ = try AvatarPipeline.decode(data: bytes)
                    default: _ = try AvatarPipeline.resize(data: bytes, options: ResizeOptions(size: 16))
                    }
                    XCTFail("\(name): \(attempt) accepted a corrupt file")
                } catch {
                    switch error {
                    case .notAnImage, .truncated, .corrupt: break
                    default: XCTFail("\(name): \(attempt): \(error)")
                    }
                }
            }
        }
    }

    func testValidFilesResizeAsAnExactAreaAverage() throws {
        let valid = try suite().filter { !isCorrupt($0.name) }
        XCTAssertEqual(valid.count, 160)
        for (name, bytes) in valid {
            let image: RGBAImage
            do { image = try AvatarPipeline.decode(data: bytes) } catch { XCTFail("\(name): \(error)"); continue }
            let info = try AvatarPipeline.info(data: bytes)
            XCTAssertEqual([image.width, image.height], [info.width, info.height], name)
            for size in [16, 100] {
                let out = try decodeSquare(try AvatarPipeline.resize(data: bytes, options: ResizeOptions(size: size)),
                                           size: size)
                let want = referenceBoxFilter(image, size: size)
                var worst = 0.0
                for i in 0..<want.count where i % 4 == 3 || want[i - i % 4 + 3] >= 8 {
                    worst = max(worst, abs(Double(out.pixels[i]) - want[i]))
                }
                XCTAssertLessThanOrEqual(worst, 0.51, "\(name) -> \(size)")
            }
        }
    }

    /// The file gamma of a PngSuite file's gAMA chunk, when that is its only colour chunk.
    private func fileGamma(_ png: [UInt8]) -> Double? {
        for other in ["sRGB", "iCCP", "cHRM"] where Chunks.find(other, in: png) != nil { return nil }
        guard let g = Chunks.find("gAMA", in: png), g.length == 4 else { return nil }
        let v = png[g.offset..<g.offset + 4].reduce(0) { $0 << 8 | Int($1) }
        return Double(v) / 100_000
    }

    func testGammaIsHonouredByFormula() throws {
        // Managed decode = sRGB encoding of stored^(1/gamma), per pixel. The unmanaged decode
        // gives the stored samples (scaled to 8 bits: for 16-bit files the tolerance is the
        // formula's change over half an 8-bit step).
        var checked = 0, changed = 0
        for (name, bytes) in try suite() where !isCorrupt(name) {
            guard let gamma = fileGamma(bytes) else { continue }
            let managed = try AvatarPipeline.decode(data: bytes)
            let stored = try AvatarPipeline.decode(data: bytes, options: ResizeOptions(manageColour: false))
            let deep = bytes[24] == 16
            func formula(_ v: Double) -> Double { 255 * ColourTests.srgbEncode(pow(min(255, max(0, v)) / 255, 1 / gamma)) }
            var worst = 0.0
            for i in 0..<stored.pixels.count where i % 4 != 3 && stored.pixels[i - i % 4 + 3] != 0 {
                let v = Double(stored.pixels[i])
                let slack = deep ? max(abs(formula(v + 0.5) - formula(v)), abs(formula(v) - formula(v - 0.5))) : 0
                worst = max(worst, abs(Double(managed.pixels[i]) - formula(v)) - slack)
                if managed.pixels[i] != stored.pixels[i] { changed += 1 }
            }
            for i in stride(from: 3, to: stored.pixels.count, by: 4) where managed.pixels[i] != stored.pixels[i] {
                XCTFail("\(name): alpha changed at \(i / 4)")
                break
            }
            XCTAssertLessThanOrEqual(worst, 1.0, "\(name) gamma \(gamma)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 140)
        XCTAssertGreaterThan(changed, 10_000)
    }

    func testGammaFilesAgreeOnceGammaIsHonoured() throws {
        // g03...g25 store one picture at six file gammas (with the gamma written on it, and the
        // darkest steps lost to 8-bit rounding at gamma 2.5). Once decoded, the six agree within
        // 2 levels almost everywhere; read as if sRGB they hardly agree anywhere.
        for kind in ["n0g16", "n2c08", "n3p04"] {
            let files = try suite().filter { $0.name.hasPrefix("gamma/") && $0.name.hasSuffix(kind + ".png") }
            XCTAssertEqual(files.count, 6)
            let managed = try files.map { try AvatarPipeline.decode(data: $0.bytes) }
            let raw = try files.map { try AvatarPipeline.decode(data: $0.bytes, options: ResizeOptions(manageColour: false)) }
            /// Share of samples where the six files agree within 2 levels, and the mean spread.
            func agreement(_ images: [RGBAImage]) -> (share: Double, mean: Double) {
                var close = 0, total = 0
                for i in 0..<images[0].pixels.count where i % 4 != 3 {
                    let values = images.map { Int($0.pixels[i]) }
                    let spread = (values.max() ?? 0) - (values.min() ?? 0)
                    if spread <= 2 { close += 1 }
                    total += spread
                }
                let n = Double(images[0].pixels.count / 4 * 3)
                return (Double(close) / n, Double(total) / n)
            }
            let honoured = agreement(managed), ignored = agreement(raw)
            XCTAssertGreaterThan(honoured.share, 0.85, kind)
            XCTAssertLessThan(honoured.mean * 4, ignored.mean, kind)
        }
    }
}
