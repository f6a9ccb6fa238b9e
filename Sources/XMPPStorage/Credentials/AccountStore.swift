import TextFormats
import XMPPStanzas

/// A further `--server HOST[:PORT]`, tried in order after the first when it cannot be reached.
public struct FallbackServer: Sendable, Equatable {
    /// Host name or address.
    public var host: String
    /// Port; nil means the default.
    public var port: Int?

    /// Builds an address.
    public init(host: String, port: Int?) {
        self.host = host
        self.port = port
    }
}

/// Per-account connection settings remembered by `xmpp-login`, so later commands need no flags.
public struct AccountSettings: Sendable, Equatable {
    /// `--server` host, if given.
    public var server: String?
    /// `--server` port, if given.
    public var port: Int?
    /// The `--server` values after the first, tried in order when the ones before cannot be
    /// reached: failover that lasts beyond the log-in.
    public var fallbackServers: [FallbackServer] = []
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

    init(fields c: JSONFields) throws(JSONFieldError) {
        server = try c.optionalString("server")
        port = try c.optionalInt("port")
        for entry in try c.optionalArray("fallback_servers") ?? [] {
            guard let host = try entry.optionalString("host") else { throw JSONFieldError(description: "fallback_servers: an entry has no host") }
            fallbackServers.append(FallbackServer(host: host, port: try entry.optionalInt("port")))
        }
        directTLS = try c.optionalBool("direct_tls") ?? false
        caFile = try c.optionalString("ca_file")
        pin = try c.optionalString("pin")
        insecure = false  // older files stored it; it is ignored now
        usedSCRAM = try c.optionalBool("used_scram") ?? false
    }

    /// One account's entry of the accounts file, as bytes.
    public init(jsonBytes: [UInt8]) throws(JSONFieldError) { try self.init(fields: JSONFields(parsing: jsonBytes)) }

    /// `insecure` is never written: `--insecure` does not stick.
    public var json: JSONValue {
        var o = SortedJSONObject()
        o.set("server", server.map(JSONValue.string))
        o.set("port", port.map(JSONValue.int))
        if !fallbackServers.isEmpty {
            o.set("fallback_servers", .array(fallbackServers.map { server in
                var entry = SortedJSONObject()
                entry.set("host", .string(server.host))
                entry.set("port", server.port.map(JSONValue.int))
                return entry.value
            }))
        }
        o.set("direct_tls", .bool(directTLS))
        o.set("ca_file", caFile.map(JSONValue.string))
        o.set("pin", pin.map(JSONValue.string))
        o.set("used_scram", .bool(usedSCRAM))
        return o.value
    }
}

public struct AccountsFile: Sendable, Equatable {
    /// The account tools use when `--account` and `XMPP_ACCOUNT` are absent.
    public var active: String?
    /// Settings by bare JID.
    public var accounts: [String: AccountSettings]

    /// An empty file.
    public init(active: String? = nil, accounts: [String: AccountSettings] = [:]) {
        self.active = active
        self.accounts = accounts
    }

    init(fields c: JSONFields) throws(JSONFieldError) {
        active = try c.optionalString("active")
        accounts = [:]
        guard let list = try c.optionalObject("accounts") else { throw JSONFieldError(description: "no accounts") }
        for jid in list.keys {
            guard let settings = try list.optionalObject(jid) else { continue }
            accounts[jid] = try AccountSettings(fields: settings)
        }
    }

    var json: JSONValue {
        var list = SortedJSONObject()
        for (jid, settings) in accounts { list.set(jid, settings.json) }
        var o = SortedJSONObject()
        o.set("accounts", list.value)
        o.set("active", active.map(JSONValue.string))
        return o.value
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
            return try AccountsFile(fields: JSONFields(parsing: bytes))
        } catch {
            throw .corrupt(path: paths.accountsFile, reason: "not valid accounts JSON (\(error))")
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
        try SecureFile.write(file.json.prettyUTF8 + [0x0A], to: paths.accountsFile)
    }
}
