import CryptoPrimitives
import XMPPConnection
import XMPPServices
import XMPPStanzas
import XMPPStorage

/// One `xmpp-register sync`: the sheet (the whole managed set, read through `BatchSheet` like a
/// batch's), the state of each domain it manages, the plan between them, and its application:
/// leavers and returning accounts through the administrator's XEP-0133 commands, then the rest
/// as a batch run (`BatchRun`: add-user, profile log-ins, the roster phase), journaled and
/// resumable like one. The state takes the outcome once the run has finished every row.
public final class SyncRun {
    /// The sheet's valid rows.
    public let rows: [BatchRow]
    private let sheet: BatchSheet
    private let configuration: BatchConfiguration
    private let stateDirectory: String
    /// Each domain's state, by domain.
    public private(set) var states: [String: SyncState] = [:]
    /// What the server said and the images hash to.
    public private(set) var facts = SyncFacts()
    /// Held from reading the states to writing them.
    private let lock: FileLock

    /// Loads the state of every domain the rows name and of `domains` (the administrator's,
    /// `--domain`), and hashes the avatar images.
    public init(sheet: BatchSheet, configuration: BatchConfiguration, stateDirectory: String, domains: [String]) throws {
        self.sheet = sheet
        self.configuration = configuration
        self.stateDirectory = stateDirectory
        lock = try SyncState.lock(stateDirectory: stateDirectory)
        var rows: [BatchRow] = []
        for case .valid(let row) in sheet.rows { rows.append(row) }
        self.rows = rows
        for domain in domains + rows.map(\.jid.domain) where states[domain] == nil && SyncState.isDomain(domain) {
            states[domain] = try SyncState.load(domain: domain, stateDirectory: stateDirectory)
        }
        for source in Set(rows.compactMap(\.profile.avatar)) {
            // The validator has read each image already; one it cannot read now counts as changed.
            if let bytes = source.bytes() { facts.avatarDigests[source.key] = Hex.encode(Crypto.hash(.sha256, bytes)) }
        }
    }

    /// Every managed account of every domain, by bare JID.
    public var managed: [String: SyncState.Account] {
        states.values.reduce(into: [:]) { all, state in all.merge(state.accounts) { a, _ in a } }
    }

    /// The domains whose managed accounts left the file while still enabled: the plan needs to
    /// know whether their server offers disable-user.
    public var domainsWithLeavers: [String] {
        let listed = Set(rows.map(\.jid.bare.description))
        return states.keys.sorted().filter { domain in
            states[domain]?.accounts.contains { !listed.contains($0.key) && $0.value.standing == .active } ?? false
        }
    }

    /// Asks the administrator's server which of `domains` offer disable-user.
    public func learnDisableUser(domains: [String], on channel: any StanzaChannel) throws(AdHocError) {
        for domain in domains {
            facts.disableOffered[domain] = try AdminService.offers(.disableUser, domain: domain, on: channel)
        }
    }

    /// The plan.
    public func plan(prune: SyncPrune) -> SyncPlan {
        SyncPlan(rows: rows, state: managed, facts: facts, prune: prune)
    }

    /// What happened to one leaver or returning account.
    public struct AdminOutcome: Sendable, Equatable {
        public var jid: JID
        /// disabled, deleted, enabled, or failed.
        public var status: String
        public var error: String?
        public var note: String?
    }

    /// Disables or deletes the leavers and re-enables the returning accounts the plan lists, on
    /// the administrator's authenticated `channel`; each outcome goes into the state at once.
    public func applyLeavers(_ plan: SyncPlan, on channel: any StanzaChannel, today: String) throws -> [AdminOutcome] {
        var out: [AdminOutcome] = []
        for leaver in plan.leavers where leaver.action != .cannotDisable && !(leaver.action == .disable && leaver.wasDisabled) {
            let command: ServiceAdministration.Command = leaver.action == .delete ? .deleteUser : .disableUser
            var outcome = AdminOutcome(jid: leaver.jid, status: leaver.action == .delete ? "deleted" : "disabled")
            do {
                if try AdminService.perform(command, account: leaver.jid, on: channel) == .noSuchAccount {
                    outcome.status = "deleted"
                    outcome.note = "no such account (deleted outside sync)"
                }
            } catch {
                outcome.status = "failed"
                outcome.error = "\(command.rawValue): \(error)"
            }
            if outcome.status != "failed" {
                try update(leaver.jid) { account in
                    account.standing = outcome.status == "deleted" ? .deleted : .disabled
                    account.note = "\(outcome.status == "deleted" ? "by sync --prune delete" : "by sync") on \(today)"
                    account.contacts = []  // the others' rosters drop it; its own stays as it was
                }
            }
            out.append(outcome)
        }
        for jid in plan.reenable {
            var outcome = AdminOutcome(jid: jid, status: "enabled")
            do {
                if try AdminService.perform(.reenableUser, account: jid, on: channel) == .noSuchAccount {
                    outcome.status = "failed"
                    outcome.error = "no such account (deleted outside sync?)"
                }
            } catch {
                outcome.status = "failed"
                outcome.error = "reenable-user: \(error)"
            }
            if outcome.status == "enabled" { try update(jid) { $0.standing = .active; $0.note = nil } }
            out.append(outcome)
        }
        return out
    }

    private func update(_ jid: JID, _ change: (inout SyncState.Account) -> Void) throws {
        guard var state = states[jid.domain], var account = state.accounts[jid.bare.description] else { return }
        change(&account)
        state.accounts[jid.bare.description] = account
        states[jid.domain] = state
        try state.save(stateDirectory: stateDirectory)
    }

    /// True when the plan has work for a batch run (accounts, profiles or rosters).
    public static func needsBatch(_ plan: SyncPlan) -> Bool {
        !plan.creations.isEmpty || !plan.profiles.isEmpty || !plan.rosters.isEmpty
    }

    /// The batch run of `plan`'s accounts, profiles and rosters: its journal is the report's
    /// (`REPORT.journal`), named by the input and this part of the plan, so an interrupted sync
    /// of the same file and state continues where it stopped.
    public func batchRun(_ plan: SyncPlan, reportPath: String) throws -> BatchRun {
        var configuration = self.configuration
        configuration.admin = true
        configuration.generatePasswords = true
        configuration.onExists = .skip
        configuration.rosterMemoryPath = nil
        let digest = Hex.encode(Crypto.hash(.sha256, Array(SyncRun.describe(plan).utf8)))
        let identity = "xmpp-register sync v1; domain=\(configuration.domain ?? "-"); "
            + "input-sha256=\(Hex.encode(sheet.inputSHA256)); plan-sha256=\(digest)"
        let shape = BatchRun.Shape(identity: identity, entries: plan.journalEntries(for: rows),
                                   forget: Set(plan.creations.filter { $0.recreated != nil }.map(\.jid.description)))
        return try BatchRun(sheet: sheet, configuration: configuration, reportPath: reportPath, stateDirectory: stateDirectory,
                            shape: shape)
    }

    /// The part of the plan the batch run's journal stands for, as text (its digest names the run).
    static func describe(_ plan: SyncPlan) -> String {
        var text = ""
        for c in plan.creations { text += "create \(c.line) \(c.jid) \(c.recreated != nil)\n" }
        for p in plan.profiles { text += "profile \(p.line) \(p.jid) \(p.fields.map(\.field)) \(p.avatar)\n" }
        for r in plan.rosters {
            text += "roster \(r.line) \(r.jid) +\(r.add.map(\.jid)) ~\(r.update.map(\.jid)) -\(r.remove)\n"
        }
        return text
    }

    /// The batch plan of `run` shaped by `plan`: an existing account's profile log-in sets only
    /// the fields that changed (and the avatar only when its image did), the rosters lose the
    /// items the file no longer asks for, and only managed accounts' rosters are touched.
    public func batchPlan(_ run: BatchRun, _ plan: SyncPlan) throws -> BatchPlan {
        var batch = try run.plan()
        var changes: [Int: SyncPlan.ProfileChange] = [:]
        for p in plan.profiles { changes[p.line] = p }
        batch.followUps = batch.followUps.map { followUp in
            guard let change = changes[followUp.item.row.line] else { return followUp }
            var item = followUp.item
            let fields = Set(change.fields.map(\.field))
            let full = item.row.profile
            item.row.profile = ProfileColumns(nickname: fields.contains("nickname") ? full.nickname : nil,
                                              fullname: fields.contains("fullname") ? full.fullname : nil,
                                              email: fields.contains("email") ? full.email : nil,
                                              avatar: change.avatar ? full.avatar : nil)
            return (item, followUp.task)
        }
        let byLine = Dictionary(rows.map { ($0.line, $0) }, uniquingKeysWith: { a, _ in a })
        for change in plan.rosters where !change.remove.isEmpty {
            batch.rosterRemovals[change.line] = change.remove
            if let row = byLine[change.line] { batch.rosterRows[change.line] = row }
        }
        batch.rosterResets = plan.rosterResets
        batch.rosterAccounts = Set(managed.filter { [.active, .disabled].contains($0.value.standing) }.compactMap { try? JID($0.key) })
        return batch
    }

    /// Once the batch run has finished every row, takes its outcome into the state: the
    /// accounts it created become managed, and each managed account records the profile fields
    /// and avatar it now has and the roster items it was left with. An unfinished run changes
    /// nothing (the next sync continues it). Returns the rows planned as creations that turned
    /// out to exist: sync did not make them, and remembers to leave them alone.
    @discardableResult
    public func absorb(_ finish: BatchRun.Finish, plan: SyncPlan) throws -> [JID] {
        guard finish.finished else { return [] }
        var entries: [Int: JournalEntry] = [:]
        for e in finish.entries { entries[e.line] = e }
        let created = Set(plan.creations.map(\.line))
        var changes: [Int: SyncPlan.ProfileChange] = [:]
        for p in plan.profiles { changes[p.line] = p }
        var foreign: [JID] = []
        var touched: Set<String> = []
        // Accounts that turned out to exist: no roster got them, and the state says so.
        let existed = Set(rows.filter { created.contains($0.line) && entries[$0.line]?.status == .exists }.map(\.jid.bare))
        for row in rows {
            guard let entry = entries[row.line] else { continue }
            let key = row.jid.bare.description
            var state = states[row.jid.domain] ?? SyncState(domain: row.jid.domain)
            var account: SyncState.Account
            if created.contains(row.line) {
                guard entry.status == .created else {
                    if entry.status == .exists {
                        // Remembered, so that later plans leave it alone without trying again.
                        foreign.append(row.jid.bare)
                        state.accounts[key] = SyncState.Account(standing: .notManaged, note: "existed before sync, seen \(SyncClock.today())")
                        states[row.jid.domain] = state
                        touched.insert(row.jid.domain)
                    }
                    continue
                }
                account = SyncState.Account()
            } else {
                guard let known = state.accounts[key] else { continue }
                account = known
            }
            let pending: Set<String>
            switch ProfileState(journalText: entry.profile) {
            case .pending(let columns)?: pending = Set(columns)
            default: pending = []
            }
            let settable = created.contains(row.line) || entry.status == .updated
            if settable {
                let fields = created.contains(row.line) ? Set(row.profile.names) : Set((changes[row.line]?.fields ?? []).map(\.field))
                if fields.contains("nickname") && !pending.contains("nickname") { account.nickname = row.profile.nickname }
                if fields.contains("fullname") && !pending.contains("fullname") { account.fullname = row.profile.fullname }
                if fields.contains("email") && !pending.contains("email") { account.email = row.profile.email }
                let avatarSet = created.contains(row.line) || changes[row.line]?.avatar == true
                if avatarSet, let source = row.profile.avatar, !pending.contains("avatar") { account.avatar = facts.avatarDigests[source.key] }
            }
            if let roster = entry.roster, [RosterPhase.State.done.rawValue, RosterPhase.State.unchanged.rawValue].contains(roster) {
                account.contacts = (plan.wanted[row.line] ?? []).filter { !existed.contains($0.jid.bare) }
            } else if entry.roster == nil {
                account.contacts = []
            }
            state.accounts[key] = account
            states[row.jid.domain] = state
            touched.insert(row.jid.domain)
        }
        for domain in touched.sorted() { try states[domain]?.save(stateDirectory: stateDirectory) }
        return foreign
    }
}
