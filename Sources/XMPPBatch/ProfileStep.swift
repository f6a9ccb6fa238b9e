import XMPPConnection
import XMPPServices
import XMPPStanzas

/// Where a row's profile columns stand.
public enum ProfileState: Sendable, Equatable {
    /// Every profile column of the row was applied.
    case applied
    /// These columns are still to apply.
    case pending([String])

    /// The journal's text form: `applied` or `pending:col,col`.
    public var journalText: String {
        switch self {
        case .applied: return "applied"
        case .pending(let columns): return "pending:" + columns.joined(separator: ",")
        }
    }

    /// Reads the journal's text form.
    public init?(journalText: String?) {
        guard let text = journalText else { return nil }
        if text == "applied" { self = .applied; return }
        guard text.hasPrefix("pending:") else { return nil }
        self = .pending(text.dropFirst(8).split(separator: ",").map(String.init))
    }
}

/// ─── STEP 3 of a row: the profile columns ───────────────────────────────────────────────────
/// The classic flow is register → log in → set vCard → set avatar. Step 1 (registration) carries
/// `email` when the server's form asks for it; the rest needs an authenticated stream: a row
/// created with profile columns left goes to the log-in phase, which logs in with the row's
/// password and applies them with `ProfileApplier` (vCard NICKNAME, FN, EMAIL; avatar through
/// the avatar pipeline as XEP-0153 and XEP-0084). The row's outcome is recorded only then, so
/// a crash in between leaves it "sent", and `--resume` finishes it.
enum ProfileStep {
    /// The extra registration fields for `row` that `form` asks for (today: email).
    static func registrationFields(for row: BatchRow, form: RegistrationForm) -> [String: String] {
        guard let email = row.profile.email, form.asks("email") else { return [:] }
        return ["email": email]
    }

    /// The profile state right after registration sent `sentFields`; nil when the row has no profile columns.
    static func afterRegistration(_ row: BatchRow, sentFields: [String: String]) -> ProfileState? {
        let names = row.profile.names
        guard !names.isEmpty else { return nil }
        let left = names.filter { sentFields[$0] == nil }
        return left.isEmpty ? .applied : .pending(left)
    }

    /// What one attempt at a row's profile came to.
    enum Attempt {
        /// Nil when the row has no profile columns; else the state, and the columns left with
        /// the reason when the server refused them (the row itself succeeded); the note says what
        /// a server without PEP kept (the avatar in the vCard only).
        case done(ProfileState?, problem: String?, note: String?)
        /// The server's fresh-account race (`isFreshAccountRace`): the same again after this long.
        case again(after: Duration)
    }

    /// Applies the row's profile columns on an authenticated, bound stream; `alreadyApplied`
    /// were set at registration; the avatar comes from `avatars`, resized once per image.
    /// `attempt` counts the attempts before this one: up to three more follow a race, 0.1, 0.2
    /// and 0.4 s later.
    static func apply(_ row: BatchRow, alreadyApplied: [String], avatars: ResizedAvatars, attempt: Int,
                      on connection: any StanzaChannel) -> Attempt {
        guard !row.profile.names.isEmpty else { return .done(nil, problem: nil, note: nil) }
        let wanted = row.profile.names.filter { !alreadyApplied.contains($0) }
        guard !wanted.isEmpty else { return .done(.applied, problem: nil, note: nil) }
        let profile = Profile(nickname: row.profile.nickname, fullname: row.profile.fullname,
                              email: wanted.contains("email") ? row.profile.email : nil, avatar: row.profile.avatar,
                              cleared: Set(row.profile.cleared.filter(wanted.contains)),
                              replacedEmail: wanted.contains("email") ? row.profile.replacedEmail : nil)
        do {
            let png = try avatars.png(for: profile)
            let applied = try ProfileApplier.apply(profile, avatarPNG: png, on: connection)
            return .done(.applied, problem: nil, note: applied.shortfall)
        } catch {
            if attempt + 1 < 4 && isFreshAccountRace(error) { return .again(after: .microseconds(50_000 << (attempt + 1))) }
            // The services' own words: what the tool says of the same error, bar its hints on
            // reaching a server, which an established stream does not need.
            return .done(.pending(wanted), problem: "profile not set: \(error)", note: nil)
        }
    }

    /// ejabberd 23.01 now and then answers a new account's first vCard set with item-not-found
    /// when several of its accounts log in at once (never one at a time); the same request a
    /// moment later succeeds. A PEP publish answered so is the
    /// same race: a PEP service creates a missing node on publish.
    static func isFreshAccountRace(_ error: any Error) -> Bool {
        switch error {
        case VCardServiceError.connection(.stanzaError(let e)), AvatarServiceError.connection(.stanzaError(let e)):
            return e.condition == .itemNotFound
        case let mirror as ProfileMirrorError:
            return !mirror.refusals.isEmpty && mirror.refusals.values.allSatisfy { $0.condition == .itemNotFound }
        default:
            return false
        }
    }
}
