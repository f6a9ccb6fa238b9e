import XMPPStanzas

/// An invite as the journal keeps it, in the column that holds generated passwords (it is a
/// credential too, and is wiped with them once the report is on disk): `URI` or `URI\tPAGE`.
struct InviteSecret: Equatable {
    var uri: String
    var landingPage: String?

    init(uri: String, landingPage: String?) {
        self.uri = uri
        self.landingPage = landingPage?.isEmpty == true ? nil : landingPage
    }

    init?(journalText: String?) {
        guard let text = journalText, !text.isEmpty else { return nil }
        let parts = text.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
        self.init(uri: String(parts[0]), landingPage: parts.count > 1 ? String(parts[1]) : nil)
    }

    /// The invite a server answered, if it is what it claims: an xmpp: URI (XEP-0401) that
    /// allows registering an account of `domain`; its landing page is kept only if it is a web
    /// page (`webPage`). nil for anything else, which never reaches the report.
    init?(checking uri: String, landingPage: String?, domain: String) {
        guard let invite = try? InviteURI(uri), invite.allowsRegistration, invite.jid.domain == domain,
              !uri.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else { return nil }
        self.init(uri: uri, landingPage: landingPage.flatMap(InviteSecret.webPage))
    }

    /// The same for an invite bound to one account (a password-reset invite): its URI must name
    /// exactly that address.
    init?(checking uri: String, landingPage: String?, account: JID) {
        guard let invite = try? InviteURI(uri), invite.jid.bare == account.bare else { return nil }
        self.init(checking: uri, landingPage: landingPage, domain: account.domain)
    }

    /// `text` when it is an https: or http: URL with nothing a CSV cell or terminal would
    /// take for something else (no white space or control characters), nil otherwise.
    static func webPage(_ text: String) -> String? {
        let lower = text.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return nil }
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0 == "\"" }) else { return nil }
        return text
    }

    var journalText: String { uri + (landingPage.map { "\t" + $0 } ?? "") }
}

/// One account invite made by the server's XEP-0401 create-account command (`xmpp-register
/// invite`), read from its completed answer as the batch reads each row's.
public struct AccountInvite: Sendable, Equatable {
    public static let node = AdminRequests.inviteNode
    /// The xmpp: URI (XEP-0401) a client opens.
    public let uri: String
    /// The server's web page for it (https:), when it has one.
    public let landingPage: String?
    /// When it stops working, as the server says (XEP-0082), when it does.
    public let expires: String?

    /// The invite in `answer`, if it is an xmpp: invite for `domain` (`InviteSecret`); nil otherwise.
    public init?(answer: AdHocCommand, domain: String) {
        guard answer.status == .completed, let uri = answer.form?.field("uri")?.values.first,
              let secret = InviteSecret(checking: uri, landingPage: answer.form?.field("landing-url")?.values.first, domain: domain) else {
            return nil
        }
        self.uri = secret.uri
        landingPage = secret.landingPage
        expires = Self.expiry(in: answer)
    }

    /// When the invite in `answer` stops working, as the server says (XEP-0082), if it says so
    /// in plain printable text.
    static func expiry(in answer: AdHocCommand) -> String? {
        answer.form?.field("expire")?.values.first.flatMap { text in
            text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F } ? text : nil
        }
    }
}
