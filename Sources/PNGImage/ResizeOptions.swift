/// How a non-square image fills the square output.
public enum FitMode: String, Sendable, CaseIterable {
    /// Take the centred square of the image; nothing is distorted, the edges of the long side are cut.
    case crop
    /// Scale the whole image into the square and leave transparent borders.
    case pad
}

/// What `AvatarPipeline.resize` produces and which inputs it refuses.
public struct ResizeOptions: Sendable, Equatable {
    /// Allowed output sides.
    public static let sizeRange: ClosedRange<Int> = 16...1024

    /// Side of the square output in pixels, within `sizeRange`.
    public var size: Int
    /// Crop to the centred square, or pad with transparency.
    public var fit: FitMode
    /// Largest accepted width × height as declared by the header.
    public var maxInputPixels: Int
    /// Largest accepted width or height as declared by the header.
    public var maxInputSide: Int

    /// Convert ICC-profiled (PNG iCCP, JPEG APP2) and gAMA/cHRM-tagged inputs to sRGB before
    /// averaging. Off treats every input as sRGB (benchmarks, tests).
    public var manageColour: Bool

    /// Defaults: 100 px, crop, at most 100 megapixels and 30,000 px a side, colour managed.
    public init(size: Int = 100, fit: FitMode = .crop, maxInputPixels: Int = 100_000_000, maxInputSide: Int = 30_000,
                manageColour: Bool = true) {
        self.size = size
        self.fit = fit
        self.maxInputPixels = maxInputPixels
        self.maxInputSide = maxInputSide
        self.manageColour = manageColour
    }

    /// Throws `.invalidOptions` naming the first field out of range.
    func validate() throws(PNGImageError) {
        guard Self.sizeRange.contains(size) else {
            throw .invalidOptions("size \(size) is outside \(Self.sizeRange.lowerBound)...\(Self.sizeRange.upperBound)")
        }
        guard maxInputPixels > 0, maxInputSide > 0 else {
            throw .invalidOptions("input limits must be positive")
        }
    }

    /// Throws `.tooLarge` when the declared dimensions exceed the limits.
    func admit(width: Int, height: Int) throws(PNGImageError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if width > maxInputSide || height > maxInputSide || overflow || pixels > maxInputPixels {
            throw .tooLarge(width: width, height: height, maxSide: maxInputSide, maxPixels: maxInputPixels)
        }
    }
}

/// What an image header declares.
public struct ImageInfo: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// "png" or "jpeg".
    public var format: String
    /// The header carries an ICC profile, gAMA or cHRM that decoding converts to sRGB.
    public var colourTagged: Bool

    /// Memberwise.
    public init(width: Int, height: Int, format: String, colourTagged: Bool = false) {
        self.width = width
        self.height = height
        self.format = format
        self.colourTagged = colourTagged
    }
}

/// Decoded pixels: 8-bit RGBA, straight (not premultiplied) alpha, rows top to bottom.
public struct RGBAImage: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// width × height × 4 bytes.
    public var pixels: [UInt8]

    /// Memberwise; `pixels` must hold width × height × 4 bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at (x, y) as (r, g, b, a).
    public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}
