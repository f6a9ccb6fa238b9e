import CJPEGTestWriter
import Glibc

/// One JPEG to write with libjpeg-turbo; the image tests make their JPEG inputs with it (the
/// product decodes JPEG and never writes one, so the encoder lives here, not in PNGImage).
public struct JPEGWriter {
    /// Why a JPEG could not be written.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public var width: Int
    public var height: Int
    /// 1 grey, 3 RGB, 4 CMYK (stored inverted, as Adobe writes it).
    public var components: Int
    /// width × height × components bytes.
    public var pixels: [UInt8]
    public var quality: Int
    public var progressive: Bool
    /// An APP1 payload starting "Exif\0\0", if any.
    public var exif: [UInt8]
    /// An ICC profile, written as APP2 ICC_PROFILE markers.
    public var iccProfile: [UInt8] = []

    public init(width: Int, height: Int, components: Int, pixels: [UInt8], quality: Int = 90, progressive: Bool = false,
                exif: [UInt8] = []) {
        self.width = width
        self.height = height
        self.components = components
        self.pixels = pixels
        self.quality = quality
        self.progressive = progressive
        self.exif = exif
    }

    public func encode() throws(Failure) -> [UInt8] {
        guard width > 0, height > 0, pixels.count >= width * height * components else {
            throw Failure(description: "pixel buffer does not match \(width)x\(height)")
        }
        var message = [CChar](repeating: 0, count: 256)
        var length = 0
        let data: UnsafeMutablePointer<UInt8>? = pixels.withUnsafeBufferPointer { pixelBytes in
            exif.withUnsafeBufferPointer { exifBytes in
                iccProfile.withUnsafeBufferPointer { iccBytes in
                    var params = cjw_params()
                    params.width = UInt32(width)
                    params.height = UInt32(height)
                    params.components = Int32(components)
                    params.quality = Int32(quality)
                    params.progressive = progressive ? 1 : 0
                    params.pixels = pixelBytes.baseAddress
                    params.exif = exifBytes.baseAddress
                    params.exif_length = exif.count
                    params.icc = iccProfile.isEmpty ? nil : iccBytes.baseAddress
                    params.icc_length = iccProfile.count
                    return cjw_write_jpeg(&params, &length, &message, message.count)
                }
            }
        }
        guard let data else {
            throw Failure(description: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { free(data) }
        return Array(UnsafeBufferPointer(start: data, count: length))
    }
}
