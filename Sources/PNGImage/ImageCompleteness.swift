/// Whether an image's bytes are all there: its container runs to its end marker within the
/// bytes (PNG chunks to IEND, JPEG segments and scans to EOI, a WebP RIFF to its stated
/// length) and every row decodes. For a photo whose encoding was cut short (a .vcf PHOTO whose
/// Base64 lost its last group), so that it is used only when nothing of the image is missing.
/// Other formats (GIF, BMP) are never whole here: they cannot be checked.
public enum ImageCompleteness {
    /// True when `data` is a PNG, JPEG or WebP image that ends where its format says and decodes.
    public static func isWhole(_ data: [UInt8]) -> Bool {
        guard pngEnds(data) || jpegEnds(data) || webpEnds(data) else { return false }
        // Decoded through the small-square resize, which streams rows: memory stays small
        // whatever the image's size, and a row the decoder cannot read is an error.
        return (try? AvatarPipeline.resize(data: data, options: ResizeOptions(size: ResizeOptions.sizeRange.lowerBound))) != nil
    }

    /// The 8-byte signature, then chunks (length, type, data, CRC) up to and including IEND.
    static func pngEnds(_ d: [UInt8]) -> Bool {
        guard d.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return false }
        var i = 8
        while i + 12 <= d.count {
            let length = Int(d[i]) << 24 | Int(d[i + 1]) << 16 | Int(d[i + 2]) << 8 | Int(d[i + 3])
            let isEnd = d[i + 4] == 0x49 && d[i + 5] == 0x45 && d[i + 6] == 0x4E && d[i + 7] == 0x44  // IEND
            guard length <= d.count - i - 12 else { return false }
            if isEnd { return true }
            i += 12 + length
        }
        return false
    }

    /// SOI, then marker segments (each with its length) and entropy-coded scans after SOS, up to EOI.
    static func jpegEnds(_ d: [UInt8]) -> Bool {
        guard d.count >= 4, d[0] == 0xFF, d[1] == 0xD8 else { return false }
        var i = 2
        var inScan = false
        while i < d.count {
            if inScan {
                // Scan data: 0xFF 0x00 is a stuffed byte and 0xFF 0xD0–D7 a restart marker; any other marker ends it.
                guard d[i] == 0xFF else { i += 1; continue }
                guard i + 1 < d.count else { return false }
                let next = d[i + 1]
                if next == 0x00 || (0xD0...0xD7).contains(next) || next == 0xFF { i += next == 0xFF ? 1 : 2; continue }
                inScan = false
                continue
            }
            guard d[i] == 0xFF else { return false }
            while i < d.count, d[i] == 0xFF { i += 1 }  // fill bytes before a marker
            guard i < d.count else { return false }
            let marker = d[i]
            i += 1
            if marker == 0xD9 { return true }  // EOI
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { continue }  // no length
            guard i + 2 <= d.count else { return false }
            let length = Int(d[i]) << 8 | Int(d[i + 1])
            guard length >= 2, length <= d.count - i else { return false }
            i += length
            if marker == 0xDA { inScan = true }  // SOS: its scan data follows the header
        }
        return false
    }

    /// `RIFF`, a little-endian length of what follows, `WEBP`: whole when that many bytes are there.
    static func webpEnds(_ d: [UInt8]) -> Bool {
        guard d.count >= 12, d.starts(with: Array("RIFF".utf8)), Array(d[8..<12]) == Array("WEBP".utf8) else { return false }
        let length = Int(d[4]) | Int(d[5]) << 8 | Int(d[6]) << 16 | Int(d[7]) << 24
        return length <= d.count - 8
    }
}
