import Glibc
import TextFormats
import XMPPStanzas
import XMPPStorage

/// What `xmpp-register sync` manages in one domain, and what it last applied to each account:
/// the accounts it created (never any other), their profile fields, the digest of their avatar
/// image, and the roster items it last left each with. A run compares the file with this, not
/// with the server, so a file that did not change sends nothing. No password is kept here (the
/// report holds them). `$XDG_STATE_HOME/xmpp-tools/sync/DOMAIN.json`, mode 0600 in 0700
/// directories, replaced atomically: JSON lines, a header object and then one object per
/// account, read and written a line at a time, so the file is never held as one document
/// (docs/DESIGN-NOTES.md, "Sync's state as lines"). The first format, one JSON document, is
/// still read; the next save writes the lines.
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
        var state = SyncState(domain: domain)
        try read(domain: domain, stateDirectory: stateDirectory) { jid, _, account throws(BatchError) in
            guard state.accounts.updateValue(account(), forKey: jid) == nil else {
                throw .syncState("\(path(domain: domain, stateDirectory: stateDirectory)) is not a sync state (account \(jid) twice); "
                                 + "move it away only if no sync manages \(domain)")
            }
        }
        return state
    }

    /// Writes the state atomically (0600; directories 0700), a line at a time.
    public func save(stateDirectory: String) throws(BatchError) {
        let jids = accounts.keys.sorted()
        try SyncState.write(domain: domain, stateDirectory: stateDirectory) { writer throws(BatchError) in
            for jid in jids {
                guard let account = accounts[jid] else { continue }
                try SyncState.put(SyncState.line(jid, account), to: writer)
            }
        }
    }

    /// Records that `jid` was deleted outside sync (`xmpp-register delete --admin`): a row that
    /// still lists it is then planned as a re-creation with a new password, never silently with
    /// the old one. Nothing happens for an account sync does not manage. The state is copied a
    /// line at a time with that account's line changed, never read whole (a state in the first
    /// format is, once, and written as lines).
    public static func noteDeletedOutside(_ jid: JID, how: String, stateDirectory: String) throws(BatchError) {
        // Whether sync manages the domain at all, by the file's presence: reading it here with
        // SecureFile's default limit (16 MiB) took a larger state (~100,000 accounts) for none,
        // and the deletion went unrecorded.
        guard access(path(domain: jid.domain, stateDirectory: stateDirectory), F_OK) == 0 else { return }
        let lock = try SyncState.lock(stateDirectory: stateDirectory)  // a sync running now finishes first
        defer { lock.release() }
        let key = jid.bare.description
        if let entries = try firstFormatEntries(domain: jid.domain, stateDirectory: stateDirectory) {
            // The first format, read whole once: written as lines from now on.
            guard let known = entries.first(where: { $0.0 == key })?.1, known.standing != .deleted else { return }
            var state = SyncState(domain: jid.domain, accounts: Dictionary(entries) { first, _ in first })
            state.accounts[key] = deleted(known, how: how)
            return try state.save(stateDirectory: stateDirectory)
        }
        var found: (account: Account, index: Int)?
        var position = 0
        try read(domain: jid.domain, stateDirectory: stateDirectory) { text, _, account throws(BatchError) in
            if text == key { found = (account(), position) }
            position += 1
        }
        guard let found, found.account.standing != .deleted else { return }
        let (account, index) = (deleted(found.account, how: how), found.index)
        // Every line is as the reading above found it (the lock is held): copied as it is, but the account's.
        let path = path(domain: jid.domain, stateDirectory: stateDirectory)
        try write(domain: jid.domain, stateDirectory: stateDirectory) { writer throws(BatchError) in
            do {
                guard let reader = try SecretLineReader(path), try reader.next() != nil else { throw StorageError.io(path: path, reason: "gone") }
                var seen = 0
                while let bytes = try reader.next() {
                    guard !bytes.isEmpty else { continue }
                    try writer.write(seen == index ? line(key, account) : bytes + [0x0A])
                    seen += 1
                }
            } catch {
                throw .syncState("cannot write the sync state: \(error)")
            }
        }
    }

    /// `account` as a deletion outside sync leaves it.
    private static func deleted(_ account: Account, how: String) -> Account {
        var account = account
        account.standing = .deleted
        account.note = how
        account.contacts = []
        return account
    }

    // MARK: The file

    private static let format = "xmpp-tools sync state 2"
    private static let firstFormat = "xmpp-tools sync state 1"

    /// Calls `body` with each account of the state of `domain`, in the file's order: its bare JID,
    /// its line as stored (nil in the first format) and its decoding. Nothing when there is no state.
    static func read(domain: String, stateDirectory: String,
                     _ body: (String, [UInt8]?, () -> Account) throws(BatchError) -> Void) throws(BatchError) {
        let path = path(domain: domain, stateDirectory: stateDirectory)
        func refused(_ why: String) -> BatchError {
            .syncState("\(path) is not a sync state (\(why)); move it away only if no sync manages \(domain)")
        }
        if let entries = try firstFormatEntries(domain: domain, stateDirectory: stateDirectory) {
            for (jid, account) in entries { try body(jid, nil, { account }) }
            return
        }
        let reader: SecretLineReader
        do {
            guard let opened = try SecretLineReader(path) else { return }
            reader = opened
        } catch {
            throw .syncState("cannot read \(error)")
        }
        var number = 1
        do {
            _ = try reader.next()  // the header, which firstFormatEntries found
            while let bytes = try reader.next() {
                number += 1
                guard !bytes.isEmpty else { continue }
                let value: JSONValue
                do { value = try JSONParser.parse(bytes) } catch { throw refused("line \(number): \(error)") }
                guard case .object(let o) = value, case .string(let jid)? = field(o, "jid") else { throw refused("line \(number): no jid") }
                let account: Account
                do { account = try decodeAccount(o) } catch { throw refused("line \(number): account \(jid)") }
                try body(jid, bytes, { account })
            }
        } catch let error as StorageError {
            throw .syncState("cannot read \(error)")
        } catch let error as BatchError {
            throw error
        } catch {
            throw refused("\(error)")
        }
    }

    /// The first line when it is no longer than a header can be; nil when it is (or when there is none).
    private static func firstLine(of reader: SecretLineReader) throws(StorageError) -> [UInt8]? {
        do { return try reader.next(limit: 1 << 12) } catch {
            guard case .corrupt = error else { throw error }
            return nil
        }
    }

    /// The accounts of a state in the first format, read whole; nil when there is no state or it
    /// is in the line format.
    private static func firstFormatEntries(domain: String, stateDirectory: String) throws(BatchError) -> [(String, Account)]? {
        let path = path(domain: domain, stateDirectory: stateDirectory)
        do {
            guard let reader = try SecretLineReader(path) else { return nil }
            if case .object(let top)? = try? JSONParser.parse(try firstLine(of: reader) ?? []), field(top, "format") == .string(format) {
                return nil
            }
        } catch {
            throw .syncState("cannot read \(error)")
        }
        guard let bytes = try SyncStateFile.read(path, maxBytes: 256 << 20) else { return nil }
        do { return try decodeFirstFormat(JSONParser.parse(bytes)) } catch {
            throw .syncState("\(path) is not a sync state (\(error)); move it away only if no sync manages \(domain)")
        }
    }

    /// Writes the state file of `domain`: the header, then what `body` writes, atomically.
    private static func write(domain: String, stateDirectory: String,
                              _ body: (SecretFileWriter) throws(BatchError) -> Void) throws(BatchError) {
        let writer: SecretFileWriter
        do {
            try SyncStateFile.makeDirectories(stateDirectory)
            writer = try SecretFileWriter(path(domain: domain, stateDirectory: stateDirectory))
        } catch {
            throw .syncState("cannot write the sync state: \(error)")
        }
        try put(Array((JSONValue.object([("format", .string(format)), ("domain", .string(domain))]).compact + "\n").utf8), to: writer)
        try body(writer)
        do { try writer.commit() } catch { throw .syncState("cannot write the sync state: \(error)") }
    }

    private static func put(_ bytes: [UInt8], to writer: SecretFileWriter) throws(BatchError) {
        do { try writer.write(bytes) } catch { throw .syncState("cannot write the sync state: \(error)") }
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

    /// One account's line: its bare JID and the fields, compact, with a line feed.
    static func line(_ jid: String, _ a: Account) -> [UInt8] {
        let contacts = a.contacts.map { item -> JSONValue in
            .object([("jid", .string(item.jid.description)), ("name", .optional(item.name)),
                     ("groups", .array(item.groups.map(JSONValue.string)))])
        }
        let value = JSONValue.object([("jid", .string(jid)), ("standing", .string(a.standing.rawValue)), ("nickname", .optional(a.nickname)),
                                      ("fullname", .optional(a.fullname)), ("email", .optional(a.email)),
                                      ("avatar_sha256", .optional(a.avatar)), ("contacts", .array(contacts)),
                                      ("note", .optional(a.note))] + (a.withoutPassword ? [("without_password", .bool(true))] : []))
        return Array(value.compact.utf8) + [0x0A]
    }

    struct DecodeFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The first format: `{"format": "xmpp-tools sync state 1", "accounts": {JID: account, ...}}`.
    static func decodeFirstFormat(_ value: JSONValue) throws -> [(String, Account)] {
        guard case .object(let top) = value, field(top, "format") == .string(firstFormat),
              case .object(let entries)? = field(top, "accounts") else { throw DecodeFailure(description: "no format line") }
        var out: [(String, Account)] = []
        for (jid, entry) in entries {
            guard case .object(let o) = entry else { throw DecodeFailure(description: "account \(jid)") }
            do { out.append((jid, try decodeAccount(o))) } catch { throw DecodeFailure(description: "account \(jid)") }
        }
        return out
    }

    static func decodeAccount(_ o: [(String, JSONValue)]) throws -> Account {
        guard case .string(let standingText)? = field(o, "standing"),
              let standing = Standing(rawValue: standingText) else { throw DecodeFailure(description: "standing") }
        var account = Account(standing: standing, nickname: string(o, "nickname"), fullname: string(o, "fullname"),
                              email: string(o, "email"), avatar: string(o, "avatar_sha256"), note: string(o, "note"))
        if case .bool(true)? = field(o, "without_password") { account.withoutPassword = true }
        if case .array(let items)? = field(o, "contacts") {
            for item in items {
                guard case .object(let c) = item, let text = string(c, "jid"), let contact = try? JID(text) else {
                    throw DecodeFailure(description: "a contact")
                }
                var groups: [String] = []
                if case .array(let g)? = field(c, "groups") {
                    for case .string(let name) in g { groups.append(name) }
                }
                account.contacts.append(RosterItem(jid: contact, name: string(c, "name"), groups: groups))
            }
        }
        return account
    }

    private static func field(_ object: [(String, JSONValue)], _ key: String) -> JSONValue? {
        object.first { $0.0 == key }?.1
    }

    private static func string(_ object: [(String, JSONValue)], _ key: String) -> String? {
        if case .string(let s)? = field(object, key) { return s }
        return nil
    }
}
