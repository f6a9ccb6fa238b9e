import Glibc
import TextFormats
import XMPPStanzas

/// A session that authenticates with a FAST token (XEP-0484) instead of SCRAM keys: the token,
/// its mechanism and the client id it is tied to. It keeps nothing else that authenticates, so
/// once the server has invalidated the token (`xmpp-login logout`) a copy of the file is useless.
public struct FASTSession: Sendable, Equatable {
    /// Always `fast`: tells this file from a SCRAM-keys one.
    public var kind: String
    /// The account, as a bare JID.
    public var jid: JID
    /// The token mechanism, e.g. `HT-SHA-256-EXPR`.
    public var mechanism: String
    /// The token. A secret.
    public var token: String
    /// When the server said it expires (XEP-0082).
    public var expiry: String
    /// The `<user-agent id=…>` the token is tied to: the same for every tool of this account.
    public var userAgentID: String
    /// When the session was first created (seconds since 1970).
    public var created: Int
    /// When the token was last replaced by the server's rotation.
    public var rotated: Int?
    /// The token the last rotation replaced. Prosody 13 keeps it valid until the new one is used
    /// to log in, so logout and passwd invalidate it too. A secret.
    public var previousToken: String?

    /// The `kind` value.
    public static let kindName = "fast"

    /// Builds a value.
    public init(jid: JID, mechanism: String, token: String, expiry: String, userAgentID: String, created: Int, rotated: Int? = nil) {
        kind = Self.kindName
        self.jid = jid
        self.mechanism = mechanism
        self.token = token
        self.expiry = expiry
        self.userAgentID = userAgentID
        self.created = created
        self.rotated = rotated
    }

    init(fields c: JSONFields) throws(JSONFieldError) {
        kind = try c.string("kind")
        jid = try c.jid("jid")
        mechanism = try c.string("mechanism")
        token = try c.string("token")
        expiry = try c.string("expiry")
        userAgentID = try c.string("user_agent_id")
        created = try c.int("created")
        rotated = try c.optionalInt("rotated")
        previousToken = try c.optionalString("previous_token")
    }

    var json: JSONValue {
        var o = SortedJSONObject()
        o.set("kind", .string(kind))
        o.set("jid", .string(jid.description))
        o.set("mechanism", .string(mechanism))
        o.set("token", .string(token))
        o.set("expiry", .string(expiry))
        o.set("user_agent_id", .string(userAgentID))
        o.set("created", .int(created))
        o.set("rotated", rotated.map(JSONValue.int))
        if let previousToken { o.set("previous_token", .string(previousToken)) }
        return o.value
    }
}

/// What a session file holds: SCRAM keys, or a FAST token.
public enum CachedSession: Sendable, Equatable {
    /// SCRAM ClientKey/ServerKey with salt and iterations (`StoredSession`).
    case scramKeys(StoredSession)
    /// A FAST token.
    case fast(FASTSession)

    /// The stable name `xmpp-login status` shows (`session_kind`).
    public var kindName: String {
        switch self {
        case .scramKeys: "scram-keys"
        case .fast: FASTSession.kindName
        }
    }
}

extension SessionStore {
    /// The session of `jid` of whichever kind, or nil when there is none; the same checks as
    /// `load` (0600 only, a size cap).
    public func loadCached(_ jid: JID) throws(StorageError) -> CachedSession? {
        let path = paths.sessionFile(jid.bare.description)
        guard let bytes = try SecureFile.read(path, requirePrivate: true, maxBytes: 64 << 10) else { return nil }
        let fields: JSONFields
        do {
            fields = try JSONFields(parsing: bytes)
            if try fields.optionalString("kind") == FASTSession.kindName { return .fast(try FASTSession(fields: fields)) }
            return .scramKeys(try StoredSession(fields: fields))
        } catch {
            throw .corrupt(path: path, reason: "not a session file (\(error))")
        }
    }

    /// Saves a FAST session atomically, 0600, replacing whatever the account had: a FAST session
    /// keeps no SCRAM keys beside the token.
    public func save(_ session: FASTSession) throws(StorageError) {
        try write(session.json, for: session.jid)
    }

    /// Why nothing can be written where sessions and their locks live: "PATH: Read-only file
    /// system" for the configuration directory (or its locks directory) when it is on a
    /// read-only mount or not writable by the user; nil when it is writable or does not exist yet.
    public func unwritableReason() -> String? {
        for path in [paths.locksDirectory, paths.config] where access(path, F_OK) == 0 {
            return access(path, W_OK) == 0 ? nil : path + ": " + errnoText()
        }
        return nil
    }

    /// Runs `body` holding `jid`'s session lock: a FAST authentication and the rotated token it
    /// may bring are one step, so two tools of one account never use a token the other has
    /// just had replaced.
    public func withSessionLock<T>(_ jid: JID, _ body: () throws -> T) throws -> T {
        let lock = try FileLock.acquire(try sessionLockPath(jid))
        defer { lock.release() }
        return try body()
    }

    /// `jid`'s session lock if no one holds it, else nil at once (a poll loop's log-in waits
    /// its turn instead); the caller releases it.
    public func sessionLockIfFree(_ jid: JID) throws -> FileLock? {
        try FileLock.acquireIfFree(try sessionLockPath(jid))
    }

    private func sessionLockPath(_ jid: JID) throws -> String {
        try SecureFile.makeDirectory(paths.config)
        try SecureFile.makeDirectory(paths.locksDirectory)
        return paths.locksDirectory + "/session-" + jid.bare.description + ".lock"
    }
}
