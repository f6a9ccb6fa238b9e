import FoundationEssentials
import XMPPStanzas

/// What `xmpp-login` keeps to authenticate again without the password (ARCHITECTURE.md §4):
/// the SCRAM salt, iteration count and derived keys, or the command that prints the password
/// (`kind`). Never the password. The SCRAM fields are empty for a password command.
public struct StoredSession: Sendable, Codable, Equatable {
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

    enum CodingKeys: String, CodingKey {
        case jid, kind, mechanism, hash, salt, iterations
        case clientKey = "client_key", serverKey = "server_key", created
        case passwordCommand = "password_command"
        case sasl2
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        jid = try c.decode(JID.self, forKey: .jid)
        kind = try c.decodeIfPresent(SessionKind.self, forKey: .kind) ?? .scramKeys
        created = try c.decodeIfPresent(Int.self, forKey: .created) ?? 0
        passwordCommand = try c.decodeIfPresent(String.self, forKey: .passwordCommand)
        let scram = kind == .scramKeys
        func field<T: Decodable>(_ key: CodingKeys, _ empty: T) throws -> T {
            scram ? try c.decode(T.self, forKey: key) : try c.decodeIfPresent(T.self, forKey: key) ?? empty
        }
        mechanism = try field(.mechanism, "")
        hash = try field(.hash, "")
        salt = try field(.salt, "")
        iterations = try field(.iterations, 0)
        clientKey = try field(.clientKey, "")
        serverKey = try field(.serverKey, "")
        sasl2 = try c.decodeIfPresent(Bool.self, forKey: .sasl2) ?? false
        if kind == .passwordCommand, passwordCommand?.isEmpty ?? true {
            throw DecodingError.dataCorruptedError(forKey: .passwordCommand, in: c, debugDescription: "no password command")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(jid, forKey: .jid)
        try c.encode(kind, forKey: .kind)
        try c.encode(created, forKey: .created)
        switch kind {
        case .scramKeys:
            try c.encode(mechanism, forKey: .mechanism)
            try c.encode(hash, forKey: .hash)
            try c.encode(salt, forKey: .salt)
            try c.encode(iterations, forKey: .iterations)
            try c.encode(clientKey, forKey: .clientKey)
            try c.encode(serverKey, forKey: .serverKey)
            if sasl2 { try c.encode(true, forKey: .sasl2) }
        case .passwordCommand:
            try c.encode(passwordCommand, forKey: .passwordCommand)
        }
    }
}

/// Reads and writes session files: one 0600 file per account in a 0700 directory.
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
            return try JSONDecoder().decode(StoredSession.self, from: Data(bytes))
        } catch {
            throw .corrupt(path: path, reason: "not a session file")
        }
    }

    /// Saves `session` atomically, 0600.
    public func save(_ session: StoredSession) throws(StorageError) {
        try write(session, for: session.jid)
    }

    /// Writes any kind of session file for `jid`: JSON, atomically, 0600 in the 0700 sessions directory.
    func write(_ session: some Encodable, for jid: JID) throws(StorageError) {
        try SecureFile.makeDirectory(paths.config)
        try SecureFile.makeDirectory(paths.sessionsDirectory)
        let path = paths.sessionFile(jid.bare.description)
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            data = try encoder.encode(session)
        } catch {
            throw .io(path: path, reason: "cannot encode session")
        }
        try SecureFile.write(Array(data) + [0x0A], to: path)
    }

    /// Forgets the session of `jid`.
    public func remove(_ jid: JID) throws(StorageError) {
        try SecureFile.remove(paths.sessionFile(jid.bare.description))
    }
}
