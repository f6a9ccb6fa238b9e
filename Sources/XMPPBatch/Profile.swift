import CryptoPrimitives
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
    /// An image file, resized by the avatar pipeline and published as XEP-0153 and XEP-0084.
    public var avatar: String?

    /// Builds a profile.
    public init(nickname: String? = nil, fullname: String? = nil, email: String? = nil, avatar: String? = nil) {
        self.nickname = nickname
        self.fullname = fullname
        self.email = email
        self.avatar = avatar
    }

    /// True when there is nothing to apply.
    public var isEmpty: Bool { self == Profile() }

    /// The names of the fields given, for reports.
    public var fieldNames: [String] {
        [("nickname", nickname), ("fullname", fullname), ("email", email), ("avatar", avatar)]
            .compactMap { $0.1 == nil ? nil : $0.0 }
    }
}

/// Applies a `Profile` on an authenticated connection. The avatar is prepared (read and
/// resized) before anything is sent, so a bad image fails the row before registration.
public enum ProfileApplier {
    /// The avatar as the PNG that will be published, or nil when the profile has none.
    public static func prepareAvatar(_ profile: Profile) throws -> [UInt8]? {
        guard let path = profile.avatar else { return nil }
        return try AvatarPipeline.resize(file: path, options: ResizeOptions())
    }

    /// Merges the vCard fields (and the photo) into the account's vCard and, with an avatar,
    /// publishes it over PEP after the vCard (Prosody mirrors the vCard into PEP without
    /// dimensions; publishing PEP last keeps complete metadata).
    public static func apply(_ profile: Profile, avatarPNG: [UInt8]?, on connection: Connection) throws {
        guard !profile.isEmpty else { return }
        var card = try VCardService.fetch(on: connection, jid: nil)
        if let nickname = profile.nickname { card.nickname = nickname }
        if let fullname = profile.fullname { card.fullName = fullname }
        if let email = profile.email, !card.emails.contains(where: { $0.address == email }) {
            card.emails.append(VCard.Email(address: email, types: ["internet"]))
        }
        if let png = avatarPNG { card.photo = VCard.Photo(type: "image/png", base64: Base64.encode(png)) }
        try VCardService.publish(card, on: connection)
        if let png = avatarPNG {
            let info = try AvatarPipeline.info(data: png)
            _ = try AvatarService.publish(on: connection, png: png, hash: AvatarService.hash(png),
                                          width: info.width, height: info.height, accessModel: "open")
        }
    }
}
