import XMPPStanzas
import XMPPStorage

/// Serializes read-merge-write of an account's own vCard among this user's programs on this
/// machine: vcard-temp has no compare-and-set, so two `xmpp-vcard set`s (or an avatar change)
/// that fetch the same card and each publish their merge would lose the other's fields.
enum OwnVCardLock {
    /// Runs `body` (fetching the current card, publishing the merged one) under `account`'s lock.
    /// Where the configuration directory cannot be written (a read-only home or mount) no lock
    /// file can be made: the change goes ahead without the lock, with a warning saying so and why.
    static func around<T>(_ account: JID, env: ToolEnvironment, _ body: () throws -> T) throws -> T {
        let paths = env.paths
        if let reason = env.sessions.unwritableReason() {
            env.warn("warning: changing \(account)'s vCard without the lock that keeps two changes at once from "
                     + "undoing each other, since \(reason)")
            return try body()
        }
        try SecureFile.makeDirectory(paths.config)
        try SecureFile.makeDirectory(paths.locksDirectory)
        let lock = try FileLock.acquire(paths.vCardLock(account.bare.description))
        defer { lock.release() }
        return try body()
    }
}
