import FoundationEssentials
import XMPPStanzas

/// Per-account connection settings remembered by `xmpp-login`, so later commands need no flags.
public struct AccountSettings: Sendable, Codable, Equatable {
    /// `--server` host, if given.
    public var server: String?
    /// `--server` port, if given.
    public var port: Int?
    /// `--direct-tls`.
    public var directTLS: Bool
    /// `--ca-file`, stored as an absolute path.
    public var caFile: String?
    /// `--pin`.
    public var pin: String?
    /// `--insecure` for this run only: never written to or read from `accounts.json`, so a past
    /// `--insecure` cannot switch off a later `--pin` or `--ca-file`.
    public var insecure: Bool
    /// The account has authenticated with SCRAM: PLAIN is refused from then on (downgrade).
    public var usedSCRAM: Bool

    /// Builds settings.
    public init(server: String? = nil, port: Int? = nil, directTLS: Bool = false, caFile: String? = nil,
                pin: String? = nil, insecure: Bool = false, usedSCRAM: Bool = false) {
        self.server = server
        self.port = port
        self.directTLS = directTLS
        self.caFile = caFile
        self.pin = pin
        self.insecure = insecure
        self.usedSCRAM = usedSCRAM
    }

    enum CodingKeys: String, CodingKey {
        case server, port, directTLS = "direct_tls", caFile = "ca_file", pin, usedSCRAM = "used_scram"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        server = try c.decodeIfPresent(String.self, forKey: .server)
        port = try c.decodeIfPresent(Int.self, forKey: .port)
        directTLS = try c.decodeIfPresent(Bool.self, forKey: .directTLS) ?? false
        caFile = try c.decodeIfPresent(String.self, forKey: .caFile)
        pin = try c.decodeIfPresent(String.self, forKey: .pin)
        insecure = false  // older files stored it; it is ignored now
        usedSCRAM = try c.decodeIfPresent(Bool.self, forKey: .usedSCRAM) ?? false
    }
}

/// The contents of `accounts.json`: the active account and each account's settings.
public struct AccountsFile: Sendable, Codable, Equatable {
    /// The account tools use when `--account` and `XMPP_ACCOUNT` are absent.
    public var active: String?
    /// Settings by bare JID.
    public var accounts: [String: AccountSettings]

    /// An empty file.
    public init(active: String? = nil, accounts: [String: AccountSettings] = [:]) {
        self.active = active
        self.accounts = accounts
    }
}

/// Loads and saves `accounts.json` atomically.
public struct AccountStore: Sendable {
    /// The directories in use.
    public let paths: Paths

    /// A store under `paths`.
    public init(paths: Paths) { self.paths = paths }

    /// The current file, or an empty one.
    public func load() throws(StorageError) -> AccountsFile {
        guard let bytes = try SecureFile.read(paths.accountsFile, maxBytes: 4 << 20) else { return AccountsFile() }
        do {
            return try JSONDecoder().decode(AccountsFile.self, from: Data(bytes))
        } catch {
            throw .corrupt(path: paths.accountsFile, reason: "not valid accounts JSON")
        }
    }

    /// Replaces the file with `file` atomically (0600 in the 0700 config directory), under the
    /// accounts lock so that it cannot interleave with an `update`.
    public func save(_ file: AccountsFile) throws(StorageError) {
        try locked { () throws(StorageError) in try write(file) }
    }

    /// Loads, applies `change`, saves, all under the accounts lock: programs that update the
    /// file at once (parallel log-ins) each see the others' changes instead of overwriting them.
    public func update(_ change: (inout AccountsFile) throws(StorageError) -> Void) throws(StorageError) {
        try locked { () throws(StorageError) in
            var file = try load()
            try change(&file)
            try write(file)
        }
    }

    private func locked(_ body: () throws(StorageError) -> Void) throws(StorageError) {
        try SecureFile.makeDirectory(paths.config)
        try SecureFile.makeDirectory(paths.locksDirectory)
        try FileLock.withExclusive(paths.accountsLock, body)
    }

    private func write(_ file: AccountsFile) throws(StorageError) {
        let bytes: [UInt8]
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            bytes = Array(try encoder.encode(file)) + [0x0A]
        } catch {
            throw .io(path: paths.accountsFile, reason: "cannot encode accounts")
        }
        try SecureFile.write(bytes, to: paths.accountsFile)
    }
}
