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

    public init(name: String, address: String, secret: Secret) {
        self.name = name
        self.address = address
        self.secret = secret
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
