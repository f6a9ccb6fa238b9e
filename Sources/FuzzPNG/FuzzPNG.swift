import FuzzSupport
import PNGImage

/// Fuzz target for avatar images: `AvatarPipeline.info`, `decode` and `resize(data:)` (PNG of
/// every kind, and JPEG, through libpng/libjpeg and the CPNGStream resampler).
///
/// Limits are small (1024 px a side, 2^18 pixels) so one input stays fast. Invariants: no crash;
/// whatever `resize` returns is a PNG that `info` reads back as size × size; `decode` returns
/// width × height × 4 bytes matching `info`.
enum FuzzPNGTarget: FuzzTarget {
    static func run(_ data: UnsafeBufferPointer<UInt8>) {
        let bytes = Array(data)
        let size = 16 + bytes.count % 3
        let options = ResizeOptions(size: size, fit: bytes.count % 2 == 0 ? .crop : .pad,
                                    maxInputPixels: 1 << 18, maxInputSide: 1024)
        let info = try? AvatarPipeline.info(data: bytes)
        if let image = try? AvatarPipeline.decode(data: bytes, options: options) {
            FuzzReplay.invariant(image.pixels.count == image.width * image.height * 4, "decode: \(image.width)x\(image.height), \(image.pixels.count) bytes")
            FuzzReplay.invariant(info.map { $0.width == image.width && $0.height == image.height } ?? false,
                                 "decode gave \(image.width)x\(image.height), info \(String(describing: info))")
        }
        do throws(PNGImageError) {
            let png = try AvatarPipeline.resize(data: bytes, options: options)
            do throws(PNGImageError) {
                let out = try AvatarPipeline.info(data: png)
                FuzzReplay.invariant(out == ImageInfo(width: size, height: size, format: "png"), "resize output is \(out)")
            } catch {
                FuzzReplay.invariant(false, "resize output does not read back: \(error)")
            }
        } catch {
            return
        }
    }
}
