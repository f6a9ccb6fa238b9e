import CPNGStream

/// One PNG to write with libpng, in any colour type and bit depth: used by the
/// avatar encoder and by tests that need inputs of every kind.
struct PNGWriter {
    /// PNG colour types (PNG spec §11.2.2).
    enum ColorType: Int32 {
        case grey = 0, rgb = 2, palette = 3, greyAlpha = 4, rgba = 6

        /// Samples per pixel.
        var channels: Int {
            switch self {
            case .grey, .palette: return 1
            case .greyAlpha: return 2
            case .rgb: return 3
            case .rgba: return 4
            }
        }
    }

    var width: Int
    var height: Int
    var colorType: ColorType
    var bitDepth: Int
    /// Packed rows as `pack` makes them.
    var rows: [UInt8]
    var interlaced = false
    var level = 9
    /// RGB triples, for `.palette`.
    var palette: [UInt8] = []
    /// Alpha per palette entry (may be shorter than the palette).
    var paletteAlpha: [UInt8] = []
    /// The one fully transparent colour for `.grey` (1 sample) or `.rgb` (3 samples).
    var transparentColour: [UInt16]? = nil
    /// Tag the pixels as sRGB (an sRGB chunk).
    var sRGB = false
    /// A gAMA chunk (file gamma, e.g. 0.45455), an iCCP profile, an eXIf payload (TIFF data).
    var gamma: Double? = nil
    var iccProfile: [UInt8] = []
    var exif: [UInt8] = []

    /// Bytes per packed row.
    static func rowBytes(width: Int, channels: Int, bitDepth: Int) -> Int {
        (width * channels * bitDepth + 7) / 8
    }

    /// Packs samples (one per channel per pixel, row-major, each < 2^bitDepth)
    /// into PNG rows: sub-byte samples MSB first, 16-bit big-endian.
    static func pack(samples: [UInt16], width: Int, height: Int, channels: Int, bitDepth: Int) -> [UInt8] {
        let perRow = width * channels
        let stride = rowBytes(width: width, channels: channels, bitDepth: bitDepth)
        var out = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height {
            let base = y * stride
            for i in 0..<perRow {
                let v = samples[y * perRow + i]
                switch bitDepth {
                case 16:
                    out[base + 2 * i] = UInt8(v >> 8)
                    out[base + 2 * i + 1] = UInt8(v & 0xFF)
                case 8:
                    out[base + i] = UInt8(v & 0xFF)
                default:
                    let bit = i * bitDepth
                    let shift = 8 - bitDepth - bit % 8
                    out[base + bit / 8] |= UInt8((Int(v) & ((1 << bitDepth) - 1)) << shift)
                }
            }
        }
        return out
    }

    /// Encodes with zlib `level`, libpng's default filter choice, and no metadata.
    func encode() throws(PNGImageError) -> [UInt8] {
        let stride = PNGWriter.rowBytes(width: width, channels: colorType.channels, bitDepth: bitDepth)
        guard width > 0, height > 0, rows.count >= stride * height else {
            throw .encodeFailed("pixel buffer does not match \(width)x\(height)")
        }
        return try ImageSource.encoded { buffer, error in
            rows.withUnsafeBufferPointer { rowBytes in
                palette.withUnsafeBufferPointer { paletteBytes in
                    paletteAlpha.withUnsafeBufferPointer { alphaBytes in
                      iccProfile.withUnsafeBufferPointer { iccBytes in
                        exif.withUnsafeBufferPointer { exifBytes in
                        var params = cps_write_params()
                        params.srgb = sRGB ? 1 : 0
                        params.gamma_fixed = gamma.map { UInt32(($0 * 100_000).rounded()) } ?? 0
                        params.icc = iccProfile.isEmpty ? nil : iccBytes.baseAddress
                        params.icc_length = iccProfile.count
                        params.exif = exif.isEmpty ? nil : exifBytes.baseAddress
                        params.exif_length = exif.count
                        params.width = UInt32(width)
                        params.height = UInt32(height)
                        params.bit_depth = Int32(bitDepth)
                        params.color_type = colorType.rawValue
                        params.interlace = interlaced ? 1 : 0
                        params.level = Int32(level)
                        params.rows = rowBytes.baseAddress
                        params.row_bytes = stride
                        params.palette = paletteBytes.baseAddress
                        params.palette_count = Int32(palette.count / 3)
                        params.trns = alphaBytes.baseAddress
                        params.trns_count = Int32(paletteAlpha.count)
                        if let key = transparentColour {
                            params.has_trns_colour = 1
                            params.trns_grey = key.first ?? 0
                            if key.count == 3 { params.trns_rgb = (key[0], key[1], key[2]) }
                        }
                        return cps_write_png(&params, &buffer, &error)
                        }
                      }
                    }
                }
            }
        }
    }
}
