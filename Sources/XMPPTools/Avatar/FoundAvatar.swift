import TextFormats
import XMPPServices
import XMPPStanzas
import XMPPStorage

/// An avatar found for a JID, with what is known about it.
struct FoundAvatar {
    var jid: JID
    var bytes: [UInt8]
    var hash: String
    var type: String?
    var width: Int?
    var height: Int?
    var source: AvatarSource
    /// The bytes came from the local cache rather than the network.
    var fromCache: Bool

    /// The cache entry for it.
    func entry(now: Int) -> AvatarCache.Entry {
        AvatarCache.Entry(jid: jid, image: AvatarCache.Image(hash: hash, type: type, width: width, height: height, data: bytes),
                          source: source.rawValue, fetchedAt: now)
    }
}

extension FoundAvatar {
    /// The JSON members `get` and `info` print.
    var jsonMembers: [(String, JSONValue)] {
        [
            ("jid", .string(jid.description)), ("hash", .string(hash)), ("type", .optional(type)),
            ("bytes", .int(bytes.count)), ("width", width.map(JSONValue.int) ?? .null),
            ("height", height.map(JSONValue.int) ?? .null), ("source", .string(source.rawValue)),
            ("cached", .bool(fromCache)),
        ]
    }
}
