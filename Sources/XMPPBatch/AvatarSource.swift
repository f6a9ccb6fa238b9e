import CryptoPrimitives
import PNGImage
import XMPPStorage

/// Where an avatar comes from: an image file, or the image's bytes themselves (a directory's
/// `jpegPhoto`, a `data:` URI in the avatar column), which are kept in memory and never
/// written to a file.
public enum AvatarSource: Sendable, Hashable {
    /// The absolute path of a PNG, JPEG or WebP file.
    case file(String)
    /// A PNG, JPEG or WebP image.
    case image([UInt8])

    /// The same key for the same source, whatever rows share it: `file:PATH`, or `sha256:HEX` of
    /// an inline image (`ResizedAvatars`, and whatever else keeps facts per image).
    public var key: String {
        switch self {
        case .file(let path): return "file:" + path
        case .image(let bytes): return "sha256:" + Hex.encode(Crypto.hash(.sha256, bytes))
        }
    }

    /// The image's bytes: an inline image's, or the file's (nil when it cannot be read now, or
    /// is larger than `maxBytes`).
    public func bytes(maxBytes: Int = 64 << 20) -> [UInt8]? {
        switch self {
        case .file(let path): return (try? SecureFile.read(path, maxBytes: maxBytes)) ?? nil
        case .image(let bytes): return bytes
        }
    }

    /// The image resized to the PNG that is published.
    func resized() throws(PNGImageError) -> [UInt8] {
        switch self {
        case .file(let path): return try AvatarPipeline.resize(file: path, options: ResizeOptions())
        case .image(let bytes): return try AvatarPipeline.resize(data: bytes, options: ResizeOptions())
        }
    }
}
