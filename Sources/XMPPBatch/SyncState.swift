import Glibc
import TextFormats
import XMPPStanzas
import XMPPStorage

/// What `xmpp-register sync` manages in one domain, and what it last applied to each account:
/// the accounts it created (never any other), their profile fields, the digest of their avatar
/// image, and the roster items it last left each with. A run compares the file with this, not
/// with the server, so a file that did not change sends nothing. No password is kept here (the
/// report holds them). JSON, `$XDG_STATE_HOME/xmpp-tools/sync/DOMAIN.json`, mode 0600 in 0700
/// directories, replaced atomically.
public struct SyncState: Sendable, Equatable {
    /// Where an account sync created stands.
    public enum Standing: String, Sendable {
        /// In the file, and enabled.
        case active
        /// Left the file; sync disabled it (XEP-0133 disable-user).
        case disabled
        /// Deleted (by `--prune delete`, or by `xmpp-register delete --admin` outside sync).
        case deleted
        /// Listed in the file, but it existed when sync would have created it: never touched.
        case notManaged = "not-managed"
    }

    /// One managed account.
    public struct Account: Sendable, Equatable {
        public var standing: Standing = .active
        public var nickname: String?
        public var fullname: String?
        public var email: String?
        /// SHA-256 (hex) of the avatar image file last published.
        public var avatar: String?
        /// The roster items sync last left the account with.
        public var contacts: [RosterItem] = []
        /// Who or what put the account in its standing, and when (shown in plans).
        public var note: String?
        /// Adopted (`--adopt`) without its password: it cannot log in to approve a subscription,
        /// so no roster of the managed set gets it, and its own profile and roster are not managed.
        public var withoutPassword = false

        public init(standing: Standing = .active, nickname: String? = nil, fullname: String? = nil, email: String? = nil,
                    avatar: String? = nil, contacts: [RosterItem] = [], note: String? = nil, withoutPassword: Bool = false) {
            self.withoutPassword = withoutPassword
            self.standing = standing
            self.nickname = nickname
            self.fullname = fullname
            self.email = email
            self.avatar = avatar
            self.contacts = contacts
            self.note = note
        }
    }

    /// The domain.
    public var domain: String
    /// The managed accounts, by bare JID.
    public var accounts: [String: Account] = [:]

    public init(domain: String, accounts: [String: Account] = [:]) {
        self.domain = domain
        self.accounts = accounts
    }

    /// The state file of `domain` under `stateDirectory` (`$XDG_STATE_HOME/xmpp-tools`).
    public static func path(domain: String, stateDirectory: String) -> String {
        stateDirectory + "/sync/" + domain + ".json"
    }

    /// Reads the state of `domain`; empty when there is none yet. A file another user owns or can
    /// write, or that is not a sync state, is refused (its accounts would be touched as managed).
    public static func load(domain: String, stateDirectory: String) throws(BatchError) -> SyncState {
        guard isDomain(domain) else { throw .syncState("'\(JID.printable(domain))' is not a domain") }
        let path = path(domain: domain, stateDirectory: stateDirectory)
        guard let bytes = try SyncStateFile.read(path, maxBytes: 256 << 20) else { return SyncState(domain: domain) }
        do { return try decode(JSONParser.parse(bytes), domain: domain) } catch {
            throw .syncState("\(path) is not a sync state (\(error)); move it away only if no sync manages \(domain)")
        }
    }

    /// Writes the state atomically (0600; directories 0700).
    public func save(stateDirectory: String) throws(BatchError) {
        try SyncStateFile.write(encoded, to: SyncState.path(domain: domain, stateDirectory: stateDirectory), stateDirectory: stateDirectory,
                                what: "the sync state")
    }

    /// Records that `jid` was deleted outside sync (`xmpp-register delete --admin`): a row that
    /// still lists it is then planned as a re-creation with a new password, never silently with
    /// the old one. Nothing happens for an account sync does not manage.
    public static func noteDeletedOutside(_ jid: JID, how: String, stateDirectory: String) throws(BatchError) {
        // Whether sync manages the domain at all, by the file's presence: reading it here with
        // SecureFile's default limit (16 MiB) took a larger state (~100,000 accounts) for none,
        // and the deletion went unrecorded.
        guard access(path(domain: jid.domain, stateDirectory: stateDirectory), F_OK) == 0 else { return }
        let lock = try SyncState.lock(stateDirectory: stateDirectory)  // a sync running now finishes first
        defer { lock.release() }
        var state = try load(domain: jid.domain, stateDirectory: stateDirectory)
        guard var account = state.accounts[jid.bare.description], account.standing != .deleted else { return }
        account.standing = .deleted
        account.note = how
        account.contacts = []
        state.accounts[jid.bare.description] = account
        try state.save(stateDirectory: stateDirectory)
    }

    /// The lock every reader-and-writer of the sync states holds while it works (a second sync
    /// waits for the first, and then plans from what it left).
    static func lock(stateDirectory: String) throws(BatchError) -> FileLock {
        do {
            try SyncStateFile.makeDirectories(stateDirectory)
            return try FileLock.acquire(stateDirectory + "/sync/lock")
        } catch {
            throw .syncState("cannot lock the sync state: \(error)")
        }
    }

    /// True for a domain that names a state file: a JID domain, nothing a path could be made of.
    static func isDomain(_ text: String) -> Bool {
        guard let jid = try? JID(text), jid.local == nil, jid.resource == nil else { return false }
        return !PathText.isHidden(text) && !PathText.containsSeparator(text)
    }

    // MARK: JSON

    var encoded: JSONValue {
        let accounts = self.accounts.keys.sorted().compactMap { jid -> (String, JSONValue)? in
            guard let a = self.accounts[jid] else { return nil }
            let contacts = a.contacts.map { item -> JSONValue in
                .object([("jid", .string(item.jid.description)), ("name", .optional(item.name)),
                         ("groups", .array(item.groups.map(JSONValue.string)))])
            }
            return (jid, .object([("standing", .string(a.standing.rawValue)), ("nickname", .optional(a.nickname)),
                                  ("fullname", .optional(a.fullname)), ("email", .optional(a.email)),
                                  ("avatar_sha256", .optional(a.avatar)), ("contacts", .array(contacts)),
                                  ("note", .optional(a.note))] + (a.withoutPassword ? [("without_password", .bool(true))] : [])))
        }
        return .object([("format", .string("xmpp-tools sync state 1")), ("domain", .string(domain)), ("accounts", .object(accounts))])
    }

    struct DecodeFailure: Error, CustomStringConvertible {
        var description: String
    }

    static func decode(_ value: JSONValue, domain: String) throws -> SyncState {
        guard case .object(let top) = value, field(top, "format") == .string("xmpp-tools sync state 1"),
              case .object(let entries)? = field(top, "accounts") else { throw DecodeFailure(description: "no format line") }
        var state = SyncState(domain: domain)
        for (jid, entry) in entries {
            guard case .object(let o) = entry, case .string(let standingText)? = field(o, "standing"),
                  let standing = Standing(rawValue: standingText) else { throw DecodeFailure(description: "account \(jid)") }
            var account = Account(standing: standing, nickname: string(o, "nickname"), fullname: string(o, "fullname"),
                                  email: string(o, "email"), avatar: string(o, "avatar_sha256"), note: string(o, "note"))
            if case .bool(true)? = field(o, "without_password") { account.withoutPassword = true }
            if case .array(let items)? = field(o, "contacts") {
                for item in items {
                    guard case .object(let c) = item, let text = string(c, "jid"), let contact = try? JID(text) else {
                        throw DecodeFailure(description: "a contact of \(jid)")
                    }
                    var groups: [String] = []
                    if case .array(let g)? = field(c, "groups") {
                        for case .string(let name) in g { groups.append(name) }
                    }
                    account.contacts.append(RosterItem(jid: contact, name: string(c, "name"), groups: groups))
                }
            }
            state.accounts[jid] = account
        }
        return state
    }

    private static func field(_ object: [(String, JSONValue)], _ key: String) -> JSONValue? {
        object.first { $0.0 == key }?.1
    }

    private static func string(_ object: [(String, JSONValue)], _ key: String) -> String? {
        if case .string(let s)? = field(object, key) { return s }
        return nil
    }
}
