import XMPPStanzas

/// The optional profile columns of a row, applied after registration.
struct ProfileColumns: Sendable, Equatable {
    var nickname: String?
    var fullname: String?
    var email: String?
    /// Absolute path of a readable PNG or JPEG.
    var avatar: String?

    /// Names of the columns this row gives a value for, in a fixed order.
    var names: [String] {
        [("nickname", nickname), ("fullname", fullname), ("email", email), ("avatar", avatar)]
            .compactMap { $0.1 == nil ? nil : $0.0 }
    }

    /// True when no profile column has a value.
    var isEmpty: Bool { names.isEmpty }
}

/// A row that passed validation.
struct BatchRow: Sendable, Equatable {
    /// The line it starts on.
    var line: Int
    /// The bare account JID.
    var jid: JID
    /// The row's password; nil when this batch generates one (the journal keeps it).
    var password: String?
    /// `--passwd`: the new password; nil when generated.
    var newPassword: String?
    /// Profile columns.
    var profile: ProfileColumns
}

/// A row that did not pass validation: never sent, reported with its line.
struct InvalidRow: Sendable, Equatable {
    var line: Int
    /// The JID as written (or as far as it could be read).
    var jidText: String
    /// What is wrong, one line.
    var reason: String
}

/// One data row after validation.
enum CheckedRow: Sendable, Equatable {
    case valid(BatchRow)
    case invalid(InvalidRow)

    /// The line of the row either way.
    var line: Int {
        switch self {
        case .valid(let r): return r.line
        case .invalid(let r): return r.line
        }
    }

    /// The text the shard hash uses: the bare JID, or the raw text of an unreadable one.
    var shardKey: String {
        switch self {
        case .valid(let r): return r.jid.description
        case .invalid(let r): return r.jidText
        }
    }
}
