import XMLTree
import XMPPConnection
import XMPPServices
import XMPPStanzas

/// What the server holds of the managed accounts, read before planning (`xmpp-register sync`
/// refreshes by default, as `terraform plan` does): which exist (the administrator's XEP-0133
/// commands, `AccountInventory`), and, by logging in as each account with the password the
/// report holds, whether it is enabled, which roster items it has, its vcard-temp card, its
/// PEP nickname (XEP-0172) and the id of its PEP avatar (XEP-0084). A log-in the server
/// refuses with `account-disabled` (RFC 6120 §6.5.1; Prosody 13 says so before any password
/// proof) is a disabled account; one refused as `not-authorized` is an account whose password
/// its user changed: not verifiable, never drift.
public struct SyncRefresh: Sendable, Equatable {
    /// What a log-in as one account found.
    public enum Reading: Sendable, Equatable {
        /// Logged in: its roster items (none when its roster was not asked for: see `read`).
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

    /// Per account logged in to whose PEP avatar could be read, the id (hex SHA-1) of the image its
    /// metadata node names; empty when it publishes none (no node, or the avatar disabled).
    public var avatarIDs: [String: String] = [:]
    /// Per account whose avatar is not the file's image sync published: what happened ("photo
    /// changed on the server", "photo removed on the server"). Set by `compareAvatars`.
    public var replacedAvatars: [String: String] = [:]

    /// The text fields sync manages, as the account's card holds them (empty values as nil).
    public struct LiveProfile: Sendable, Equatable {
        public var nickname: String?
        public var fullname: String?
        public var emails: [String]
        /// The nickname in the account's PEP nickname node (XEP-0172), which sync sets beside the
        /// card's and which clients such as Conversations change; nil when it holds none.
        public var pepNickname: String?
        /// The nickname node was read (it exists and the account may read it).
        public var hasPEPNickname = false

        public init(nickname: String? = nil, fullname: String? = nil, emails: [String] = [], pepNickname: String? = nil,
                    hasPEPNickname: Bool = false) {
            self.nickname = nickname
            self.fullname = fullname
            self.emails = emails
            self.pepNickname = pepNickname
            self.hasPEPNickname = hasPEPNickname
        }

        /// The nickname on the server to compare with the file's `value`: sync sets it in the card
        /// and in the nickname node, so the first of them that differs from the file is the one
        /// changed behind sync's back; `value` when both agree with it.
        public func nickname(against value: String?) -> String? {
            if nickname != value { return nickname }
            if hasPEPNickname && pepNickname != value { return pepNickname }
            return value
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
    /// reads its roster, card, PEP nickname and avatar id. `endpoint` gives each domain's server.
    /// `rosters`: the accounts (bare JID text) whose roster is asked for; nil for all. An account
    /// with no managed roster items and none wanted (`sync --rosters shared`) has nothing there
    /// to compare, and its roster can be long (a teacher in shared groups sees the whole school).
    /// `avatars`: the accounts whose PEP avatar metadata is asked for (a row with an avatar); nil for all.
    public mutating func read(_ accounts: [JID], passwords: [String: String], rosters: Set<String>? = nil, avatars: Set<String>? = nil,
                              jobs: Int, timeout: Int,
                              resource: String?,
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
            conversation: { job in
                let key = runnable[job].bare.description
                return RosterReading(readsRoster: rosters?.contains(key) ?? true, readsAvatar: avatars?.contains(key) ?? true)
            },
            bound: { link in known[link.connection.domain]?.bound(link) })
        var found: [String: Reading] = [:]
        var cards: [String: LiveProfile] = [:]
        var avatars: [String: String] = [:]
        let end = try sessions.run(count: runnable.count) { job, how in
            let key = runnable[job].bare.description
            switch how {
            case .done(let reading):
                found[key] = .roster(reading.items)
                if let card = reading.card {
                    func text(_ s: String?) -> String? { s.flatMap { $0.isEmpty ? nil : $0 } }
                    cards[key] = LiveProfile(nickname: text(card.nickname), fullname: text(card.fullName), emails: card.emails.map(\.address),
                                             pepNickname: reading.pepNickname ?? nil, hasPEPNickname: reading.pepNickname != nil)
                }
                if let id = reading.avatarID { avatars[key] = id }
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
        avatarIDs.merge(avatars) { _, new in new }
    }

    /// Compares each of `rows`' accounts whose avatar was read with the image sync publishes for
    /// the row (its file resized as the batch resizes it: the id is the SHA-1 of those PNG bytes),
    /// each image resized once. A row without an avatar, or whose image cannot be read, is not
    /// compared.
    public mutating func compareAvatars(_ rows: [BatchRow]) {
        var published: [String: String] = [:]
        for row in rows {
            let key = row.jid.bare.description
            guard let source = row.profile.avatar, let live = avatarIDs[key] else { continue }
            if published[source.key] == nil, let png = try? source.resized() { published[source.key] = AvatarService.hash(png) }
            guard let expected = published[source.key], live != expected else { continue }
            replacedAvatars[key] = live.isEmpty ? "photo removed on the server" : "photo changed on the server"
        }
    }
}

/// The refresh was stopped (Ctrl-C, SIGTERM) before it read every account: nothing is planned.
public struct SyncRefreshInterrupted: Error, CustomStringConvertible {
    public var description: String { "the refresh was interrupted; nothing was planned or changed" }
}

/// One account's roster, vcard-temp card, PEP nickname and avatar metadata, read over its own
/// log-in: the four requests go out at once, and the account is done when all are answered.
final class RosterReading: AccountConversation {
    private var pending: RosterService.PendingFetch?
    private var cardID: String?
    private var nickID: String?
    private var avatarMetadataID: String?
    private(set) var items: [RosterItem] = []
    private(set) var card: VCard?
    /// nil: the nickname node is absent or unreadable; .some(nil): it holds no nickname.
    private(set) var pepNickname: String??
    /// The id of the image the avatar metadata names, "" for none; nil when it could not be read.
    private(set) var avatarID: String?
    private var rosterRead: Bool
    private let readsRoster: Bool

    private let readsAvatar: Bool

    /// `readsRoster`: false leaves the roster unasked (its items then read as none); `readsAvatar`:
    /// false leaves the avatar metadata unasked (an account whose row has no avatar: nothing to compare).
    init(readsRoster: Bool = true, readsAvatar: Bool = true) {
        self.readsRoster = readsRoster
        self.readsAvatar = readsAvatar
        rosterRead = !readsRoster
    }

    func start(on link: PolledConnection, account: JID) throws -> ConversationStep {
        var requests: [XMLElement] = []
        if readsRoster {
            let (get, pending) = RosterService.fetchRequest(on: link.connection, cachedVer: nil)
            self.pending = pending
            requests.append(get.element)
        }
        let id = link.connection.makeID()
        cardID = id
        let nick = PubSubClient.itemsRequest(jid: nil, node: Namespace.nick, id: link.connection.makeID(), maxItems: 1)
        nickID = nick.id
        requests += [VCardService.request(for: nil, id: id).element, nick.element]
        if readsAvatar {
            let metadata = PubSubClient.itemsRequest(jid: nil, node: Namespace.avatarMetadata, id: link.connection.makeID(), maxItems: 1)
            avatarMetadataID = metadata.id
            requests.append(metadata.element)
        }
        return .send(requests)
    }

    /// The payload of the newest item of a PEP items reply: .some(nil) for a node without items
    /// (retracted), nil for a node that is absent (item-not-found: nothing to compare; a server
    /// that keeps the profile elsewhere is not drift), any other error, or an answer that cannot
    /// be read.
    private static func newestPayload(_ iq: Iq) -> XMLElement?? {
        if iq.type == .error { return nil }
        guard let payload = iq.payload else { return nil }
        guard let items = try? PubSubItems(element: payload) else { return nil }
        return .some(items.items.last?.payload)
    }

    func receive(_ element: XMLElement, on link: PolledConnection, account: JID) throws -> ConversationStep {
        guard case .reply(let iq)? = try PresenceService.event(in: element, on: link.connection, account: account) else {
            return .waiting
        }
        if iq.id == nickID {
            switch Self.newestPayload(iq) {
            case .some(let payload?):
                if let nick = try? UserNickname(element: payload) { pepNickname = .some(nick.nickname) } else { pepNickname = nil }
            case .some(nil): pepNickname = .some(nil)
            case nil: pepNickname = nil
            }
            nickID = nil
        } else if iq.id == avatarMetadataID {
            switch Self.newestPayload(iq) {
            case .some(let payload?):
                avatarID = (try? AvatarMetadata(element: payload)).map { $0.infos.first { $0.isInDataNode }?.id.lowercased() ?? "" }
            case .some(nil): avatarID = ""
            case nil: avatarID = nil
            }
            avatarMetadataID = nil
        } else if iq.id == cardID {
            // A card the server cannot give (no vcard-temp) leaves the profile unread, not the roster.
            card = (try? VCardService.ownCard(in: iq)) ?? nil
            cardID = nil
        } else if let pending, iq.id == pending.id {
            if iq.type == .error { throw ConnectionError.stanzaError(iq.error ?? StanzaError(type: "cancel", condition: .undefinedCondition)) }
            guard case .full(let query) = try pending.take(iq) else {
                throw ConnectionError.protocolViolation("the server answered a roster request without the roster")
            }
            items = query.items
            rosterRead = true
        }
        return rosterRead && cardID == nil && nickID == nil && avatarMetadataID == nil ? .finished : .waiting
    }
}
