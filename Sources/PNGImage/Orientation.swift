/// EXIF orientation (TIFF tag 0x0112): how stored pixels must be turned for display.
enum Orientation {
    /// Whether width and height swap for display (values 5...8).
    static func swapsAxes(_ value: Int) -> Bool { (5...8).contains(value) }

    /// Where a dst_w × dst_h rectangle must sit in the stored size × size square so that,
    /// turned for display, it is centred as `cps_plan_geometry` centres (rounding down): the
    /// square's turn moves an odd border's extra pixel to the other side otherwise.
    static func storedOrigin(_ value: Int, size: Int, width dw: Int, height dh: Int) -> (x: Int, y: Int) {
        let (displayW, displayH) = swapsAxes(value) ? (dh, dw) : (dw, dh)
        let x = (size - displayW) / 2, y = (size - displayH) / 2
        switch value {
        case 2: return (size - x - dw, y)
        case 3: return (size - x - dw, size - y - dh)
        case 4: return (x, size - y - dh)
        case 5: return (y, x)
        case 6: return (y, size - x - dh)
        case 7: return (size - y - dw, size - x - dh)
        case 8: return (size - y - dw, x)
        default: return (x, y)
        }
    }

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
