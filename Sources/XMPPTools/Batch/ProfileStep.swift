import XMPPConnection
import XMPPStanzas

/// Where a row's profile columns stand.
enum ProfileState: Sendable, Equatable {
    /// Every profile column of the row was applied.
    case applied
    /// These columns are still to apply.
    case pending([String])

    /// The journal's text form: `applied` or `pending:col,col`.
    var journalText: String {
        switch self {
        case .applied: return "applied"
        case .pending(let columns): return "pending:" + columns.joined(separator: ",")
        }
    }

    /// Reads the journal's text form.
    init?(journalText: String?) {
        guard let text = journalText else { return nil }
        if text == "applied" { self = .applied; return }
        guard text.hasPrefix("pending:") else { return nil }
        self = .pending(text.dropFirst(8).split(separator: ",").map(String.init))
    }
}

/// ─── STEP 3 of a row: the profile columns ───────────────────────────────────────────────────
/// The classic flow is register → log in → set vCard → set avatar. Step 1 (registration) can
/// carry `email` when the server's form asks for it; everything else needs an authenticated
/// stream and two services that other branches are writing right now: the vCard service
/// (XEP-0054: `nickname` → NICKNAME, `fullname` → FN, `email` → EMAIL) and the avatar service
/// (the PNGImage avatar pipeline + XEP-0084 and vCard PHOTO). Until they are merged this step
/// reports those columns as pending, with `pendingReason`; the journal keeps the pending list,
/// so a later version can apply them from the journal. To wire them in: make `canApplyNow`
/// true and call the services in `apply(_:alreadyApplied:on:)` — nothing else changes.
enum ProfileStep {
    /// Why columns are pending, said once per run on stderr.
    static let pendingReason = "nickname, fullname, avatar (and email when the server's registration form does not ask for it) "
        + "are validated but not applied yet: the vCard (XEP-0054) and avatar (XEP-0084) services are not part of this build; "
        + "those rows report profile: pending"

    /// True once the vCard and avatar services can be called (not yet: see above).
    static let canApplyNow = false

    /// The extra registration fields for `row` that `form` asks for (today: email).
    static func registrationFields(for row: BatchRow, form: RegistrationForm) -> [String: String] {
        guard let email = row.profile.email, asks(form, "email") else { return [:] }
        return ["email": email]
    }

    /// The profile state right after registration sent `sentFields`; nil when the row has no profile columns.
    static func afterRegistration(_ row: BatchRow, sentFields: [String: String]) -> ProfileState? {
        let names = row.profile.names
        guard !names.isEmpty else { return nil }
        let left = names.filter { sentFields[$0] == nil }
        return left.isEmpty ? .applied : .pending(left)
    }

    /// Applies the row's profile columns on an authenticated, bound connection (after an update
    /// login, or after registration once the services exist); `alreadyApplied` were set at
    /// registration. Returns nil when the row has no profile columns.
    static func apply(_ row: BatchRow, alreadyApplied: [String], on connection: Connection) -> ProfileState? {
        let wanted = row.profile.names.filter { !alreadyApplied.contains($0) }
        guard !row.profile.names.isEmpty else { return nil }
        guard !wanted.isEmpty else { return .applied }
        // TODO(vcard, avatar): with VCardService and AvatarService merged, fetch-merge-publish the
        // vCard (NICKNAME, FN, EMAIL) and publish the avatar from `row.profile.avatar` here.
        return .pending(wanted)
    }

    /// Whether `form` (plain fields or a data form) has a field called `name`.
    static func asks(_ form: RegistrationForm, _ name: String) -> Bool {
        if let data = form.form { return data.field(name) != nil }
        return form.fields.contains { $0.name == name }
    }
}
