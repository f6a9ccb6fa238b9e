import XMPPStanzas
import XMPPStorage

/// `--prune`: what happens to a managed account that left the file.
public enum SyncPrune: String, Sendable, CaseIterable {
    /// XEP-0133 disable-user where the server offers it (the default); else nothing, and the plan says so.
    case disable
    /// XEP-0133 delete-user.
    case delete
}

/// What sync learned from the server before planning: which domains offer disable-user (asked
/// only when someone left), and the SHA-256 of each avatar image file the sheet names.
public struct SyncFacts: Sendable, Equatable {
    /// Per domain: whether the administrator's server lists disable-user (nil: not asked).
    public var disableOffered: [String: Bool] = [:]
    /// Per avatar (`AvatarSource.key`: a file, or an image in the input): the hex SHA-256 of its bytes.
    public var avatarDigests: [String: String] = [:]
    /// What the server holds of the managed accounts (nil with `--no-refresh`: the plan then
    /// compares with the state only).
    public var refresh: SyncRefresh?
    /// Accounts `--adopt` puts under management (bare JID text), and whether sync holds each
    /// one's password (from the report, `--adopt-report` or its row: `SyncRun.logInPasswords`).
    public var adopted: [String: Bool] = [:]

    public init(disableOffered: [String: Bool] = [:], avatarDigests: [String: String] = [:], refresh: SyncRefresh? = nil) {
        self.disableOffered = disableOffered
        self.avatarDigests = avatarDigests
        self.refresh = refresh
    }
}

/// The difference between the file (the whole managed set) and what sync last applied: the
/// plan `--dry-run` prints and a run applies. Pure: from the sheet's rows, the state and the
/// server facts, nothing else. Leavers come first, as they are printed.
public struct SyncPlan: Sendable, Equatable {
    /// A managed account that left the file.
    public struct Leaver: Sendable, Equatable {
        public enum Action: String, Sendable {
            /// XEP-0133 disable-user.
            case disable
            /// XEP-0133 delete-user (`--prune delete`).
            case delete
            /// The server offers no disable-user and `--prune delete` was not given: left as it is.
            case cannotDisable = "cannot-disable"
            /// The refresh found it deleted on the server already: only the state forgets it.
            case gone
        }
        public var jid: JID
        public var action: Action
        /// True when sync had disabled it already (a later `--prune delete` deletes it).
        public var wasDisabled: Bool
    }

    /// An account to create.
    public struct Creation: Sendable, Equatable {
        public var line: Int
        public var jid: JID
        /// Why it is created again, when it existed before (deleted): it gets a new password.
        public var recreated: String?
    }

    /// A profile field to change.
    public struct FieldChange: Sendable, Equatable {
        public var field: String
        public var from: String?
        /// nil: the field is cleared (an emptied cell of a column the file has).
        public var to: String?
    }

    /// An existing account's profile fields to change.
    public struct ProfileChange: Sendable, Equatable {
        public var line: Int
        public var jid: JID
        /// Text fields (nickname, fullname, email), by field.
        public var fields: [FieldChange]
        /// The avatar image changed (or is new).
        public var avatar: Bool
    }

    /// One account's roster items to add, change (name or groups) and remove.
    public struct RosterChange: Sendable, Equatable {
        public var line: Int
        public var jid: JID
        public var add: [RosterItem]
        public var update: [RosterItem]
        public var remove: [JID]
    }

    /// A difference between what sync last applied and what the server holds, found by the
    /// refresh, with what the plan does about it.
    public struct Drift: Sendable, Equatable {
        public var jid: JID
        /// What changed on the server ("deleted on the server", "contact x@y removed by its user").
        public var what: String
        /// What the plan does ("created again, with a new password", "added again").
        public var action: String
    }

    /// A managed account the refresh could not read (its user changed its password): its
    /// profile and roster are planned from the state, as without a refresh; never drift.
    public struct Unverified: Sendable, Equatable {
        public var jid: JID
        public var why: String
    }

    /// An account that existed before sync, put under management by `--adopt`.
    public struct Adoption: Sendable, Equatable {
        public var line: Int
        public var jid: JID
        /// False when sync holds no password for it: its profile and roster cannot be read or
        /// changed (the plan says so); enabling, disabling and deleting still work.
        public var withPassword: Bool
    }

    public private(set) var adoptions: [Adoption] = []
    /// Groups (as the managed rosters file their members) all of whose members leave: named in
    /// the plan, so a class leaving at once is seen as one, whatever the removal limit says.
    public private(set) var groupsLeaving: [GroupLeaving] = []

    /// A group all of whose members leave.
    public struct GroupLeaving: Sendable, Equatable {
        public var name: String
        public var accounts: Int
    }
    public private(set) var drift: [Drift] = []
    public private(set) var unverified: [Unverified] = []
    public private(set) var leavers: [Leaver] = []
    /// Accounts sync had disabled that are back in the file: re-enabled (XEP-0133 reenable-user).
    public private(set) var reenable: [JID] = []
    /// Rows of accounts sync found existing and did not create: left alone, every time.
    public private(set) var notManaged: [JID] = []
    /// Of `notManaged`, those the refresh found on the server that sync has never seen.
    public private(set) var existedBefore: Set<JID> = []
    public private(set) var creations: [Creation] = []
    public private(set) var profiles: [ProfileChange] = []
    public private(set) var rosters: [RosterChange] = []
    /// True when the plan compared with the server (a refresh), not only with the state.
    public private(set) var refreshed = false
    /// Valid rows of managed accounts with nothing to do.
    public private(set) var unchanged = 0
    /// Active managed accounts before this run.
    public private(set) var managed = 0
    /// Each row's roster item list as the file wants it (by line), for the state after the run.
    var wanted: [Int: [RosterItem]] = [:]
    /// Rows created again after a deletion (by line): whatever roster the server kept of the old
    /// account is emptied before the new one's is made (Prosody 13 keeps it, with its old
    /// subscriptions), and every contact asks for its subscription anew.
    var rosterResets: Set<Int> = []

    /// Leavers that would be disabled or deleted.
    public var removals: Int {
        leavers.filter { ![.cannotDisable, .gone].contains($0.action) && !($0.action == .disable && $0.wasDisabled) }.count
    }

    /// True when there is nothing to send or record.
    public var isEmpty: Bool {
        leavers.allSatisfy { $0.action == .cannotDisable } && reenable.isEmpty && creations.isEmpty && profiles.isEmpty && rosters.isEmpty
            && adoptions.isEmpty
    }

    /// The default guard: more than this many removals need `--yes`: 10 % of the managed
    /// accounts, and never fewer than 5 (a class's few leavers pass, a truncated export does not).
    public static func defaultRemovalLimit(managed: Int) -> Int { max(5, managed / 10) }

    /// Whether applying the plan needs `--yes`: more removals than `limit`, or every managed
    /// account removed, however few they are (an empty or cut export of a small school is no
    /// fewer than the limit, yet leaves nobody).
    public func needsConfirmation(limit: Int) -> Bool { removals > limit || removesEveryone }

    /// Every managed account would be disabled or deleted.
    public var removesEveryone: Bool { removals > 0 && removals >= managed }

    /// Compares `rows` (the sheet's valid rows) with `state` (every domain's managed accounts, by
    /// bare JID) and `facts`.
    /// `columns`: the profile columns the file has (a field whose column is missing is not
    /// managed; an emptied cell of one it has clears the field).
    public init(rows: [BatchRow], state: [String: SyncState.Account], facts: SyncFacts, prune: SyncPrune,
                columns: Set<String> = Set(BatchColumns.profileColumns)) {
        let roster = RosterPlan(rows: rows.map(CheckedRow.valid))
        refreshed = facts.refresh != nil
        var listed: Set<String> = []
        managed = state.values.filter { $0.standing == .active }.count
        // Accounts sync does not manage: those its state says so, and those the refresh found that
        // it has never seen (made before sync, by batch or by hand; --adopt manages them).
        let untouchable = Set(state.filter { $0.value.standing == .notManaged }.map(\.key))
            .union(rows.map(\.jid.bare).filter { state[$0.description] == nil && facts.refresh?.exists($0) == true }.map(\.description))
        // Accounts whose password sync does not hold cannot approve a subscription: no roster gets them.
        let rosterless = untouchable.union(state.filter { $0.value.withoutPassword }.map(\.key))
        for row in rows {
            let jid = row.jid.bare
            listed.insert(jid.description)
            if let withPassword = facts.adopted[jid.description] {
                adoptions.append(Adoption(line: row.line, jid: jid, withPassword: withPassword))
            }
            // Nobody's roster gets an account sync does not manage: it cannot log in to approve.
            let wantedContacts = rosterless.contains(jid.description) ? []
                : (roster.contacts[row.line] ?? []).filter { !rosterless.contains($0.jid.bare.description) }
            wanted[row.line] = wantedContacts
            if untouchable.contains(jid.description) {
                notManaged.append(jid)
                if state[jid.description] == nil { existedBefore.insert(jid) }  // found by the refresh
                continue
            }
            let refreshed = facts.refresh?.readings[jid.description]
            if case .notVerifiable(let why)? = refreshed, state[jid.description]?.standing == .active {
                unverified.append(Unverified(jid: jid, why: why))
            }
            let goneOnServer = facts.refresh?.exists(jid) == false && [.active, .disabled].contains(state[jid.description]?.standing)
            if goneOnServer { drift.append(Drift(jid: jid, what: "deleted on the server", action: "created again, with a new password")) }
            guard let known = state[jid.description], known.standing != .deleted, !goneOnServer else {
                let recreated = state[jid.description].map { account in
                    goneOnServer ? "deleted on the server: created again, with a new password"
                        : "deleted \(account.note ?? "earlier"): created again, with a new password"
                }
                creations.append(Creation(line: row.line, jid: jid, recreated: recreated))
                if !wantedContacts.isEmpty {
                    rosters.append(RosterChange(line: row.line, jid: jid, add: wantedContacts, update: [], remove: []))
                }
                continue
            }
            if known.standing == .disabled {
                reenable.append(jid)
            } else if refreshed == .disabled {
                reenable.append(jid)
                drift.append(Drift(jid: jid, what: "disabled on the server", action: "enabled"))
            }
            var fields = SyncPlan.fieldChanges(row.profile, known, columns: columns)
            if let live = facts.refresh?.profiles[jid.description], facts.adopted[jid.description] == nil {
                let server = SyncPlan.liveFieldChanges(row.profile, known, live, columns: columns)
                fields = server.fields
                drift += server.drift.map { Drift(jid: jid, what: $0.what, action: $0.action) }
            }
            var avatarChanged = row.profile.avatar.map { facts.avatarDigests[$0.key] != known.avatar } ?? false
            if !avatarChanged, facts.adopted[jid.description] == nil, let what = facts.refresh?.replacedAvatars[jid.description] {
                avatarChanged = true
                drift.append(Drift(jid: jid, what: what, action: "the file's photo again"))
            }
            if !fields.isEmpty || avatarChanged {
                profiles.append(ProfileChange(line: row.line, jid: jid, fields: fields, avatar: avatarChanged))
            }
            var had = known.contacts
            var broken: Set<JID> = []
            if case .roster(let items)? = refreshed {
                let server = SyncPlan.serverRoster(items, managed: known.contacts, wanted: wantedContacts)
                had = server.had
                broken = server.broken
                // An adopted account's missing items are not drift: sync never made them.
                if facts.adopted[jid.description] == nil {
                    drift += server.drift.map { Drift(jid: jid, what: $0.what, action: $0.action) }
                }
            }
            var rosterChange = SyncPlan.rosterChange(line: row.line, jid: jid, wanted: wantedContacts, had: had)
            if !broken.isEmpty {
                // A subscription the server lost is asked for again: the roster pass does both sides.
                var change = rosterChange ?? RosterChange(line: row.line, jid: jid, add: [], update: [], remove: [])
                let listed = Set(change.add.map(\.jid.bare) + change.update.map(\.jid.bare))
                change.update += wantedContacts.filter { broken.contains($0.jid.bare) && !listed.contains($0.jid.bare) }
                rosterChange = change
            }
            if let change = rosterChange {
                rosters.append(change)
            }
        }
        // An account created again is new to its contacts, whatever their items say.
        let recreated = Set(creations.filter { $0.recreated != nil }.map(\.jid))
        if !recreated.isEmpty {
            for row in rows where !recreated.contains(row.jid.bare) {
                let renewed = (wanted[row.line] ?? []).filter { recreated.contains($0.jid.bare) }
                guard !renewed.isEmpty else { continue }
                if let i = rosters.firstIndex(where: { $0.line == row.line }) {
                    let listed = Set(rosters[i].add.map(\.jid) + rosters[i].update.map(\.jid))
                    rosters[i].update += renewed.filter { !listed.contains($0.jid) }
                } else {
                    rosters.append(RosterChange(line: row.line, jid: row.jid.bare, add: [], update: renewed, remove: []))
                }
            }
            rosterResets = Set(creations.filter { $0.recreated != nil && !(wanted[$0.line] ?? []).isEmpty }.map(\.line))
        }
        // Active managed accounts in the file that nothing in the plan touches.
        let touched = Set(creations.map(\.line) + profiles.map(\.line) + rosters.map(\.line) + adoptions.map(\.line))
        let enabled = Set(reenable)
        unchanged = rows.filter { row in
            state[row.jid.bare.description]?.standing == .active && !touched.contains(row.line) && !enabled.contains(row.jid.bare)
        }.count
        defer { groupsLeaving = SyncPlan.groupsLeaving(leavers.filter { $0.action != .gone }.map(\.jid), state: state) }
        for (text, account) in state.sorted(by: { $0.key < $1.key }) where !listed.contains(text) {
            guard let jid = try? JID(text), account.standing != .deleted, account.standing != .notManaged else { continue }
            let action: Leaver.Action
            if facts.refresh?.exists(jid) == false {
                action = .gone
                drift.append(Drift(jid: jid, what: "deleted on the server", action: "forgotten (it left the file)"))
            } else if prune == .delete {
                action = .delete
            } else if account.standing == .disabled {
                continue  // left earlier and disabled then: nothing more without --prune delete
            } else {
                action = facts.disableOffered[jid.domain] == true ? .disable : .cannotDisable
            }
            leavers.append(Leaver(jid: jid, action: action, wasDisabled: account.standing == .disabled))
        }
    }

    /// The text fields of the file's columns whose value differs from what was applied: a new
    /// value replaces it (an email replaces the address sync set, it is not added beside it); an
    /// emptied cell clears a field sync had set. A column the file does not have is not managed.
    static func fieldChanges(_ profile: ProfileColumns, _ known: SyncState.Account, columns: Set<String>) -> [FieldChange] {
        var out: [FieldChange] = []
        for (name, value, had) in [("nickname", profile.nickname, known.nickname), ("fullname", profile.fullname, known.fullname),
                                   ("email", profile.email, known.email)] where columns.contains(name) {
            if let value, value != had { out.append(FieldChange(field: name, from: had, to: value)) }
            if value == nil, had != nil { out.append(FieldChange(field: name, from: had, to: nil)) }
        }
        return out
    }

    /// The groups whose every member (by the groups the managed rosters file them under) is
    /// among `leaving`, with their sizes; groups of one are not named.
    static func groupsLeaving(_ leaving: [JID], state: [String: SyncState.Account]) -> [GroupLeaving] {
        guard !leaving.isEmpty else { return [] }
        var members: [String: Set<JID>] = [:]
        for account in state.values where account.standing == .active {
            for item in account.contacts {
                for group in item.groups { members[group, default: []].insert(item.jid.bare) }
            }
        }
        let gone = Set(leaving.map(\.bare))
        return members.filter { $0.value.count > 1 && $0.value.isSubset(of: gone) }
            .map { GroupLeaving(name: $0.key, accounts: $0.value.count) }.sorted { $0.name < $1.name }
    }

    /// The roster items sync manages as the server holds them (`items`: the account's roster),
    /// for `rosterChange` to compare with: an item sync left (`managed`) or the file wants, with
    /// its name and groups, when its subscription is both ways; one the server lost or whose
    /// subscription broke is missing, so it is planned again. Items the user added that the file
    /// does not name are not looked at. Also each difference, as drift.
    static func serverRoster(_ items: [RosterItem], managed: [RosterItem], wanted: [RosterItem])
        -> (had: [RosterItem], broken: Set<JID>, drift: [(what: String, action: String)]) {
        var server: [JID: RosterItem] = [:]
        for item in items { server[item.jid.bare] = item }
        let wantedJIDs = Set(wanted.map(\.jid.bare))
        var had: [RosterItem] = []
        var broken: Set<JID> = []
        var drift: [(what: String, action: String)] = []
        for item in managed {
            let contact = item.jid.bare
            guard let live = server[contact] else {
                if wantedJIDs.contains(contact) { drift.append(("contact \(contact) removed by its user", "added again")) }
                continue
            }
            guard live.subscription == .both else {
                if wantedJIDs.contains(contact) {
                    drift.append(("contact \(contact): subscription '\(live.subscription.rawValue)' on the server", "asked again"))
                    broken.insert(contact)
                    had.append(item)
                } else {
                    had.append(live)
                }
                continue
            }
            if wantedJIDs.contains(contact), let want = wanted.first(where: { $0.jid.bare == contact }),
               live.name != want.name || live.groups.sorted() != want.groups.sorted(), item.name == want.name, item.groups == want.groups {
                drift.append(("contact \(contact) renamed or regrouped on the server", "the file's name and groups again"))
            }
            had.append(RosterItem(jid: contact, name: live.name, subscription: live.subscription, groups: live.groups))
        }
        // An item the file wants that the user added themselves is the file's from now on.
        for item in wanted where !managed.contains(where: { $0.jid.bare == item.jid.bare }) {
            if let live = server[item.jid.bare], live.subscription == .both { had.append(live) }
        }
        return (had, broken, drift)
    }

    /// The text fields of the file's columns against the account's card as the refresh read it
    /// (`live`), not against the state: the file wins. A field that differs from the file is
    /// changed to the file's value (cleared for an empty cell); where the card also differs from
    /// what sync last set (`known`), its user or someone else changed it: drift. An email is
    /// compared by presence among the card's addresses (others the user added are not looked at).
    static func liveFieldChanges(_ profile: ProfileColumns, _ known: SyncState.Account, _ live: SyncRefresh.LiveProfile,
                                 columns: Set<String>) -> (fields: [FieldChange], drift: [(what: String, action: String)]) {
        var fields: [FieldChange] = []
        var drift: [(what: String, action: String)] = []
        func quoted(_ s: String?) -> String { s.map { "'\($0)'" } ?? "(none)" }
        for (name, value, had, now) in [("nickname", profile.nickname, known.nickname, live.nickname(against: profile.nickname)),
                                        ("fullname", profile.fullname, known.fullname, live.fullname)] where columns.contains(name) {
            guard now != value else { continue }
            fields.append(FieldChange(field: name, from: now, to: value))
            if now != had {
                drift.append(("\(name) changed on the server: \(quoted(now))",
                              value.map { "'\($0)' from the file" } ?? "cleared (the file's cell is empty)"))
            }
        }
        if columns.contains("email") {
            if let value = profile.email, !live.emails.contains(value) {
                fields.append(FieldChange(field: "email", from: known.email.flatMap { live.emails.contains($0) ? $0 : nil }, to: value))
                if value == known.email { drift.append(("email \(value) removed on the server", "added again")) }
            } else if profile.email == nil, let had = known.email, live.emails.contains(had) {
                fields.append(FieldChange(field: "email", from: had, to: nil))
            } else if let value = profile.email, let had = known.email, had != value, live.emails.contains(had) {
                fields.append(FieldChange(field: "email", from: had, to: value))  // the new one is there; the old goes
            }
        }
        return (fields, drift)
    }

    /// What the roster items sync left (`had`) lack against `wanted`; nil when they match.
    static func rosterChange(line: Int, jid: JID, wanted: [RosterItem], had: [RosterItem]) -> RosterChange? {
        var before: [JID: RosterItem] = [:]
        for item in had { before[item.jid.bare] = item }
        let wantedJIDs = Set(wanted.map(\.jid.bare))
        var change = RosterChange(line: line, jid: jid, add: [], update: [], remove: [])
        for item in wanted {
            guard let old = before[item.jid.bare] else { change.add.append(item); continue }
            if old.name != item.name || old.groups != item.groups { change.update.append(item) }
        }
        change.remove = had.map(\.jid.bare).filter { !wantedJIDs.contains($0) }
        return change.add.isEmpty && change.update.isEmpty && change.remove.isEmpty ? nil : change
    }

    /// The journal rows of a run of this plan over `rows`: creations `pending`, profile changes
    /// `conflict` (a log-in applies them), the others `exists`; the roster column `pending`
    /// where it changes, `unchanged` where it takes part as it is.
    func journalEntries(for rows: [BatchRow]) -> [JournalEntry] {
        let created = Set(creations.map(\.line))
        let profiled = Set(profiles.map(\.line))
        let rostered = Set(rosters.map(\.line))
        return rows.map { row in
            let status: JournalStatus = created.contains(row.line) ? .pending : profiled.contains(row.line) ? .conflict : .exists
            let takesPart = !(wanted[row.line] ?? []).isEmpty || rostered.contains(row.line)
            let roster: String? = rostered.contains(row.line) ? RosterPhase.State.pending.rawValue
                : takesPart ? RosterPhase.State.unchanged.rawValue : nil
            return JournalEntry(line: row.line, jid: row.jid.description, status: status, roster: roster)
        }
    }
}
