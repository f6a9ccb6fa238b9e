/// One person's slip: who, which address, and what signs them in.
public struct Slip: Sendable, Equatable {
    /// What the slip gives to sign in with.
    public enum Secret: Sendable, Equatable {
        /// A password, printed in a monospaced font whose look-alikes differ.
        case password(String)
        /// An invite's xmpp: URI (XEP-0401), printed as a QR code that clients open.
        case invite(String)
    }

    /// The person's name (may be empty: the address stands alone).
    public var name: String
    /// The XMPP address.
    public var address: String
    public var secret: Secret
    /// When an invite stops working, as the slip says it ("2026-12-05 21:35 UTC"); nil when unknown.
    public var validUntil: String?

    public init(name: String, address: String, secret: Secret, validUntil: String? = nil) {
        self.name = name
        self.address = address
        self.secret = secret
        self.validUntil = validUntil
    }

    /// An XEP-0082 time as a person reads it on paper: `2026-12-05T21:35:08Z` as
    /// "2026-12-05 21:35 UTC"; another time in UTC or with an offset keeps its date, hour and
    /// minute and names the offset; text that is no such time is nil (it is not printed).
    public static func readableTime(_ text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        func digits(_ range: Range<Int>) -> Bool { range.allSatisfy { $0 < scalars.count && ("0"..."9").contains(scalars[$0]) } }
        guard scalars.count >= 17, digits(0..<4), scalars[4] == "-", digits(5..<7), scalars[7] == "-", digits(8..<10), scalars[10] == "T",
              digits(11..<13), scalars[13] == ":", digits(14..<16) else { return nil }
        var zone = text.unicodeScalars.dropFirst(16).drop { ("0"..."9").contains($0) || $0 == ":" || $0 == "." }
        if zone.first == "Z" { zone = zone.dropFirst(); guard zone.isEmpty else { return nil }; zone = "UTC".unicodeScalars[...] }
        let offset = String(String.UnicodeScalarView(zone))
        guard offset == "UTC" || (offset.unicodeScalars.count == 6 && ["+", "-"].contains(offset.unicodeScalars.first)
                                  && offset.unicodeScalars.dropFirst().allSatisfy { ("0"..."9").contains($0) || $0 == ":" }) else { return nil }
        let date = String(String.UnicodeScalarView(scalars[0..<10])), time = String(String.UnicodeScalarView(scalars[11..<16]))
        return date + " " + time + " " + offset
    }
}

/// The slips of one group, printed under its heading, starting on a new page.
public struct SlipGroup: Sendable, Equatable {
    public var heading: String
    public var slips: [Slip]

    public init(heading: String, slips: [Slip]) {
        self.heading = heading
        self.slips = slips
    }
}

/// The paper the PDF's pages are cut for, in PostScript points (1/72 inch).
public enum Paper: String, Sendable, CaseIterable {
    case a4, letter

    /// Width and height: A4 is 210 × 297 mm, Letter 8.5 × 11 in.
    public var size: (width: Double, height: Double) {
        switch self {
        case .a4: return (595.276, 841.89)
        case .letter: return (612, 792)
        }
    }
}

/// How the slips are printed: the paper, the sign-in texts and the document's title.
public struct SlipSheet: Sendable, Equatable {
    public var paper: Paper
    /// The short text at the foot of each slip whose secret is a password.
    public var passwordText: String
    /// The same for a slip with an invite.
    public var inviteText: String
    /// The document's title (PDF metadata).
    public var title: String

    public static let defaultPasswordText =
        "Sign in with an XMPP app, such as Conversations (Android), Monal or Siskin (iPhone), Gajim or Dino (computer), "
        + "with this address and password. Keep this slip to yourself."
    public static let defaultInviteText =
        "Scan the code with your phone's camera or in Conversations, Monal or Siskin: the app makes your account "
        + "with a password you choose. Keep this slip to yourself until then."

    public init(paper: Paper = .a4, passwordText: String = SlipSheet.defaultPasswordText,
                inviteText: String = SlipSheet.defaultInviteText, title: String = "Account slips") {
        self.paper = paper
        self.passwordText = passwordText
        self.inviteText = inviteText
        self.title = title
    }

    /// Slips a page holds: two columns of four.
    public static let columns = 2
    public static let rows = 4
    public static var slipsPerPage: Int { columns * rows }

    /// Pages `groups` take: each group starts a page.
    public static func pages(_ groups: [SlipGroup]) -> Int {
        groups.reduce(0) { $0 + ($1.slips.count + slipsPerPage - 1) / slipsPerPage }
    }
}
