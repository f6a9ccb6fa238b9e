import XMPPStanzas
import XMPPStorage

/// Serializes read-merge-write of an account's own vCard among this user's programs on this
/// machine: vcard-temp has no compare-and-set, so two `xmpp-vcard set`s (or an avatar change)
/// that fetch the same card and each publish their merge would lose the other's fields.
enum OwnVCardLock {
    /// Runs `body` (fetching the current card, publishing the merged one) under `account`'s lock.
    static func around<T>(_ account: JID, env: ToolEnvironment, _ body: () throws -> T) throws -> T {
        let paths = env.paths
        try SecureFile.makeDirectory(paths.config)
        try SecureFile.makeDirectory(paths.locksDirectory)
        let lock = try FileLock.acquire(paths.vCardLock(account.bare.description))
        defer { lock.release() }
        return try body()
    }
}
