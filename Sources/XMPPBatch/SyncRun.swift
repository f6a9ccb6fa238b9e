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
        for case .valid(var row) in sheet.rows {
            // `sync --rosters shared`: the server's shared groups give the rosters, so no row has roster items.
            if configuration.sharedGroups { row.roster = RosterColumns() }
            rows.append(row)
        }
        self.rows = rows
        for domain in domains + rows.map(\.jid.domain) where states[domain] == nil && SyncState.isDomain(domain) {
            states[domain] = try SyncState.load(domain: domain, stateDirectory: stateDirectory)
        }
        for source in Set(rows.compactMap(\.profile.avatar)) {
            // The validator has read each image already; one it cannot read now counts as changed.
            if let bytes = source.bytes() { facts.avatarDigests[source.key] = Hex.encode(Crypto.hash(.sha256, bytes)) }
        }
    }

    /// What to tell the administrator about the file before the plan: a `groups` column without
    /// `contacts` files nobody under anything (groups name the rows' own group; `contacts` says
    /// whom each row sees), so no roster is made.
    public var fileNotes: [String] {
        let columns = Set(sheet.columns.presentRosterColumns)
        guard columns.contains("groups"), !columns.contains("contacts") else { return [] }
        return ["the file has a groups column but no contacts column, so sync makes no roster: add contacts "
                + "(for class rosters, each pupil's contacts = its own group, e.g. 'Class 5A;Teachers'; with --map, "
                + "map an attribute to contacts too)"]
    }

    /// Every managed account of every domain, by bare JID.
    public var managed: [String: SyncState.Account] {
        // One domain's accounts as they are (no copy); several merged.
        if states.count == 1, let only = states.first { return only.value.accounts }
        return states.values.reduce(into: [:]) { all, state in all.merge(state.accounts) { a, _ in a } }
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

    /// True when the report's journal holds an interrupted sync: running sync again continues it
    /// with the plan it recorded, so the server is not read (a half-applied plan is not drift).
    public static func continuesInterruptedRun(reportPath: String?) -> Bool {
        reportPath.map { BatchJournal.isUnfinished($0 + ".journal") } ?? false
    }

    /// Passwords of adopted accounts from `--adopt-report` (not yet in the sync's report): they
    /// are kept in the report from now on. Never a row's own password (the administrator's).
    private(set) var adoptedPasswords: [String: String] = [:]

    /// `--adopt`: the file's accounts that exist on the server but that sync did not create (the
    /// administrator's commands say which exist) go under management, as if sync had applied
    /// the file to them: their profile fields as the file says, and as roster items the file's
    /// contacts adopted with them; the refresh then reads their rosters, so what a batch did not finish
    /// is planned like drift. Nothing is created again and no password changes. The passwords
    /// are those sync logs in with everywhere (`logInPasswords`): the report's, `--adopt-report`'s,
    /// then the row's own; an account without any is adopted all the same, and the plan says
    /// its profile and roster cannot be checked.
    public func adopt(on channel: any StanzaChannel, reportPath: String?, adoptReport: String?) throws {
        let candidates = adoptionCandidates
        guard !candidates.isEmpty else { return }
        var inventory = SyncRefresh()
        try inventory.learnExistence(of: candidates.map(\.jid.bare), on: channel)
        let own = try reportPath.map { path throws(BatchError) in try BatchReport.knownPasswords(at: path) } ?? [:]
        let other = try adoptReport.map { path throws(BatchError) in try BatchReport.knownPasswords(at: path) } ?? [:]
        adopt(Set(candidates.filter { inventory.exists($0.jid) == true }.map(\.jid.bare)), report: own, adoptReport: other)
    }

    /// The rows `--adopt` may adopt: those sync has never managed.
    var adoptionCandidates: [BatchRow] {
        let managed = self.managed  // merged once, not once a row
        return rows.filter { row in
            let standing = managed[row.jid.bare.description]?.standing
            return standing == nil || standing == .notManaged
        }
    }

    /// Puts `existing` (of `adoptionCandidates`: those the server has) under management, with
    /// `report` and `adoptReport`'s passwords, by bare JID, and the rows' own after them.
    func adopt(_ existing: Set<JID>, report own: [String: String], adoptReport other: [String: String]) {
        guard !existing.isEmpty else { return }
        let candidates = adoptionCandidates.filter { existing.contains($0.jid.bare) }
        // A row's own password (a `password` column: the administrator's, which batch made the
        // account with) logs in as well as a report's; held in memory only, like the refresh's.
        let passwords = Self.logInPasswords(report: own, adopted: other, rows: candidates)
        // The pairs among the adopted accounts are taken as made (a batch of the same file made
        // them; the refresh reads what it did not finish); a pair with any other account is new.
        // An account without a password cannot log in to approve a subscription: no roster has it.
        let present = existing.filter { passwords[$0.description] != nil }
        let roster = RosterPlan(rows: rows.map(CheckedRow.valid))
        let today = SyncClock.today()
        for row in candidates {
            let key = row.jid.bare.description
            let password = passwords[key]
            var account = SyncState.Account(
                standing: .active, nickname: row.profile.nickname, fullname: row.profile.fullname, email: row.profile.email,
                avatar: row.profile.avatar.flatMap { facts.avatarDigests[$0.key] },
                contacts: password == nil ? [] : (roster.contacts[row.line] ?? []).filter { present.contains($0.jid.bare) },
                note: "adopted by sync on \(today)")
            account.withoutPassword = password == nil
            setAccount(key, of: row.jid.domain, to: account)
            // Only --adopt-report's goes on to the report; the report's is there, the row's never is.
            if own[key] == nil, let adopted = other[key] { adoptedPasswords[key] = adopted }
            facts.adopted[key] = password != nil
        }
    }

    /// Accounts adopted without a password (`withoutPassword`) that sync now has one for, in
    /// `passwords` (`logInPasswords`: the file's row gained a password column, or a sync before
    /// `--adopt` looked at the rows adopted them): managed fully from now on, their rosters
    /// planned like any other's. The state keeps that once a run has finished (`absorb`).
    func takeUp(_ passwords: [String: String]) {
        for (key, account) in managed where account.withoutPassword && passwords[key] != nil {
            guard let jid = try? JID(key) else { continue }
            var account = account
            account.withoutPassword = false
            setAccount(key, of: jid.domain, to: account)
        }
    }

    /// True when a refresh has something to read: managed accounts, or rows sync never saw.
    public var hasAnythingToRefresh: Bool {
        let managed = self.managed
        return !refreshable.isEmpty || rows.contains { managed[$0.jid.bare.description] == nil }
    }

    /// The managed accounts the refresh reads: those sync created and has not seen deleted.
    public var refreshable: [JID] {
        managed.filter { [.active, .disabled].contains($0.value.standing) }.keys.sorted().compactMap { try? JID($0) }
    }

    /// The accounts whose roster the refresh asks for: those with managed roster items or that
    /// the file gives contacts (either side of a pair). With `--rosters shared` none: the server's groups give the rosters.
    var rostersToRead: Set<String> {
        var accounts = Set(managed.filter { !$0.value.contacts.isEmpty }.keys)
        let wanted = RosterPlan(rows: rows.map(CheckedRow.valid)).contacts
        for row in rows where !(wanted[row.line] ?? []).isEmpty { accounts.insert(row.jid.bare.description) }
        return accounts
    }

    /// Reads the server before planning (`SyncRefresh`): which managed accounts exist, through
    /// the administrator's `channel`; then, with a report, for those in the file that exist, a
    /// log-in as each with the password the report at `reportPath` holds (its enabled state and roster).
    public func refresh(on channel: any StanzaChannel, reportPath: String?, jobs: Int,
                        endpoint: (_ domain: String) throws -> BatchEndpoint,
                        shouldStop: @escaping @Sendable () -> Bool) throws {
        var refresh = SyncRefresh()
        let accounts = refreshable
        let managed = self.managed  // merged once, not once an account
        // The file's accounts sync has never seen are asked about too: one that exists was made
        // before sync, and is not created (the plan names --adopt) rather than found at add-user.
        let unseen = rows.map(\.jid.bare).filter { managed[$0.description] == nil }
        try refresh.learnExistence(of: accounts + unseen, on: channel)
        let listed = Set(rows.map(\.jid.bare))
        let toRead = accounts.filter { listed.contains($0) && refresh.exists($0) != false && managed[$0.description]?.standing == .active }
        // Without a report (a dry run's plan), only existence is read: no account is unverified for it.
        guard let reportPath else {
            facts.refresh = refresh
            return
        }
        let passwords = Self.logInPasswords(report: try BatchReport.knownPasswords(at: reportPath), adopted: adoptedPasswords, rows: rows)
        takeUp(passwords)
        var offered: [String: Bool] = facts.disableOffered
        let logIns = try Self.logInsNeeded(toRead, profileColumns: !sheet.columns.presentProfileColumns.isEmpty, rosters: rostersToRead) { domain in
            if let known = offered[domain] { return known }
            let answer = try AdminService.offers(.disableUser, domain: domain, on: channel)
            offered[domain] = answer
            return answer
        }
        facts.disableOffered = offered
        // Only a row with an avatar has a photo to compare (`compareAvatars`).
        let avatars = Set(rows.filter { $0.profile.avatar != nil }.map(\.jid.bare.description))
        try refresh.read(logIns, passwords: passwords, rosters: rostersToRead, avatars: avatars, jobs: jobs, timeout: configuration.timeout, resource: configuration.resource,
                         endpoint: endpoint, shouldStop: shouldStop)
        refresh.compareAvatars(rows)
        facts.refresh = refresh
    }

    /// The accounts of `toRead` the refresh logs in to. A log-in reads the profile (when the file
    /// has profile columns), the roster (of an account in `rosters`), and whether the server
    /// calls the account disabled — which matters only where the server offers disable-user
    /// (`disableOffered`, asked once per domain): elsewhere (ejabberd 23.01 and 24.12, Prosody
    /// 0.12) nobody can disable an account that way, and existence comes from the
    /// administrator's list. So a file without profile columns, with rosters from the server's
    /// shared groups, is refreshed there without a single account log-in.
    static func logInsNeeded(_ toRead: [JID], profileColumns: Bool, rosters: Set<String>,
                             disableOffered: (_ domain: String) throws -> Bool) throws -> [JID] {
        if profileColumns { return toRead }
        return try toRead.filter { jid in try rosters.contains(jid.bare.description) || disableOffered(jid.domain) }
    }

    /// The passwords sync logs in with to read accounts, by bare JID: the report's (those sync
    /// generated), then `--adopt-report`'s, then, for an account neither holds, the password its
    /// row in the file gives. That one is the administrator's own (a `password` column): the
    /// batch made the account with it and, as for any row with a password, the report does not
    /// keep it; it is held in memory for the log-in only, never written to the report or any file.
    static func logInPasswords(report: [String: String], adopted: [String: String], rows: [BatchRow]) -> [String: String] {
        var passwords = report.merging(adopted) { own, _ in own }
        for row in rows {
            guard let password = row.password else { continue }
            let key = row.jid.bare.description
            if passwords[key] == nil { passwords[key] = password }
        }
        return passwords
    }

    /// What the read-back after a run found: `problems`, what the server did not keep (failures:
    /// the next refresh plans them again); `unchecked`, accounts it had no password to log in as
    /// (neither the report nor the file gives one): not read, so not counted as failures, and
    /// listed by the next refresh as unverified.
    public struct ReadBack: Sendable, Equatable {
        public var problems: [String] = []
        public var unchecked: [String] = []
    }

    /// After a finished run: the accounts it created, enabled or whose roster it changed, read
    /// back with a log-in each (`SyncRefresh.read`, with `logInPasswords`) and compared with
    /// what the state now says sync left them with. What the server did not keep (a contact
    /// missing, a subscription not both ways, an account still disabled or that does not log
    /// in) is a problem, one line each: the run reports it as a failure, and the next refresh
    /// plans it again as drift. An account without a password to log in with cannot be checked:
    /// it is said as such, never as not kept. `entries`: the finished batch run's journal
    /// entries (`readBack(_:managed:entries:)` says which accounts they already proved).
    public func verify(_ plan: SyncPlan, entries: [JournalEntry], reportPath: String, jobs: Int,
                       endpoint: (_ domain: String) throws -> BatchEndpoint,
                       shouldStop: @escaping @Sendable () -> Bool) throws -> ReadBack {
        let selected = Self.readBack(plan, managed: managed, entries: entries)
        guard !selected.isEmpty else { return ReadBack() }
        let passwords = Self.logInPasswords(report: try BatchReport.knownPasswords(at: reportPath), adopted: adoptedPasswords, rows: rows)
        var result = ReadBack()
        let accounts = selected.filter { passwords[$0.description] != nil }
        for jid in selected where passwords[jid.description] == nil {
            result.unchecked.append("\(jid): cannot be checked (no password in the report or the file to log in with); "
                                    + "not counted as a failure, the next sync lists it as unverified")
        }
        guard !accounts.isEmpty else { return result }
        var reading = SyncRefresh()
        try reading.read(accounts, passwords: passwords, jobs: jobs, timeout: configuration.timeout,
                         resource: configuration.resource, endpoint: endpoint, shouldStop: shouldStop)
        result.problems = Self.notKept(accounts, readings: reading.readings, managed: managed)
        return result
    }

    /// What the read-back's `readings` of `accounts` show the server did not keep of what
    /// `managed` says sync left them with, one line each.
    static func notKept(_ accounts: [JID], readings: [String: SyncRefresh.Reading], managed: [String: SyncState.Account]) -> [String] {
        var problems: [String] = []
        for jid in accounts {
            switch readings[jid.description] {
            case .roster(let items)?:
                var server: [JID: RosterItem] = [:]
                for item in items { server[item.jid.bare] = item }
                for contact in managed[jid.description]?.contacts ?? [] {
                    guard let live = server[contact.jid.bare] else {
                        problems.append("\(jid): the server did not keep contact \(contact.jid.bare)")
                        continue
                    }
                    if live.subscription != .both {
                        problems.append("\(jid): contact \(contact.jid.bare) has subscription '\(live.subscription.rawValue)', not both")
                    }
                }
            case .disabled?: problems.append("\(jid): still disabled on the server")
            case .notVerifiable(let why)?: problems.append("\(jid): not verified (\(why))")
            case nil: problems.append("\(jid): not verified")
            }
        }
        return problems
    }

    /// The accounts `verify` logs in to: those the run created, enabled or whose roster it
    /// changed, still active in the state — except an account with no managed contacts that the
    /// run itself logged in to after making it (its profile log-in applied every column): the
    /// read-back would check only that it logs in and is enabled, which that log-in proved. With
    /// `sync --rosters shared` no account has managed contacts, so a first sync of a school is
    /// not logged in to a second time (320 log-ins fewer); roster items are always read back.
    static func readBack(_ plan: SyncPlan, managed: [String: SyncState.Account], entries: [JournalEntry]) -> [JID] {
        var loggedIn: Set<String> = []
        for entry in entries where [.created, .updated].contains(entry.status) && ProfileState(journalText: entry.profile) == .applied {
            loggedIn.insert(entry.jid)
        }
        let reenabled = Set(plan.reenable)
        let touched = Set(plan.creations.map(\.jid) + plan.rosters.map(\.jid) + plan.reenable)
        return touched.filter { jid in
            guard let account = managed[jid.description], account.standing == .active else { return false }
            if reenabled.contains(jid) || !account.contacts.isEmpty { return true }
            return !loggedIn.contains(jid.description)
        }.sorted { $0.description < $1.description }
    }

    /// The plan.
    public func plan(prune: SyncPrune) -> SyncPlan {
        SyncPlan(rows: rows, state: managed, facts: facts, prune: prune, columns: Set(sheet.columns.presentProfileColumns))
    }

    /// What happened to one leaver or returning account.
    public struct AdminOutcome: Sendable, Equatable {
        /// What the administrator's command did to the account.
        public enum Status: String, Sendable {
            case disabled, deleted, enabled, failed
        }

        public var jid: JID
        public var status: Status
        public var error: String?
        public var note: String?

        /// An outcome from its parts.
        public init(jid: JID, status: Status, error: String? = nil, note: String? = nil) {
            self.jid = jid
            self.status = status
            self.error = error
            self.note = note
        }
    }

    /// Disables or deletes the leavers and re-enables the returning accounts the plan lists, on
    /// the administrator's authenticated `channel`; each outcome goes into the state at once.
    public func applyLeavers(_ plan: SyncPlan, on channel: any StanzaChannel, today: String) throws -> [AdminOutcome] {
        var out: [AdminOutcome] = []
        for leaver in plan.leavers where leaver.action == .gone {
            // Nothing to send: the refresh found it deleted on the server.
            try update(leaver.jid) { account in
                account.standing = .deleted
                account.note = "on the server, seen by sync on \(today)"
                account.contacts = []
            }
            out.append(AdminOutcome(jid: leaver.jid, status: .deleted, note: "deleted on the server already"))
        }
        for leaver in plan.leavers where ![.cannotDisable, .gone].contains(leaver.action) && !(leaver.action == .disable && leaver.wasDisabled) {
            let command: ServiceAdministration.Command = leaver.action == .delete ? .deleteUser : .disableUser
            var outcome = AdminOutcome(jid: leaver.jid, status: leaver.action == .delete ? .deleted : .disabled)
            do {
                if try AdminService.perform(command, account: leaver.jid, on: channel) == .noSuchAccount {
                    outcome.status = .deleted
                    outcome.note = "no such account (deleted outside sync)"
                }
            } catch {
                outcome.status = .failed
                outcome.error = "\(command.rawValue): \(error)"
            }
            if outcome.status != .failed {
                try update(leaver.jid) { account in
                    account.standing = outcome.status == .deleted ? .deleted : .disabled
                    account.note = "\(outcome.status == .deleted ? "by sync --prune delete" : "by sync") on \(today)"
                    account.contacts = []  // the others' rosters drop it; its own stays as it was
                }
            }
            out.append(outcome)
        }
        for jid in plan.reenable {
            var outcome = AdminOutcome(jid: jid, status: .enabled)
            do {
                if try AdminService.perform(.reenableUser, account: jid, on: channel) == .noSuchAccount {
                    outcome.status = .failed
                    outcome.error = "no such account (deleted outside sync?)"
                }
            } catch {
                outcome.status = .failed
                outcome.error = "reenable-user: \(error)"
            }
            if outcome.status == .enabled { try update(jid) { $0.standing = .active; $0.note = nil } }
            out.append(outcome)
        }
        return out
    }

    private func update(_ jid: JID, _ change: (inout SyncState.Account) -> Void) throws {
        guard var account = states[jid.domain]?.accounts[jid.bare.description] else { return }
        change(&account)
        setAccount(jid.bare.description, of: jid.domain, to: account)
        try states[jid.domain]?.save(stateDirectory: stateDirectory)
    }

    /// Changes one account of a domain's state in place: a copy of the state taken out of
    /// `states` and put back would copy all its accounts for each one changed.
    private func setAccount(_ key: String, of domain: String, to account: SyncState.Account) {
        states[domain, default: SyncState(domain: domain)].accounts[key] = account
    }

    /// True when the plan has work for a batch run (accounts, profiles or rosters).
    public static func needsBatch(_ plan: SyncPlan) -> Bool {
        !plan.creations.isEmpty || !plan.profiles.isEmpty || !plan.rosters.isEmpty || !plan.adoptions.isEmpty
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
        let identity = BatchIdentity.sync(domain: configuration.domain, inputSHA256: Hex.encode(sheet.inputSHA256), planSHA256: digest)
        let shape = BatchRun.Shape(identity: identity, entries: plan.journalEntries(for: rows),
                                   forget: Set(plan.creations.filter { $0.recreated != nil }.map(\.jid.description)),
                                   adopted: adoptedPasswords)
        return try BatchRun(sheet: sheet, configuration: configuration, reportPath: reportPath, stateDirectory: stateDirectory,
                            shape: shape)
    }

    /// The part of the plan the batch run's journal stands for, as text (its digest names the run).
    static func describe(_ plan: SyncPlan) -> String {
        var text = ""
        for c in plan.creations { text += "create \(c.line) \(c.jid) \(c.recreated != nil)\n" }
        for p in plan.profiles { text += "profile \(p.line) \(p.jid) \(p.fields.map(\.field)) \(p.avatar)\n" }
        for a in plan.adoptions { text += "adopt \(a.line) \(a.jid)\n" }
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
            var profile = ProfileColumns(nickname: fields.contains("nickname") ? full.nickname : nil,
                                         fullname: fields.contains("fullname") ? full.fullname : nil,
                                         email: fields.contains("email") ? full.email : nil,
                                         avatar: change.avatar ? full.avatar : nil)
            profile.cleared = change.fields.filter { $0.to == nil }.map(\.field)
            profile.replacedEmail = change.fields.first { $0.field == "email" }?.from
            item.row.profile = profile
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
            if plan.existedBefore.contains(row.jid.bare) {
                // Found by the refresh; remembered, so that a plan without one leaves it alone too.
                setAccount(key, of: row.jid.domain, to: SyncState.Account(standing: .notManaged, note: "existed before sync, seen \(SyncClock.today())"))
                touched.insert(row.jid.domain)
                continue
            }
            var account: SyncState.Account
            if created.contains(row.line) {
                guard entry.status == .created else {
                    if entry.status == .exists {
                        // Remembered, so that later plans leave it alone without trying again.
                        foreign.append(row.jid.bare)
                        setAccount(key, of: row.jid.domain, to: SyncState.Account(standing: .notManaged, note: "existed before sync, seen \(SyncClock.today())"))
                        touched.insert(row.jid.domain)
                    }
                    continue
                }
                account = SyncState.Account()
            } else {
                guard let known = states[row.jid.domain]?.accounts[key] else { continue }
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
            setAccount(key, of: row.jid.domain, to: account)
            touched.insert(row.jid.domain)
        }
        for domain in touched.sorted() { try states[domain]?.save(stateDirectory: stateDirectory) }
        return foreign
    }
}
