import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// What the server holds of the managed accounts, read before planning (`xmpp-register sync`
/// refreshes by default, as `terraform plan` does): which exist (the administrator's XEP-0133
/// commands, `AccountInventory`), and, by logging in as each account with the password the
/// report holds, whether it is enabled and which roster items it has. A log-in the server
/// refuses with `account-disabled` (RFC 6120 §6.5.1; Prosody 13 says so before any password
/// proof) is a disabled account; one refused as `not-authorized` is an account whose password
/// its user changed: not verifiable, never drift.
public struct SyncRefresh: Sendable, Equatable {
    /// What a log-in as one account found.
    public enum Reading: Sendable, Equatable {
        /// Logged in: its roster items.
        case roster([RosterItem])
        /// The server says the account is disabled.
        case disabled
        /// The password sync holds does not log in (changed by its user), or there is none.
        case notVerifiable(String)
    }

    /// Per domain, the accounts that exist; a domain missing here could not be asked.
    public var existing: [String: Set<JID>] = [:]
    /// Per managed account (bare JID text), what its log-in found; an account missing here was not logged in to.
    public var readings: [String: Reading] = [:]
    /// Per account logged in to, the profile fields its vcard-temp card holds.
    public var profiles: [String: LiveProfile] = [:]

    /// The text fields sync manages, as the account's card holds them (empty values as nil).
    public struct LiveProfile: Sendable, Equatable {
        public var nickname: String?
        public var fullname: String?
        public var emails: [String]

        public init(nickname: String? = nil, fullname: String? = nil, emails: [String] = []) {
            self.nickname = nickname
            self.fullname = fullname
            self.emails = emails
        }
    }
    /// Domains whose servers offer no command telling which accounts exist, and why it matters.
    public var unchecked: [String] = []

    public init(existing: [String: Set<JID>] = [:], readings: [String: Reading] = [:], unchecked: [String] = []) {
        self.existing = existing
        self.readings = readings
        self.unchecked = unchecked
    }

    /// Whether `jid` exists on its server: nil when its domain was not asked.
    public func exists(_ jid: JID) -> Bool? { existing[jid.domain].map { $0.contains(jid.bare) } }

    /// Asks the administrator's server which of `accounts` exist, domain by domain.
    public mutating func learnExistence(of accounts: [JID], on channel: any StanzaChannel) throws(AdHocError) {
        let byDomain = Dictionary(grouping: accounts.map(\.bare), by: \.domain)
        for domain in byDomain.keys.sorted() {
            let method = try AccountInventory.method(domain: domain, on: channel)
            if let found = try AccountInventory.existing(byDomain[domain] ?? [], domain: domain, method: method, on: channel) {
                existing[domain] = found
            } else {
                unchecked.append(domain)
            }
        }
    }

    /// Logs in as each of `accounts` with its password (by bare JID text), `jobs` at a time, and
    /// reads its roster. `endpoint` gives each domain's server.
    public mutating func read(_ accounts: [JID], passwords: [String: String], jobs: Int, timeout: Int, resource: String?,
                              endpoint: (_ domain: String) throws -> BatchEndpoint,
                              shouldStop: @escaping @Sendable () -> Bool) throws {
        var settings = EngineSettings()
        settings.jobs = max(1, jobs)
        settings.timeout = .seconds(timeout)
        settings.maxAttempts = 3
        settings.shouldStop = shouldStop
        var spreads: [String: EndpointSpread] = [:]
        var runnable: [JID] = []
        for jid in accounts {
            guard passwords[jid.bare.description] != nil else {
                readings[jid.bare.description] = .notVerifiable("no password in the report")
                continue
            }
            if spreads[jid.domain] == nil {
                let server = try endpoint(jid.domain)
                spreads[jid.domain] = EndpointSpread(options: server.options, tls: server.tls, trace: server.trace, streams: jobs)
            }
            runnable.append(jid)
        }
        let known = spreads
        let sessions = AccountSessions<RosterReading>(
            settings: settings, stopGrace: .seconds(2),
            logIn: { job throws(ConnectionError) in
                let jid = runnable[job]
                guard let spread = known[jid.domain] else { throw .protocolViolation("no endpoint for \(jid.domain)") }
                return try spread.startLogIn(username: jid.local ?? "", password: passwords[jid.bare.description] ?? "", resource: resource)
            },
            conversation: { _ in RosterReading() },
            bound: { link in known[link.connection.domain]?.bound(link) })
        var found: [String: Reading] = [:]
        var cards: [String: LiveProfile] = [:]
        let end = try sessions.run(count: runnable.count) { job, how in
            let key = runnable[job].bare.description
            switch how {
            case .done(let reading):
                found[key] = .roster(reading.items)
                if let card = reading.card {
                    func text(_ s: String?) -> String? { s.flatMap { $0.isEmpty ? nil : $0 } }
                    cards[key] = LiveProfile(nickname: text(card.nickname), fullname: text(card.fullName), emails: card.emails.map(\.address))
                }
            case .refused(let error, let duringLogIn, _):
                if duringLogIn, case .authenticationFailed(let condition, _) = error {
                    found[key] = condition == "account-disabled" ? .disabled
                        : .notVerifiable("the password in the report does not log in (changed by its user?)")
                } else {
                    found[key] = .notVerifiable("\(error)")
                }
            case .gaveUp(let error, let attempts):
                throw ConnectionError.timedOut("refreshing \(key): gave up after \(attempts) attempts: \(error)")
            }
            return false
        }
        if end == .interrupted { throw SyncRefreshInterrupted() }
        readings.merge(found) { _, new in new }
        profiles.merge(cards) { _, new in new }
    }
}

/// The refresh was stopped (Ctrl-C, SIGTERM) before it read every account: nothing is planned.
public struct SyncRefreshInterrupted: Error, CustomStringConvertible {
    public var description: String { "the refresh was interrupted; nothing was planned or changed" }
}

/// One account's roster and vcard-temp card, read over its own log-in: both requests go out at
/// once, and the account is done when both are answered.
final class RosterReading: AccountConversation {
    private var pending: RosterService.PendingFetch?
    private var cardID: String?
    private(set) var items: [RosterItem] = []
    private(set) var card: VCard?
    private var rosterRead = false

    func start(on link: PolledConnection, account: JID) throws -> ConversationStep {
        let (get, pending) = RosterService.fetchRequest(on: link.connection, cachedVer: nil)
        self.pending = pending
        let id = link.connection.makeID()
        cardID = id
        return .send([get.element, VCardService.request(for: nil, id: id).element])
    }

    func receive(_ element: XMLElement, on link: PolledConnection, account: JID) throws -> ConversationStep {
        guard let pending, case .reply(let iq)? = try PresenceService.event(in: element, on: link.connection, account: account) else {
            return .waiting
        }
        if iq.id == cardID {
            // A card the server cannot give (no vcard-temp) leaves the profile unread, not the roster.
            card = (try? VCardService.ownCard(in: iq)) ?? nil
            cardID = nil
        } else if iq.id == pending.id {
            if iq.type == .error { throw ConnectionError.stanzaError(iq.error ?? StanzaError(type: "cancel", condition: .undefinedCondition)) }
            guard case .full(let query) = try pending.take(iq) else {
                throw ConnectionError.protocolViolation("the server answered a roster request without the roster")
            }
            items = query.items
            rosterRead = true
        }
        return rosterRead && cardID == nil ? .finished : .waiting
    }
}
