import XMPPConnection
import XMPPStanzas

/// XEP-0153's half of avatars: the vCard PHOTO, read and written through `VCardService`, with
/// the avatar's error semantics. A card that cannot be read (any of the conditions under which
/// PubSub items are "not there") is a card without a photo, and a server that keeps no vCards
/// is an answer to report, not a failure: the avatar can still live in PEP.
extension AvatarService {
    /// The conditions to a vCard set that mean the server keeps no vCards.
    static let noVCardConditions: Set<StanzaError.Condition> = [.serviceUnavailable, .featureNotImplemented]

    /// `jid`'s card (nil: one's own); an empty card when there is none or it cannot be read.
    static func card(on connection: any StanzaChannel, of jid: JID?) throws(AvatarServiceError) -> VCard {
        do {
            return try VCardService.fetch(on: connection, jid: jid)
        } catch {
            switch error {
            case .notFound: return VCard()
            case .connection(.stanzaError(let e))
                where PubSubClient.absentConditions.contains(e.condition) || refusedConditions.contains(e.condition):
                return VCard()
            default: throw AvatarServiceError(error)
            }
        }
    }

    /// The photo's Base64 without whitespace; nil when nothing is embedded.
    static func embedded(_ photo: VCard.Photo?) -> String? {
        photo?.compactBase64.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Fetches one's own card, lets `change` edit it and publishes it unless that changed
    /// nothing. Returns the card as it was, and the server's answer when it keeps no vCards.
    static func updateOwnCard(on connection: any StanzaChannel,
                              _ change: (inout VCard) -> Void) throws(AvatarServiceError) -> (before: VCard, refusal: StanzaError?) {
        let before = try card(on: connection, of: nil)
        var card = before
        change(&card)
        guard card != before else { return (before, nil) }
        do {
            try VCardService.publish(card, on: connection)
        } catch {
            if case .connection(.stanzaError(let e)) = error, noVCardConditions.contains(e.condition) { return (before, e) }
            throw AvatarServiceError(error)
        }
        return (before, nil)
    }
}

extension AvatarServiceError {
    /// A vCard failure in the avatar's terms, with the same description.
    init(_ error: VCardServiceError) {
        switch error {
        case .invalidCard(let e): self = .invalidPayload("vCard", e)
        case .connection(let e): self = .connection(e)
        // VCardService says notFound for these two conditions; the avatar code reads both as absent.
        case .notFound: self = .connection(.stanzaError(StanzaError(type: "cancel", condition: .itemNotFound)))
        }
    }
}
