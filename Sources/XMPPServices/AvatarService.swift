import CryptoPrimitives
import XMPPConnection
import XMPPStanzas

/// Why an avatar could not be read or published (beyond what the connection reports).
public enum AvatarServiceError: Error, Sendable, CustomStringConvertible {
    /// The server sent a payload that cannot be read; which one, and why.
    case invalidPayload(String, StanzaParseError)
    /// Avatar bytes were not valid Base64; where they came from.
    case invalidBase64(AvatarSource)
    /// The bytes do not hash to the SHA-1 id they were published under.
    case hashMismatch(expected: String, actual: String)
    /// The account's server has no PEP service (XEP-0163); the condition it answered.
    case pepUnavailable(StanzaError)
    /// The contact's PEP service would not let this account read the avatar (its access model:
    /// not-authorized, forbidden, not-allowed…); whose, and the error.
    case readRefused(JID?, StanzaError)
    /// The connection or the server refused.
    case connection(ConnectionError)

    public var description: String {
        switch self {
        case .invalidPayload(let what, let e): return "invalid \(what) from the server: \(e)"
        case .invalidBase64(let source): return "the \(source.label) avatar is not valid Base64"
        case .hashMismatch(let expected, let actual):
            return "the avatar data does not match its SHA-1 id (published as \(expected), hashes to \(actual))"
        case .pepUnavailable(let e): return "the server offers no PEP avatars (\(e))"
        case .readRefused(let jid, let e):
            let whose = jid.map { "\($0)" } ?? "the account"
            if isAmbiguousRefusal {
                return "\(whose) has no avatar this account may read (its PEP service answers forbidden both when "
                    + "there is none and when it is hidden from this account)"
            }
            return "not allowed to read \(whose)'s PEP avatar (\(e))"
        case .connection(let e): return e.description
        }
    }

    /// A `forbidden` refusal: the server says it for "nothing there" as well (Prosody 0.12).
    public var isAmbiguousRefusal: Bool {
        if case .readRefused(_, let e) = self { return e.condition == .forbidden }
        return false
    }
}

/// Where an avatar was found.
public enum AvatarSource: String, Sendable, CaseIterable {
    /// XEP-0084 User Avatar, over PEP.
    case pep
    /// XEP-0153 vCard-based avatar (`PHOTO` in vcard-temp).
    case vcard

    /// For messages: "PEP" or "vCard".
    public var label: String { self == .pep ? "PEP" : "vCard" }
}

/// An avatar's bytes as fetched, already checked against their hash.
public struct FetchedAvatar: Sendable, Equatable {
    /// The image bytes.
    public var bytes: [UInt8]
    /// Lowercase hex SHA-1 of `bytes`.
    public var hash: String
    /// The declared content type, if any.
    public var type: String?
    /// Where it came from.
    public var source: AvatarSource

    /// Builds a value.
    public init(bytes: [UInt8], hash: String, type: String?, source: AvatarSource) {
        self.bytes = bytes
        self.hash = hash
        self.type = type
        self.source = source
    }
}

/// User avatars: XEP-0084 over PEP and XEP-0153 in the vCard. Network only: no images, no files.
public enum AvatarService {
    /// The lowercase hex SHA-1 of `bytes`: the avatar id of XEP-0084 and the hash of XEP-0153.
    public static func hash(_ bytes: [UInt8]) -> String { Hex.encode(Crypto.hash(.sha1, bytes)) }

    /// The newest metadata item of `jid` (nil: one's own); nil when there is none or it is not readable.
    public static func metadata(on connection: any StanzaChannel, of jid: JID?) throws(AvatarServiceError) -> AvatarMetadata? {
        guard let item = try pubSub(reading: jid, { () throws(PubSubError) in
                try PubSubClient.items(on: connection, jid: jid, node: Namespace.avatarMetadata, maxItems: 1)
              })?.last,
              let payload = item.payload else { return nil }
        do { return try AvatarMetadata(element: payload) } catch { throw .invalidPayload("avatar metadata", error) }
    }

    /// The data item `id` of `jid` (nil: one's own), decoded and checked against `id`; nil when
    /// the item is not there. `type` is what the metadata lists for it.
    public static func data(on connection: any StanzaChannel, of jid: JID?, id: String,
                            type: String = "image/png") throws(AvatarServiceError) -> FetchedAvatar? {
        guard let items = try pubSub(reading: jid, { () throws(PubSubError) in
                try PubSubClient.items(on: connection, jid: jid, node: Namespace.avatarData, ids: [id])
              }),
              let payload = (items.first { $0.id == id } ?? items.first)?.payload else { return nil }
        let data: AvatarData
        do { data = try AvatarData(element: payload) } catch { throw .invalidPayload("avatar data", error) }
        guard let bytes = Base64.decode(data.compactBase64) else { throw .invalidBase64(.pep) }
        let actual = hash(bytes)
        guard actual == id.lowercased() else { throw .hashMismatch(expected: id, actual: actual) }
        return FetchedAvatar(bytes: bytes, hash: actual, type: type, source: .pep)
    }

    /// The photo embedded in `jid`'s vCard (nil: one's own), decoded; nil when there is none.
    public static func vCardPhoto(on connection: any StanzaChannel, of jid: JID?) throws(AvatarServiceError) -> FetchedAvatar? {
        guard let photo = try card(on: connection, of: jid).photo else { return nil }
        if let base64 = photo.base64, base64.utf8.count > AvatarData.maxBase64Bytes {
            throw .invalidPayload("vCard PHOTO", .invalidContent("vCard PHOTO is larger than \(AvatarData.maxBase64Bytes) bytes"))
        }
        guard let base64 = embedded(photo) else { return nil }
        guard let bytes = Base64.decode(base64) else { throw .invalidBase64(.vcard) }
        guard !bytes.isEmpty else { return nil }
        return FetchedAvatar(bytes: bytes, hash: hash(bytes), type: photo.type, source: .vcard)
    }

    /// Publishes `png` as the account's avatar (XEP-0084 §4.1, §4.2): the data item, then the
    /// metadata item, both under the id `hash`, with `pubsub#access_model` asked for by
    /// publish-options. Throws `.pepUnavailable` when the server has no PEP service.
    public static func publish(on connection: any StanzaChannel, png: [UInt8], hash: String, width: Int?, height: Int?,
                               accessModel: String) throws(AvatarServiceError) -> PublishOptionsOutcome {
        let options = ["pubsub#access_model": accessModel]
        let data = PubSubItem(id: hash, payload: AvatarData(base64: Base64.encode(png)).element)
        let dataOutcome = try pepPublish(connection, node: Namespace.avatarData, item: data, options: options)
        let info = AvatarMetadata.Info(bytes: png.count, id: hash, type: "image/png", width: width, height: height)
        let metadata = PubSubItem(id: hash, payload: AvatarMetadata(infos: [info]).element)
        let metadataOutcome = try pepPublish(connection, node: Namespace.avatarMetadata, item: metadata, options: options)
        return [dataOutcome, metadataOutcome].contains(.ignored) ? .ignored
            : [dataOutcome, metadataOutcome].contains(.reconfigured) ? .reconfigured : .accepted
    }

    /// Disables the account's avatar (XEP-0084 §4.5): publishes empty metadata (leaving the
    /// node's configuration alone), then retracts the data items `ids`. Throws
    /// `.pepUnavailable` when the server has no PEP service.
    public static func disable(on connection: any StanzaChannel, retracting ids: [String]) throws(AvatarServiceError) {
        let empty = PubSubItem(payload: AvatarMetadata().element)
        _ = try pepPublish(connection, node: Namespace.avatarMetadata, item: empty, options: nil)
        try pubSub { () throws(PubSubError) in try PubSubClient.retract(on: connection, node: Namespace.avatarData, ids: ids) }
    }

    private static func pepPublish(_ connection: any StanzaChannel, node: String, item: PubSubItem,
                                   options: [String: String]?) throws(AvatarServiceError) -> PublishOptionsOutcome {
        do {
            return try pubSub { () throws(PubSubError) in
                try PubSubClient.publish(on: connection, node: node, item: item, options: options)
            }
        } catch {
            if case .connection(.stanzaError(let e)) = error,
               [.serviceUnavailable, .featureNotImplemented].contains(e.condition) {
                throw .pepUnavailable(e)
            }
            throw error
        }
    }

    /// Conditions of an items request that mean "this account may not read it" (XEP-0060
    /// §6.5.9: presence, roster or whitelist access), not "there is nothing". Prosody 0.12
    /// answers `forbidden` to a stranger both for a presence-only node and for one that does
    /// not exist (or an account that does not exist): `AvatarServiceError.isAmbiguousRefusal`.
    static let refusedConditions: Set<StanzaError.Condition> = [
        .forbidden, .notAuthorized, .notAllowed, .registrationRequired, .subscriptionRequired,
    ]

    /// A read of `jid`'s PEP nodes: a refusal is `.readRefused`, absence is nil.
    private static func pubSub<T>(reading jid: JID?, _ body: () throws(PubSubError) -> T) throws(AvatarServiceError) -> T {
        do {
            return try pubSub(body)
        } catch {
            if case .connection(.stanzaError(let e)) = error, refusedConditions.contains(e.condition) {
                throw .readRefused(jid, e)
            }
            throw error
        }
    }

    /// Runs a PubSub request, reporting its failure in this service's terms.
    private static func pubSub<T>(_ body: () throws(PubSubError) -> T) throws(AvatarServiceError) -> T {
        do {
            return try body()
        } catch {
            switch error {
            case .invalidItems(let node, let e): throw .invalidPayload("\(node) items", e)
            case .connection(let e): throw .connection(e)
            }
        }
    }
}
