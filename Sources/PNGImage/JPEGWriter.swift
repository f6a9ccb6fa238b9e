import CPNGStream

/// One JPEG to write with libjpeg-turbo; tests use it to make JPEG inputs.
struct JPEGWriter {
    var width: Int
    var height: Int
    /// 1 grey, 3 RGB, 4 CMYK (stored inverted, as Adobe writes it).
    var components: Int
    /// width × height × components bytes.
    var pixels: [UInt8]
    var quality = 90
    var progressive = false
    /// An APP1 payload starting "Exif\0\0", if any.
    var exif: [UInt8] = []
    /// An ICC profile, written as APP2 ICC_PROFILE markers.
    var iccProfile: [UInt8] = []

    func encode() throws(PNGImageError) -> [UInt8] {
        guard width > 0, height > 0, pixels.count >= width * height * components else {
            throw .encodeFailed("pixel buffer does not match \(width)x\(height)")
        }
        return try ImageSource.encoded { buffer, error in
            pixels.withUnsafeBufferPointer { pixelBytes in
                exif.withUnsafeBufferPointer { exifBytes in
                  iccProfile.withUnsafeBufferPointer { iccBytes in
                    var params = cps_jpeg_write_params()
                    params.icc = iccProfile.isEmpty ? nil : iccBytes.baseAddress
                    params.icc_length = iccProfile.count
                    params.width = UInt32(width)
                    params.height = UInt32(height)
                    params.components = Int32(components)
                    params.quality = Int32(quality)
                    params.progressive = progressive ? 1 : 0
                    params.pixels = pixelBytes.baseAddress
                    params.exif = exifBytes.baseAddress
                    params.exif_length = exif.count
                    return cps_write_jpeg(&params, &buffer, &error)
                  }
                }
            }
        }
    }
}
