import CryptoPrimitives
import XMPPConnection
import XMPPStanzas
import XMPPStorage

/// Converts between SCRAM keys and the session file's stored form.
enum SessionKeys {
    /// Keys from a stored session; a damaged file is an authentication problem (log in again).
    static func keys(from session: StoredSession) throws(ToolFailure) -> SCRAMKeys {
        guard let hash = HashFunction(rawValue: session.hash),
              let salt = Base64.decode(session.salt), let clientKey = Base64.decode(session.clientKey),
              let serverKey = Base64.decode(session.serverKey), session.iterations > 0
        else {
            throw ToolFailure(.auth, "the session file of \(session.jid) is damaged: log in again with 'xmpp-login \(session.jid)'")
        }
        return SCRAMKeys(hash: hash, salt: salt, iterations: session.iterations, clientKey: clientKey, serverKey: serverKey)
    }

    /// The stored form of `keys` for `jid`.
    static func session(jid: JID, mechanism: String, keys: SCRAMKeys, now: Int, sasl2: Bool = false) -> StoredSession {
        StoredSession(jid: jid.bare, mechanism: mechanism, hash: keys.hash.rawValue, salt: Base64.encode(keys.salt),
                      iterations: keys.iterations, clientKey: Base64.encode(keys.clientKey),
                      serverKey: Base64.encode(keys.serverKey), created: now, sasl2: sasl2)
    }
}
