import CPNGStream

/// Avatar images: header inspection, streaming decode + area-average resize to a
/// square, and compact PNG output. PNG of every kind and JPEG (libjpeg-turbo,
/// EXIF orientation honoured) are read. Memory stays near output size whatever
/// the input, except progressive JPEGs, whose coefficients libjpeg must buffer.
public enum AvatarPipeline {
    /// Reads an image file (PNG, JPEG if supported) and returns a size×size PNG.
    /// The file is streamed, never loaded whole.
    public static func resize(file path: String, options: ResizeOptions) throws(PNGImageError) -> [UInt8] {
        try options.validate()
        let source = try ImageSource.open(path: path)
        return try resize(source, options: options)
    }

    /// Resizes an in-memory image (PNG, JPEG if supported) to a size×size PNG.
    public static func resize(data: [UInt8], options: ResizeOptions) throws(PNGImageError) -> [UInt8] {
        try options.validate()
        return try withPinned(data) { bytes throws(PNGImageError) in
            try resize(try ImageSource.open(bytes: bytes), options: options)
        }
    }

    /// Reads the header only (no pixel data is decoded) and reports size and format.
    /// Width and height are as displayed: swapped when EXIF orientation turns the image.
    public static func info(data: [UInt8]) throws(PNGImageError) -> ImageInfo {
        try withPinned(data) { bytes throws(PNGImageError) in
            let source = try ImageSource.open(bytes: bytes)
            let swap = Orientation.swapsAxes(source.orientation)
            return ImageInfo(width: swap ? source.height : source.width, height: swap ? source.width : source.height,
                             format: source.format, colourTagged: source.colourTagged)
        }
    }

    /// Decodes a whole image at its own size to 8-bit RGBA (16-bit samples are
    /// scaled, EXIF orientation applied, converted to sRGB), refusing inputs beyond the limits in `options`.
    public static func decode(data: [UInt8], options: ResizeOptions = ResizeOptions()) throws(PNGImageError) -> RGBAImage {
        try withPinned(data) { bytes throws(PNGImageError) in
            let source = try ImageSource.open(bytes: bytes)
            try options.admit(width: source.width, height: source.height)
            var geometry = cps_geometry()
            geometry.src_w = Double(source.width)
            geometry.src_h = Double(source.height)
            geometry.dst_w = Int32(source.width)
            geometry.dst_h = Int32(source.height)
            geometry.out_width = Int32(source.width)
            geometry.out_height = Int32(source.height)
            let pixels = try source.resample(geometry, manageColour: options.manageColour)
            return Orientation.apply(source.orientation,
                                     to: RGBAImage(width: source.width, height: source.height, pixels: pixels))
        }
    }

    private static func resize(_ source: ImageSource, options: ResizeOptions) throws(PNGImageError) -> [UInt8] {
        try options.admit(width: source.width, height: source.height)
        var geometry = cps_geometry()
        let fit = options.fit == .pad ? Int32(CPS_FIT_PAD) : Int32(CPS_FIT_CROP)
        guard cps_plan_geometry(source.info.width, source.info.height, Int32(options.size), fit, &geometry) == 0 else {
            throw .corrupt("image has no pixels")
        }
        // Crop and pad are symmetric, so the geometry is planned on the stored
        // pixels and the small square is turned for display afterwards; only a
        // pad's origin depends on which way it will turn.
        let origin = Orientation.storedOrigin(source.orientation, size: options.size, width: Int(geometry.dst_w),
                                              height: Int(geometry.dst_h))
        geometry.dst_x = Int32(origin.x)
        geometry.dst_y = Int32(origin.y)
        let pixels = try source.resample(geometry, manageColour: options.manageColour)
        let square = RGBAImage(width: options.size, height: options.size, pixels: pixels)
        return try PNGEncoder.encode(Orientation.apply(source.orientation, to: square))
    }

    /// Runs body with the array's storage pinned, preserving the typed error.
    private static func withPinned<R>(
        _ data: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) throws(PNGImageError) -> R
    ) throws(PNGImageError) -> R {
        let result: Result<R, PNGImageError> = data.withUnsafeBufferPointer { bytes in
            do throws(PNGImageError) { return .success(try body(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
