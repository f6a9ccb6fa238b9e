import TextFormats

/// The columns only `xmpp-register sync`'s report has, after the report's others (which keep
/// their names and places) and before `handed_out`:
/// - `created`: the day (UTC) sync first created the account, kept by every later sync while the
///   account keeps the password it was created with, so that a report where later syncs turned
///   every row into `exists` still tells new accounts from old ones;
/// - with `sync --invite`: `invite`, `landing_page` and `invite_expires`, the password-reset
///   invite made for a new account (bound to its address), which its slip shows instead of the
///   password. The password stays in its column: sync logs in with it until the person has
///   used the invite to set their own.
/// Both are carried from the earlier report only while the row's password is the one they were
/// written beside: an account created again (new password) gets a new date, and its old invite
/// is dropped.
struct SyncReportColumns: Sendable {
    /// One account's cells as an earlier report, or this run, has them.
    struct Cells: Sendable, Equatable {
        /// The password the cells were written beside.
        var password: String
        var created: String = ""
        var invite: InviteSecret?
        var expires: String = ""
    }

    /// The report has the `created` column (every sync report does).
    private(set) var dates = false
    /// The report has the invite columns: this run makes invites, or an earlier one did.
    private(set) var invites = false
    /// The day the accounts created by this run are dated with.
    private var today = ""
    /// By JID as the report writes it (`TerminalText.escaped`).
    private var cells: [String: Cells] = [:]

    /// No columns: a batch's report.
    init() {}

    /// The columns of a sync run writing the report at `path` (whose earlier cells are carried
    /// over), dating new accounts `today`.
    init(report path: String?, today: String) {
        dates = true
        self.today = today
        guard let path, let records = try? BatchReport.restoredRecords(at: path), let header = records.first?.fields,
              let jidColumn = header.firstIndex(of: "jid"), let passwordColumn = header.firstIndex(of: "password") else { return }
        let createdColumn = header.firstIndex(of: "created")
        let inviteColumn = header.firstIndex(of: "invite"), pageColumn = header.firstIndex(of: "landing_page")
        let expiresColumn = header.firstIndex(of: "invite_expires")
        if inviteColumn != nil { self.invites = true }
        for record in records.dropFirst() {
            let fields = record.fields
            func field(_ column: Int?) -> String { column.flatMap { $0 < fields.count ? fields[$0] : nil } ?? "" }
            guard !field(passwordColumn).isEmpty else { continue }
            let invite = field(inviteColumn).isEmpty ? nil : InviteSecret(uri: field(inviteColumn), landingPage: field(pageColumn))
            cells[field(jidColumn)] = Cells(password: TerminalText.escaped(field(passwordColumn)), created: field(createdColumn),
                                            invite: invite, expires: field(expiresColumn))
        }
    }

    /// `sync --invite`: the report has the invite columns even when no invite could be made.
    mutating func includeInvites() { invites = true }

    /// The invite made for `jid` (bare JID text) beside `password` this run.
    mutating func issued(_ invite: InviteSecret, expires: String?, jid: String, password: String) {
        let key = TerminalText.escaped(jid)
        var entry = current(key: key, password: password) ?? Cells(password: TerminalText.escaped(password))
        entry.invite = invite
        entry.expires = expires ?? ""
        cells[key] = entry
        invites = true
    }

    /// Whether `jid` has an invite made beside `password` (this run or an earlier one).
    func hasInvite(jid: String, password: String) -> Bool {
        current(key: TerminalText.escaped(jid), password: password)?.invite != nil
    }

    /// The header's columns.
    var header: [String] { (invites ? ["invite", "landing_page", "invite_expires"] : []) + (dates ? ["created"] : []) }

    /// The cells of `jid`'s row, whose password is `password` and status `status`: a row this run
    /// created is dated today unless an earlier report dated it beside the same password.
    func fields(jid: String, password: String?, status: String) -> [String] {
        let known = password.flatMap { current(key: TerminalText.escaped(jid), password: $0) }
        var out: [String] = []
        if invites {
            out += [known?.invite?.uri ?? "", known?.invite?.landingPage ?? "", known?.invite == nil ? "" : known?.expires ?? ""]
        }
        if dates {
            let created = known?.created ?? ""
            out.append(!created.isEmpty ? created : status == "created" && password != nil ? today : "")
        }
        return out
    }

    /// The secret a slip of this row shows: its invite when it has one, else `password`.
    func shown(jid: String, password: String?) -> String? {
        guard let password else { return nil }
        return current(key: TerminalText.escaped(jid), password: password)?.invite?.uri ?? password
    }

    private func current(key: String, password: String) -> Cells? {
        guard let entry = cells[key], entry.password == TerminalText.escaped(password) else { return nil }
        return entry
    }
}
