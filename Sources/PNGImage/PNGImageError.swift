/// Why an image could not be read, resized or written. Each case's
/// `description` is one line naming the problem.
public enum PNGImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are empty or start with neither a PNG nor a JPEG signature.
    case notAnImage
    /// The data ends before the image does.
    case truncated
    /// The decoder rejected the data (bad CRC, bad zlib stream, bad header…); the reason.
    case corrupt(String)
    /// The declared dimensions exceed the limits in `ResizeOptions` (given with them); refused
    /// before decoding.
    case tooLarge(width: Int, height: Int, maxSide: Int, maxPixels: Int)
    /// A valid image this module does not handle; what.
    case unsupported(String)
    /// Writing the output PNG failed; the reason.
    case encodeFailed(String)
    /// A file could not be opened or read; its path and the system's reason.
    case io(path: String, String)
    /// The options are out of range (size outside 16...1024, non-positive limits); which.
    case invalidOptions(String)

    /// One line, suitable after "error: ".
    public var description: String {
        switch self {
        case .notAnImage: return "not a PNG, JPEG or WebP image"
        case .truncated: return "image data is truncated"
        case .corrupt(let why): return "corrupt image: \(why)"
        case .tooLarge(let width, let height, let maxSide, let maxPixels):
            let size = "image of \(width)×\(height) pixels is over the limit of "
            if width > maxSide || height > maxSide { return size + "\(maxSide) pixels a side" }
            return size + (maxPixels % 1_000_000 == 0 ? "\(maxPixels / 1_000_000) megapixels" : "\(maxPixels) pixels")
        case .unsupported(let what): return "unsupported image: \(what)"
        case .encodeFailed(let why): return "cannot encode PNG: \(why)"
        case .io(let path, let why): return "\(path): \(why)"
        case .invalidOptions(let why): return "invalid resize options: \(why)"
        }
    }
}
