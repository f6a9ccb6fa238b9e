import FoundationEssentials
import XMPPStanzas

/// What `xmpp-login` keeps to authenticate again without the password (ARCHITECTURE.md §4):
/// the SCRAM salt, iteration count and derived keys. Never the password.
public struct StoredSession: Sendable, Codable, Equatable {
    /// The account, as a bare JID.
    public var jid: JID
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

    /// Builds a value.
    public init(jid: JID, mechanism: String, hash: String, salt: String, iterations: Int,
                clientKey: String, serverKey: String, created: Int) {
        self.jid = jid
        self.mechanism = mechanism
        self.hash = hash
        self.salt = salt
        self.iterations = iterations
        self.clientKey = clientKey
        self.serverKey = serverKey
        self.created = created
    }

    enum CodingKeys: String, CodingKey {
        case jid, mechanism, hash, salt, iterations
        case clientKey = "client_key", serverKey = "server_key", created
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
        try SecureFile.makeDirectory(paths.config)
        try SecureFile.makeDirectory(paths.sessionsDirectory)
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            data = try encoder.encode(session)
        } catch {
            throw .io(path: paths.sessionFile(session.jid.description), reason: "cannot encode session")
        }
        try SecureFile.write(Array(data) + [0x0A], to: paths.sessionFile(session.jid.bare.description))
    }

    /// Forgets the session of `jid`.
    public func remove(_ jid: JID) throws(StorageError) {
        try SecureFile.remove(paths.sessionFile(jid.bare.description))
    }
}
