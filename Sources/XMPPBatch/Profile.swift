import PNGImage
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// Profile fields applied right after an account is created, as the classic register → log in →
/// set vCard → set avatar flow does: `xmpp-register JID --nickname … --avatar IMG` and the
/// `nickname`, `fullname`, `email`, `avatar` columns of a batch CSV.
public struct Profile: Sendable, Equatable {
    /// vCard NICKNAME.
    public var nickname: String?
    /// vCard FN.
    public var fullname: String?
    /// An internet EMAIL added to the vCard.
    public var email: String?
    /// An image (a file, or its bytes), resized by the avatar pipeline and published as XEP-0153 and XEP-0084.
    public var avatar: AvatarSource?
    /// Text fields to clear (nickname, fullname, email).
    public var cleared: Set<String> = []
    /// An email address to take out of the vCard (the one `email` replaces, or a cleared one).
    public var replacedEmail: String?

    /// Builds a profile.
    public init(nickname: String? = nil, fullname: String? = nil, email: String? = nil, avatar: AvatarSource? = nil,
                cleared: Set<String> = [], replacedEmail: String? = nil) {
        self.nickname = nickname
        self.fullname = fullname
        self.email = email
        self.avatar = avatar
        self.cleared = cleared
        self.replacedEmail = replacedEmail
    }

    /// True when there is nothing to apply.
    public var isEmpty: Bool { self == Profile() }

    /// The names of the fields given, for reports.
    public var fieldNames: [String] {
        [("nickname", nickname != nil), ("fullname", fullname != nil), ("email", email != nil), ("avatar", avatar != nil)]
            .compactMap { $0.1 ? $0.0 : nil }
    }
}

/// What applying a profile stored, and what the server lacked for the rest.
public struct ProfileApplied: Sendable, Equatable {
    /// The vCard fields stored, in vCard names (FN, NICKNAME, EMAIL, PHOTO).
    public var storedInVCard: [String]
    /// The server's answer to the XEP-0084 publish when it has no PEP: the avatar is then only
    /// the vCard PHOTO (XEP-0153), which is what such a server offers (jabberd2 2.7).
    public var noPEP: StanzaError?

    /// The PEP profile stores that also hold the text fields: vcard4, nick.
    public var storedInPEP: [String]
    /// PEP stores the server has not (jabberd2 2.7), with its answer: the fields are in the vCard only.
    public var unavailablePEP: [String: String]
    /// Values a PEP store accepted but did not keep, read back: "nick: nickname", …
    public var losses: [String]

    /// Builds a value.
    public init(storedInVCard: [String], noPEP: StanzaError? = nil, storedInPEP: [String] = [],
                unavailablePEP: [String: String] = [:], losses: [String] = []) {
        self.storedInVCard = storedInVCard
        self.noPEP = noPEP
        self.storedInPEP = storedInPEP
        self.unavailablePEP = unavailablePEP
        self.losses = losses
    }

    /// One line saying what was stored and what the server lacks or dropped; nil when nothing was missing.
    public var shortfall: String? {
        var parts: [String] = []
        if let noPEP {
            parts.append("the server has no PEP (\(noPEP)), so the avatar is only in the vCard; stored in the vCard: "
                + ProfileApplied.list(storedInVCard))
        } else if !unavailablePEP.isEmpty {
            let stores = unavailablePEP.keys.sorted()
            parts.append("the server has no " + ProfileApplied.list(stores) + " store (\(unavailablePEP[stores[0]] ?? "")), "
                + "so those fields are only in the vCard; stored in the vCard: " + ProfileApplied.list(storedInVCard))
        }
        if !losses.isEmpty { parts.append("the server did not keep " + ProfileApplied.list(losses)) }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// "A", "A and B", "A, B and C".
    static func list(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "nothing" }
        return names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    }
}

/// A PEP profile store (vCard4, nickname) refused the profile's fields although the server has PEP.
public struct ProfileMirrorError: Error, Sendable, CustomStringConvertible, Equatable {
    public struct Refusal: Sendable, Equatable {
        public var reason: String
        public var condition: StanzaError.Condition?

        public init(reason: String, condition: StanzaError.Condition?) {
            self.reason = reason
            self.condition = condition
        }
    }

    public init(refusals: [String: Refusal]) { self.refusals = refusals }

    /// Per refusing store (vcard4, nick), the server's answer.
    public var refusals: [String: Refusal]

    public var description: String {
        refusals.keys.sorted().map { "the \($0) store refused it: \(refusals[$0]?.reason ?? "")" }.joined(separator: "; ")
    }
}

/// Applies a `Profile` on an authenticated connection. The avatar is prepared (read and
/// resized) before anything is sent, so a bad image fails the row before registration.
public enum ProfileApplier {
    /// The avatar as the PNG that will be published, or nil when the profile has none.
    public static func prepareAvatar(_ profile: Profile) throws -> [UInt8]? {
        try profile.avatar?.resized()
    }

    /// Merges the vCard fields into the account's vCard; with an avatar, through the one
    /// avatar-publish step `xmpp-avatar set` uses (`AvatarPublisher`: the vCard with its PHOTO
    /// and these fields in one set, then PEP). A server that keeps no vCards fails the profile,
    /// as any refusal does; one without PEP keeps the avatar in the vCard, as `xmpp-avatar set`
    /// does there, and the result says so.
    @discardableResult
    public static func apply(_ profile: Profile, avatarPNG: [UInt8]?, on connection: any StanzaChannel) throws -> ProfileApplied {
        var stored: [String] = []
        if profile.fullname != nil || profile.cleared.contains("fullname") { stored.append("FN") }
        if profile.nickname != nil || profile.cleared.contains("nickname") { stored.append("NICKNAME") }
        if profile.email != nil || profile.cleared.contains("email") { stored.append("EMAIL") }
        guard !profile.isEmpty else { return ProfileApplied(storedInVCard: []) }
        guard let png = avatarPNG else {
            var card = try VCardService.fetch(on: connection, jid: nil)
            edit(&card, with: profile)
            try VCardService.publish(card, on: connection)
            var applied = try mirror(profile, on: connection)
            applied.storedInVCard = stored
            return applied
        }
        let info = try AvatarPipeline.info(data: png)
        let published = try AvatarPublisher.publish(png: png, width: info.width, height: info.height, on: connection) { card in
            edit(&card, with: profile)
        }
        if let refusal = published.vCardRefusal { throw AvatarServiceError.connection(.stanzaError(refusal)) }
        var applied = published.pepRefusal == nil ? try mirror(profile, on: connection) : ProfileApplied(storedInVCard: [])
        applied.storedInVCard = stored + ["PHOTO"]
        applied.noPEP = published.pepRefusal
        return applied
    }

    /// The same text fields in the vCard4 node (XEP-0292) and the nickname in the nickname node
    /// (XEP-0172), which today's clients show; after vcard-temp, so a server converting
    /// vcard-temp has done so (ProfileWriter's order). The nodes keep the server's default access
    /// model. A store the server has not is said in the result; one that refuses throws
    /// `ProfileMirrorError`, so the row's profile stays pending rather than "applied" without it.
    private static func mirror(_ profile: Profile, on connection: any StanzaChannel) throws -> ProfileApplied {
        var fields: [VCardField] = []
        if profile.nickname != nil || profile.cleared.contains("nickname") { fields.append(.nickname) }
        if profile.fullname != nil || profile.cleared.contains("fullname") { fields.append(.fullname) }
        if profile.email != nil || profile.cleared.contains("email") { fields.append(.email) }
        guard !fields.isEmpty else { return ProfileApplied(storedInVCard: []) }
        let result = try ProfileWriter.write(on: connection, stores: [.vcard4, .nick], access: nil, fields: fields) { card in
            var c = card
            edit(&c, with: profile)
            return c
        }
        return try outcome(of: result.writes)
    }

    /// The mirror's result from its store writes: refusals thrown, absent stores and losses said.
    static func outcome(of writes: [ProfileStoreWrite]) throws(ProfileMirrorError) -> ProfileApplied {
        var refusals: [String: ProfileMirrorError.Refusal] = [:]
        var applied = ProfileApplied(storedInVCard: [])
        for w in writes {
            switch w.status {
            case .updated, .unchanged:
                applied.storedInPEP.append(w.store.rawValue)
                applied.losses += w.losses.map { "\(w.store.rawValue): \($0.field)" }
            case .unavailable: applied.unavailablePEP[w.store.rawValue] = w.reason ?? "no such store"
            case .failed: refusals[w.store.rawValue] = ProfileMirrorError.Refusal(reason: w.reason ?? "refused", condition: w.condition)
            }
        }
        if !refusals.isEmpty { throw ProfileMirrorError(refusals: refusals) }
        return applied
    }

    /// The profile's text fields written into `card`; an email already there is not added twice,
    /// the one it replaces is taken out, and cleared fields are emptied.
    static func edit(_ card: inout VCard, with profile: Profile) {
        if profile.cleared.contains("nickname") { card.nickname = nil }
        if profile.cleared.contains("fullname") { card.fullName = nil }
        if let old = profile.replacedEmail, old != profile.email { card.emails.removeAll { $0.address == old } }
        if let nickname = profile.nickname { card.nickname = nickname }
        if let fullname = profile.fullname { card.fullName = fullname }
        if let email = profile.email, !card.emails.contains(where: { $0.address == email }) {
            card.emails.append(VCard.Email(address: email, types: ["internet"]))
        }
    }
}
