import CLibQREncode

/// A QR code (ISO/IEC 18004) made by libqrencode: the square of modules, dark or light, that
/// a phone's camera reads back to the text. Error correction level M (15 % of the code may be
/// lost to a fold or a smudge on paper), the smallest version that holds the text, its bytes
/// encoded as they are (UTF-8) in the modes libqrencode finds shortest.
public struct QRCode: Sendable, Equatable {
    /// Modules per side (21 for version 1, 4 more per version up to 177).
    public let size: Int
    /// Row by row, `true` for a dark module.
    public let modules: [Bool]

    /// The code of `text`. Fails only for text no QR code can hold (over 2331 bytes at level M)
    /// or when libqrencode cannot allocate.
    public init(_ text: String) throws(SlipError) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw .qrCode(reason: "no text to encode") }
        let code = bytes.withUnsafeBufferPointer { QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, QR_ECLEVEL_M) }
        guard let code else {
            throw .qrCode(reason: "\(bytes.count) bytes do not fit in a QR code (at most 2331 at error correction level M)")
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        size = width
        // Bit 0 of each byte is the module's colour; the others say what part of the code it is.
        modules = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// Whether the module in column `x`, row `y` is dark; outside the code (its quiet zone), light.
    public func isDark(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < size && y < size && modules[y * size + x]
    }

    /// The code as lines of text for a terminal, two rows of modules per line with the UTF-8
    /// half blocks (U+2580, U+2584, U+2588, space), dark modules drawn in the terminal's
    /// foreground colour on its background. Scanners need dark on light: `inverted` (the
    /// default) draws the light modules and the quiet zone as blocks instead, so the code
    /// reads on the usual light-on-dark terminal and, as a negative, on most phones' scanners
    /// in a dark-on-light one too. The quiet zone is `margin` modules wide (the standard asks
    /// for 4; 2 is what terminals' QR printers such as qrencode -t UTF8 use by default).
    public func terminalText(inverted: Bool = true, margin: Int = 2) -> String {
        var lines: [String] = []
        var y = -margin
        while y < size + margin {
            var line = ""
            for x in -margin..<(size + margin) {
                // A cell is "on" (drawn as block) when the module is dark, or light when inverted.
                let top = isDark(x: x, y: y) != inverted
                let bottom = y + 1 < size + margin ? isDark(x: x, y: y + 1) != inverted : false
                switch (top, bottom) {
                case (true, true): line += "\u{2588}"
                case (true, false): line += "\u{2580}"
                case (false, true): line += "\u{2584}"
                case (false, false): line += " "
                }
            }
            lines.append(line)
            y += 2
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
