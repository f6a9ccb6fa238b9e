import XMPPStanzas

/// The optional profile columns of a row, applied after registration.
public struct ProfileColumns: Sendable, Equatable {
    public var nickname: String?
    public var fullname: String?
    public var email: String?
    /// A readable PNG, JPEG or WebP image: its absolute path, or its bytes.
    public var avatar: AvatarSource?
    /// Text fields to clear (`xmpp-register sync`: an emptied cell of a column the file has).
    public var cleared: [String] = []
    /// An email address to take out of the vCard (`xmpp-register sync`: the one a changed or
    /// emptied email cell replaces).
    public var replacedEmail: String?

    /// Builds the columns of one row.
    init(nickname: String? = nil, fullname: String? = nil, email: String? = nil, avatar: AvatarSource? = nil) {
        self.nickname = nickname
        self.fullname = fullname
        self.email = email
        self.avatar = avatar
    }

    /// Names of the columns this row gives a value for or clears, in a fixed order.
    public var names: [String] {
        [("nickname", nickname != nil || cleared.contains("nickname")), ("fullname", fullname != nil || cleared.contains("fullname")),
         ("email", email != nil || cleared.contains("email")), ("avatar", avatar != nil)]
            .compactMap { $0.1 ? $0.0 : nil }
    }

    /// True when no profile column has a value.
    public var isEmpty: Bool { names.isEmpty }
}

/// The optional roster columns of a row: `groups`, the groups it belongs to (its contacts file
/// it under them), and `contacts`, the JIDs of other rows and the names of groups whose members
/// become its contacts, both ways (`RosterPlan`).
public struct RosterColumns: Sendable, Equatable {
    public var groups: [String]
    public var contacts: [String]

    /// Builds the columns of one row.
    init(groups: [String] = [], contacts: [String] = []) {
        self.groups = groups
        self.contacts = contacts
    }
}

/// A row that passed validation.
public struct BatchRow: Sendable, Equatable {
    /// The line it starts on.
    public var line: Int
    /// The bare account JID.
    public var jid: JID
    /// The row's password; nil when this batch generates one (the journal keeps it).
    public var password: String?
    /// `--passwd`: the new password; nil when generated.
    public var newPassword: String?
    /// Profile columns.
    public var profile: ProfileColumns
    /// Roster columns.
    public var roster: RosterColumns

    /// Builds a row.
    init(line: Int, jid: JID, password: String?, newPassword: String?, profile: ProfileColumns, roster: RosterColumns = RosterColumns()) {
        self.line = line
        self.jid = jid
        self.password = password
        self.newPassword = newPassword
        self.profile = profile
        self.roster = roster
    }
}

/// A row that did not pass validation: never sent, reported with its line.
public struct InvalidRow: Sendable, Equatable {
    public var line: Int
    /// The JID as written (or as far as it could be read).
    public var jidText: String
    /// What is wrong, one line.
    public var reason: String

    /// Builds an invalid row.
    public init(line: Int, jidText: String, reason: String) {
        self.line = line
        self.jidText = jidText
        self.reason = reason
    }
}

/// One data row after validation.
public enum CheckedRow: Sendable, Equatable {
    case valid(BatchRow)
    case invalid(InvalidRow)

    /// The line of the row either way.
    public var line: Int {
        switch self {
        case .valid(let r): return r.line
        case .invalid(let r): return r.line
        }
    }

    /// The text the shard hash uses: the bare JID, or the raw text of an unreadable one.
    public var shardKey: String {
        switch self {
        case .valid(let r): return r.jid.description
        case .invalid(let r): return r.jidText
        }
    }
}
