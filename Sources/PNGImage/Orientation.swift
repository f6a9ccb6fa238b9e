/// EXIF orientation (TIFF tag 0x0112): how stored pixels must be turned for display.
enum Orientation {
    /// Whether width and height swap for display (values 5...8).
    static func swapsAxes(_ value: Int) -> Bool { (5...8).contains(value) }

    /// The image as it should be displayed; `value` 1 or unknown returns it unchanged.
    static func apply(_ value: Int, to image: RGBAImage) -> RGBAImage {
        guard (2...8).contains(value) else { return image }
        let w = image.width, h = image.height
        let (ow, oh) = swapsAxes(value) ? (h, w) : (w, h)
        var out = [UInt8](repeating: 0, count: ow * oh * 4)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<oh {
                    for x in 0..<ow {
                        // Displayed (x, y) comes from stored (sx, sy).
                        let (sx, sy): (Int, Int)
                        switch value {
                        case 2: (sx, sy) = (w - 1 - x, y)
                        case 3: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case 4: (sx, sy) = (x, h - 1 - y)
                        case 5: (sx, sy) = (y, x)
                        case 6: (sx, sy) = (y, h - 1 - x)
                        case 7: (sx, sy) = (w - 1 - y, h - 1 - x)
                        default: (sx, sy) = (w - 1 - y, x)
                        }
                        let s = (sy * w + sx) * 4, d = (y * ow + x) * 4
                        dst[d] = src[s]
                        dst[d + 1] = src[s + 1]
                        dst[d + 2] = src[s + 2]
                        dst[d + 3] = src[s + 3]
                    }
                }
            }
        }
        return RGBAImage(width: ow, height: oh, pixels: out)
    }
}
