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

    public init(disableOffered: [String: Bool] = [:], avatarDigests: [String: String] = [:]) {
        self.disableOffered = disableOffered
        self.avatarDigests = avatarDigests
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
        public var to: String
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

    public private(set) var leavers: [Leaver] = []
    /// Accounts sync had disabled that are back in the file: re-enabled (XEP-0133 reenable-user).
    public private(set) var reenable: [JID] = []
    /// Rows of accounts sync found existing and did not create: left alone, every time.
    public private(set) var notManaged: [JID] = []
    public private(set) var creations: [Creation] = []
    public private(set) var profiles: [ProfileChange] = []
    public private(set) var rosters: [RosterChange] = []
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
    public var removals: Int { leavers.filter { $0.action != .cannotDisable && !($0.action == .disable && $0.wasDisabled) }.count }

    /// True when there is nothing to send.
    public var isEmpty: Bool {
        leavers.allSatisfy { $0.action == .cannotDisable } && reenable.isEmpty && creations.isEmpty && profiles.isEmpty && rosters.isEmpty
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
    public init(rows: [BatchRow], state: [String: SyncState.Account], facts: SyncFacts, prune: SyncPrune) {
        let roster = RosterPlan(rows: rows.map(CheckedRow.valid))
        var listed: Set<String> = []
        managed = state.values.filter { $0.standing == .active }.count
        let untouchable = Set(state.filter { $0.value.standing == .notManaged }.map(\.key))
        for row in rows {
            let jid = row.jid.bare
            listed.insert(jid.description)
            // Nobody's roster gets an account sync does not manage: it cannot log in to approve.
            let wantedContacts = (roster.contacts[row.line] ?? []).filter { !untouchable.contains($0.jid.bare.description) }
            wanted[row.line] = wantedContacts
            if untouchable.contains(jid.description) {
                notManaged.append(jid)
                continue
            }
            guard let known = state[jid.description], known.standing != .deleted else {
                let recreated = state[jid.description].map { "deleted \($0.note ?? "earlier"): created again, with a new password" }
                creations.append(Creation(line: row.line, jid: jid, recreated: recreated))
                if !wantedContacts.isEmpty {
                    rosters.append(RosterChange(line: row.line, jid: jid, add: wantedContacts, update: [], remove: []))
                }
                continue
            }
            if known.standing == .disabled { reenable.append(jid) }
            var changed = false
            let fields = SyncPlan.fieldChanges(row.profile, known)
            let avatarChanged = row.profile.avatar.map { facts.avatarDigests[$0.key] != known.avatar } ?? false
            if !fields.isEmpty || avatarChanged {
                profiles.append(ProfileChange(line: row.line, jid: jid, fields: fields, avatar: avatarChanged))
                changed = true
            }
            if let change = SyncPlan.rosterChange(line: row.line, jid: jid, wanted: wantedContacts, had: known.contacts) {
                rosters.append(change)
                changed = true
            }
            if !changed && known.standing == .active { unchanged += 1 }
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
                    unchanged -= state[row.jid.bare.description]?.standing == .active ? 1 : 0
                }
            }
            rosterResets = Set(creations.filter { $0.recreated != nil && !(wanted[$0.line] ?? []).isEmpty }.map(\.line))
        }
        for (text, account) in state.sorted(by: { $0.key < $1.key }) where !listed.contains(text) {
            guard let jid = try? JID(text), account.standing != .deleted, account.standing != .notManaged else { continue }
            let action: Leaver.Action
            if prune == .delete {
                action = .delete
            } else if account.standing == .disabled {
                continue  // left earlier and disabled then: nothing more without --prune delete
            } else {
                action = facts.disableOffered[jid.domain] == true ? .disable : .cannotDisable
            }
            leavers.append(Leaver(jid: jid, action: action, wasDisabled: account.standing == .disabled))
        }
    }

    /// The text fields the row gives that differ from what was applied. An empty cell is no
    /// change: sync never clears a field it cannot know the user did not set.
    static func fieldChanges(_ profile: ProfileColumns, _ known: SyncState.Account) -> [FieldChange] {
        var out: [FieldChange] = []
        for (name, value, had) in [("nickname", profile.nickname, known.nickname), ("fullname", profile.fullname, known.fullname),
                                   ("email", profile.email, known.email)] {
            if let value, value != had { out.append(FieldChange(field: name, from: had, to: value)) }
        }
        return out
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
