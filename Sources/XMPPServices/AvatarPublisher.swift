import CryptoPrimitives
import XMPPConnection
import XMPPStanzas

/// Who may fetch the avatar over PEP (`pubsub#access_model`, XEP-0060 §4.5).
public enum AvatarAccessModel: String, Sendable, CaseIterable {
    /// Anyone, as most clients expect.
    case open
    /// Only contacts subscribed to the account's presence.
    case presence
}

/// What publishing an avatar did in each of the two places clients look.
public struct AvatarPublication: Sendable, Equatable {
    /// The avatar id: the lowercase hex SHA-1 of the PNG.
    public var hash: String
    /// nil when the vCard holds the photo (it already did, or it was stored); otherwise the
    /// server's answer to the vCard set: it keeps no vCards.
    public var vCardRefusal: StanzaError?
    /// nil when the PEP nodes hold it; otherwise the server's answer: it has no PEP service.
    public var pepRefusal: StanzaError?
    /// How the nodes took the access model; nil without PEP.
    public var accessModelOutcome: PublishOptionsOutcome?

    /// Builds a value.
    public init(hash: String, vCardRefusal: StanzaError?, pepRefusal: StanzaError?, accessModelOutcome: PublishOptionsOutcome?) {
        self.hash = hash
        self.vCardRefusal = vCardRefusal
        self.pepRefusal = pepRefusal
        self.accessModelOutcome = accessModelOutcome
    }
}

/// What removing the avatar did.
public struct AvatarRemoval: Sendable, Equatable {
    /// The id of the avatar there was (PEP's, else the vCard photo's SHA-1); nil when none.
    public var previousHash: String?
    /// nil when the vCard has no photo now; otherwise the server's answer: it keeps no vCards.
    public var vCardRefusal: StanzaError?
    /// nil when the PEP metadata is empty now; otherwise the server's answer: it has no PEP service.
    public var pepRefusal: StanzaError?

    /// Builds a value.
    public init(previousHash: String?, vCardRefusal: StanzaError?, pepRefusal: StanzaError?) {
        self.previousHash = previousHash
        self.vCardRefusal = vCardRefusal
        self.pepRefusal = pepRefusal
    }
}

/// The account's avatar, set or removed everywhere in one step: the vCard PHOTO (XEP-0153)
/// first, then XEP-0084 over PEP. Prosody's vcard_legacy republishes both PEP nodes from any
/// vCard it receives, without dimensions, so PEP goes last to keep complete metadata. Network
/// only: the caller resizes the image and, where several programs may merge the same card,
/// holds a lock around the step.
public enum AvatarPublisher {
    /// Publishes `png` (`width`×`height`) as the account's avatar: merged into its vCard as
    /// PHOTO (TYPE image/png; left alone when the card already has these bytes), together with
    /// `alsoChanging`'s edits to the same card (one fetch, at most one set), then as XEP-0084
    /// data and metadata with `accessModel` asked by publish-options. A server without vCards or
    /// without PEP is reported in the result, not thrown; any other failure is thrown.
    public static func publish(png: [UInt8], width: Int, height: Int, accessModel: AvatarAccessModel = .open,
                               on connection: any StanzaChannel,
                               alsoChanging edit: (inout VCard) -> Void = { _ in }) throws(AvatarServiceError) -> AvatarPublication {
        let hash = AvatarService.hash(png)
        let base64 = Base64.encode(png)
        let (_, vCardRefusal) = try AvatarService.updateOwnCard(on: connection) { card in
            if AvatarService.embedded(card.photo) != base64 || card.photo?.type != "image/png" {
                card.photo = VCard.Photo(type: "image/png", base64: base64)
            }
            edit(&card)
        }
        do {
            let outcome = try AvatarService.publish(on: connection, png: png, hash: hash, width: width, height: height,
                                                    accessModel: accessModel.rawValue)
            return AvatarPublication(hash: hash, vCardRefusal: vCardRefusal, pepRefusal: nil, accessModelOutcome: outcome)
        } catch {
            guard case .pepUnavailable(let refusal) = error else { throw error }
            return AvatarPublication(hash: hash, vCardRefusal: vCardRefusal, pepRefusal: refusal, accessModelOutcome: nil)
        }
    }

    /// Removes the account's avatar: the vCard PHOTO (every other field kept), then empty PEP
    /// metadata and the data items retracted (XEP-0084 §4.5). Removing when there is none is
    /// not an error; a server without vCards or without PEP is reported in the result.
    public static func remove(on connection: any StanzaChannel) throws(AvatarServiceError) -> AvatarRemoval {
        let ids = try ownMetadata(connection)?.infos.filter(\.isInDataNode).map(\.id) ?? []
        let (before, vCardRefusal) = try AvatarService.updateOwnCard(on: connection) { $0.photo = nil }
        let previous = ids.first ?? AvatarService.embedded(before.photo).flatMap { Base64.decode($0) }.map(AvatarService.hash)
        do {
            try AvatarService.disable(on: connection, retracting: ids)
            return AvatarRemoval(previousHash: previous, vCardRefusal: vCardRefusal, pepRefusal: nil)
        } catch {
            guard case .pepUnavailable(let refusal) = error else { throw error }
            return AvatarRemoval(previousHash: previous, vCardRefusal: vCardRefusal, pepRefusal: refusal)
        }
    }

    /// The account's own metadata; nil when there is none or it is unreadable (it is replaced all the same).
    private static func ownMetadata(_ connection: any StanzaChannel) throws(AvatarServiceError) -> AvatarMetadata? {
        do {
            return try AvatarService.metadata(on: connection, of: nil)
        } catch {
            if case .invalidPayload = error { return nil }
            throw error
        }
    }
}
