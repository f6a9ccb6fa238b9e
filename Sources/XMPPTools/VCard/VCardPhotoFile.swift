import CryptoPrimitives
import PNGImage
import XMPPStanzas

/// The vCard PHOTO: what `get` reports about it, and the image `set --photo` embeds.
enum VCardPhotoFile {
    /// Largest embedded image, in bytes. Prosody refuses stanzas over 256 KiB, and Base64 adds a third.
    static let maxBytes = 128 << 10

    /// An embedded photo, decoded.
    struct Info {
        /// The declared MIME type.
        var type: String?
        /// The image bytes; nil for a link (EXTVAL) or undecodable Base64.
        var bytes: [UInt8]?
        /// Lowercase hex SHA-1 of the bytes: the XEP-0153 avatar hash.
        var sha1: String?
        /// The EXTVAL link, if any.
        var url: String?
    }

    /// Decodes `photo`.
    static func info(_ photo: VCard.Photo) -> Info {
        let bytes = photo.base64.flatMap { Base64.decode($0, ignoringWhitespace: true) }
        return Info(type: photo.type, bytes: bytes, sha1: bytes.map { Hex.encode(Crypto.hash(.sha1, $0)) }, url: photo.externalURL)
    }

    /// Whether the image a .vcf file's cut-short PHOTO or LOGO holds (completed to canonical
    /// Base64 by the reader) decodes whole: only then is it imported.
    static func isWhole(base64: String) -> Bool {
        Base64.decode(base64).map(ImageCompleteness.isWhole) ?? false
    }

    /// The SHA-1 of the card's embedded photo, for the cache.
    static func hash(_ card: VCard) -> String? { card.photo.flatMap { info($0).sha1 } }

    /// The MIME type from the first bytes: PNG, JPEG, GIF or WebP; nil for anything else.
    static func mimeType(_ b: [UInt8]) -> String? {
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) { return "image/gif" }
        if b.count >= 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        return nil
    }

    /// The photo `set --photo FILE` embeds: the file's bytes with their detected type.
    static func load(_ path: String) throws -> VCard.Photo {
        let raw = try InputFile.read(path, limit: 16 << 20, what: "the image")
        guard let type = mimeType(raw) else {
            throw ToolFailure(.badInput, "\(path): not a PNG, JPEG, GIF or WebP image")
        }
        let (bytes, finalType) = try prepared(raw, type: type, path: path)
        guard bytes.count <= maxBytes else {
            throw ToolFailure(.badInput, "\(path): the image is \(bytes.count) bytes; a vCard photo may have at most \(maxBytes) "
                + "(make it smaller, e.g. 'xmpp-avatar resize \(path) -o small.png')")
        }
        return VCard.Photo(type: finalType, base64: Base64.encode(bytes))
    }

    /// PNG and JPEG photos go through the avatar pipeline (`xmpp-avatar set`'s 100×100 PNG),
    /// so a vCard photo and an avatar set from the same file are the same bytes. GIF and WebP,
    /// which the pipeline does not decode, are embedded as they are.
    static func prepared(_ bytes: [UInt8], type: String, path: String) throws -> ([UInt8], String) {
        guard type == "image/png" || type == "image/jpeg" else { return (bytes, type) }
        return (try ImageFiles.naming(path) { () throws(PNGImageError) in try AvatarPipeline.resize(data: bytes, options: ResizeOptions()) },
                "image/png")
    }
}
