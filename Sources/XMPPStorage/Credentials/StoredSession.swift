import TextFormats
import XMPPStanzas

/// What `xmpp-login` keeps to authenticate again without the password (ARCHITECTURE.md §4):
/// the SCRAM salt, iteration count and derived keys, or the command that prints the password
/// (`kind`). Never the password. The SCRAM fields are empty for a password command.
public struct StoredSession: Sendable, Equatable {
    /// The account, as a bare JID.
    public var jid: JID
    /// How this session authenticates; files written before kinds existed hold SCRAM keys.
    public var kind: SessionKind = .scramKeys
    /// The shell command that prints the password, for `.passwordCommand`.
    public var passwordCommand: String?
    /// The SCRAM mechanism family that produced the keys, e.g. `SCRAM-SHA-1`.
    public var mechanism: String
    /// The hash name: `SHA-1`, `SHA-256` or `SHA-512`.
    public var hash: String
    /// Base64 salt the server gave.
    public var salt: String
    /// PBKDF2 iteration count the server gave.
    public var iterations: Int
    /// Base64 ClientKey (HMAC(SaltedPassword, "Client Key")).
    public var clientKey: String
    /// Base64 ServerKey, to verify the server's signature.
    public var serverKey: String
    /// When the keys were derived (seconds since 1970).
    public var created: Int
    /// The keys last authenticated over SASL2 (XEP-0388), so the next log-in may send its
    /// `<authenticate/>` with the stream header. Absent (false) in older files.
    public var sasl2 = false

    /// Builds a value.
    public init(jid: JID, mechanism: String, hash: String, salt: String, iterations: Int,
                clientKey: String, serverKey: String, created: Int, sasl2: Bool = false) {
        self.jid = jid
        self.mechanism = mechanism
        self.hash = hash
        self.salt = salt
        self.iterations = iterations
        self.clientKey = clientKey
        self.serverKey = serverKey
        self.created = created
        self.sasl2 = sasl2
    }

    /// A session that runs `command` for the password at each authentication.
    public init(jid: JID, passwordCommand command: String, created: Int) {
        self.init(jid: jid, mechanism: "", hash: "", salt: "", iterations: 0, clientKey: "", serverKey: "", created: created)
        kind = .passwordCommand
        passwordCommand = command
    }

    /// Reads a session file's object: SCRAM keys (the kind an older file without `kind` holds)
    /// or a password command.
    init(fields c: JSONFields) throws(JSONFieldError) {
        jid = try c.jid("jid")
        guard let kind = try c.optionalString("kind").map({ SessionKind(rawValue: $0) }) ?? .scramKeys else {
            throw JSONFieldError(description: "unknown session kind")
        }
        self.kind = kind
        created = try c.optionalInt("created") ?? 0
        passwordCommand = try c.optionalString("password_command")
        let scram = kind == .scramKeys
        func text(_ key: String) throws(JSONFieldError) -> String { scram ? try c.string(key) : try c.optionalString(key) ?? "" }
        mechanism = try text("mechanism")
        hash = try text("hash")
        salt = try text("salt")
        iterations = scram ? try c.int("iterations") : try c.optionalInt("iterations") ?? 0
        clientKey = try text("client_key")
        serverKey = try text("server_key")
        sasl2 = try c.optionalBool("sasl2") ?? false
        if kind == .passwordCommand, passwordCommand?.isEmpty ?? true {
            throw JSONFieldError(description: "no password command")
        }
    }

    /// Parses a session file's bytes.
    public init(fileBytes: [UInt8]) throws(JSONFieldError) {
        try self.init(fields: JSONFields(parsing: fileBytes))
    }

    /// The file's object: only what the kind needs; `sasl2` only when true, so files of servers
    /// without SASL2 have no such key.
    var json: JSONValue {
        var o = SortedJSONObject()
        o.set("jid", .string(jid.description))
        o.set("kind", .string(kind.rawValue))
        o.set("created", .int(created))
        switch kind {
        case .scramKeys:
            o.set("mechanism", .string(mechanism))
            o.set("hash", .string(hash))
            o.set("salt", .string(salt))
            o.set("iterations", .int(iterations))
            o.set("client_key", .string(clientKey))
            o.set("server_key", .string(serverKey))
            if sasl2 { o.set("sasl2", .bool(true)) }
        case .passwordCommand:
            o.set("password_command", passwordCommand.map(JSONValue.string))
        }
        return o.value
    }
}

public struct SessionStore: Sendable {
    /// The directories in use.
    public let paths: Paths

    /// A store under `paths`.
    public init(paths: Paths) { self.paths = paths }

    /// The session of `jid`, or nil when there is none. A file with a mode wider than 0600
    /// is refused with `.insecurePermissions`.
    public func load(_ jid: JID) throws(StorageError) -> StoredSession? {
        let path = paths.sessionFile(jid.bare.description)
        guard let bytes = try SecureFile.read(path, requirePrivate: true, maxBytes: 64 << 10) else { return nil }
        do {
            return try StoredSession(fileBytes: bytes)
        } catch {
            throw .corrupt(path: path, reason: "not a session file (\(error))")
        }
    }

    /// Saves `session` atomically, 0600.
    public func save(_ session: StoredSession) throws(StorageError) {
        try write(session.json, for: session.jid)
    }

    /// Writes any kind of session file for `jid`: JSON, atomically, 0600 in the 0700 sessions directory.
    func write(_ json: JSONValue, for jid: JID) throws(StorageError) {
        try SecureFile.makeDirectory(paths.config)
        try SecureFile.makeDirectory(paths.sessionsDirectory)
        try SecureFile.write(json.prettyUTF8 + [0x0A], to: paths.sessionFile(jid.bare.description))
    }

    /// Forgets the session of `jid`.
    public func remove(_ jid: JID) throws(StorageError) {
        try SecureFile.remove(paths.sessionFile(jid.bare.description))
    }
}
