/// Writes RGBA pixels as the smallest of the PNG layouts that hold them
/// exactly: truecolour (RGB when opaque), greyscale, or an indexed palette,
/// tagged sRGB.
enum PNGEncoder {
    /// Encodes losslessly; the same pixels always give the same bytes.
    static func encode(_ image: RGBAImage) throws(PNGImageError) -> [UInt8] {
        let pixels = image.pixels
        let count = image.width * image.height
        var opaque = true, grey = true
        for i in 0..<count {
            let p = i * 4
            if pixels[p + 3] != 255 { opaque = false }
            if pixels[p] != pixels[p + 1] || pixels[p] != pixels[p + 2] { grey = false }
        }
        var candidates: [PNGWriter] = [truecolour(image, opaque: opaque)]
        if grey { candidates.append(greyscale(image, opaque: opaque)) }
        if let indexed = palette(image) { candidates.append(indexed) }
        var best: [UInt8]? = nil
        for var candidate in candidates {
            candidate.sRGB = true  // what the pipeline converted to; 13 bytes
            let bytes = try candidate.encode()
            if best == nil || bytes.count < best?.count ?? Int.max { best = bytes }
        }
        guard let result = best else { throw .encodeFailed("no encoding") }
        return result
    }

    private static func truecolour(_ image: RGBAImage, opaque: Bool) -> PNGWriter {
        if !opaque {
            return PNGWriter(width: image.width, height: image.height, colorType: .rgba, bitDepth: 8, rows: image.pixels)
        }
        var rgb = [UInt8]()
        rgb.reserveCapacity(image.width * image.height * 3)
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            rgb.append(image.pixels[i])
            rgb.append(image.pixels[i + 1])
            rgb.append(image.pixels[i + 2])
        }
        return PNGWriter(width: image.width, height: image.height, colorType: .rgb, bitDepth: 8, rows: rgb)
    }

    /// Grey, at the smallest bit depth that represents every level exactly when opaque.
    private static func greyscale(_ image: RGBAImage, opaque: Bool) -> PNGWriter {
        var samples = [UInt16]()
        samples.reserveCapacity(image.width * image.height * (opaque ? 1 : 2))
        var depth = 8
        if opaque {
            depth = 1
            for i in stride(from: 0, to: image.pixels.count, by: 4) {
                let v = image.pixels[i]
                while depth < 8 && Int(v) % (255 / ((1 << depth) - 1)) != 0 { depth *= 2 }
            }
        }
        let scale = UInt16(255 / ((1 << depth) - 1))
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            samples.append(UInt16(image.pixels[i]) / scale)
            if !opaque { samples.append(UInt16(image.pixels[i + 3])) }
        }
        let type: PNGWriter.ColorType = opaque ? .grey : .greyAlpha
        let rows = PNGWriter.pack(samples: samples, width: image.width, height: image.height,
                                  channels: type.channels, bitDepth: depth)
        return PNGWriter(width: image.width, height: image.height, colorType: type, bitDepth: depth, rows: rows)
    }

    /// Indexed colour when there are at most 256 distinct RGBA values; entries
    /// with alpha come first so tRNS stays short, then by first appearance.
    private static func palette(_ image: RGBAImage) -> PNGWriter? {
        var seen: [UInt32: Int] = [:]
        var order: [UInt32] = []
        let pixels = image.pixels
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let key = UInt32(pixels[i]) << 24 | UInt32(pixels[i + 1]) << 16 | UInt32(pixels[i + 2]) << 8
                | UInt32(pixels[i + 3])
            if seen[key] == nil {
                if order.count == 256 { return nil }
                seen[key] = order.count
                order.append(key)
            }
        }
        let entries = order.filter { $0 & 0xFF != 0xFF } + order.filter { $0 & 0xFF == 0xFF }
        var index: [UInt32: UInt16] = [:]
        var colours = [UInt8](), alphas = [UInt8]()
        for (i, key) in entries.enumerated() {
            index[key] = UInt16(i)
            colours += [UInt8(key >> 24), UInt8(key >> 16 & 0xFF), UInt8(key >> 8 & 0xFF)]
            if key & 0xFF != 0xFF { alphas.append(UInt8(key & 0xFF)) }
        }
        let depth = entries.count <= 2 ? 1 : entries.count <= 4 ? 2 : entries.count <= 16 ? 4 : 8
        var samples = [UInt16]()
        samples.reserveCapacity(image.width * image.height)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let key = UInt32(pixels[i]) << 24 | UInt32(pixels[i + 1]) << 16 | UInt32(pixels[i + 2]) << 8
                | UInt32(pixels[i + 3])
            samples.append(index[key] ?? 0)
        }
        let rows = PNGWriter.pack(samples: samples, width: image.width, height: image.height, channels: 1, bitDepth: depth)
        return PNGWriter(width: image.width, height: image.height, colorType: .palette, bitDepth: depth, rows: rows,
                         palette: colours, paletteAlpha: alphas)
    }
}
