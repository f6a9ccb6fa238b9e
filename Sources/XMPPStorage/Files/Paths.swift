/// Where the tools keep their files (XDG Base Directory spec, ARCHITECTURE.md §3).
public struct Paths: Sendable, Equatable {
    /// `$XDG_CONFIG_HOME/xmpp-tools` (default `~/.config/xmpp-tools`), mode 0700.
    public var config: String
    /// `$XDG_CACHE_HOME/xmpp-tools` (default `~/.cache/xmpp-tools`).
    public var cache: String
    /// `$XDG_STATE_HOME/xmpp-tools` (default `~/.local/state/xmpp-tools`): batch journals.
    public var state: String

    /// Resolves the directories from an environment (pass the process environment).
    public init(environment: [String: String]) throws(StorageError) {
        func base(_ variable: String, _ fallback: String) throws(StorageError) -> String {
            // The XDG spec ignores relative values.
            if let v = environment[variable], PathText.isAbsolute(v) { return v }
            guard let home = environment["HOME"], !home.isEmpty else { throw .noHome }
            return home + "/" + fallback
        }
        config = try base("XDG_CONFIG_HOME", ".config") + "/xmpp-tools"
        cache = try base("XDG_CACHE_HOME", ".cache") + "/xmpp-tools"
        state = try base("XDG_STATE_HOME", ".local/state") + "/xmpp-tools"
    }

    /// `accounts.json`.
    public var accountsFile: String { config + "/accounts.json" }
    /// Directory of session files.
    public var sessionsDirectory: String { config + "/sessions" }
    /// The session file of `jid` (a bare JID; '/' cannot occur in one).
    public func sessionFile(_ jid: String) -> String { sessionsDirectory + "/" + jid }
    /// Lock files (in the 0700 config directory): held across a read-modify-write.
    public var locksDirectory: String { config + "/locks" }
    /// Held while `accounts.json` is read, changed and replaced.
    public var accountsLock: String { locksDirectory + "/accounts.lock" }
    /// Held while `jid`'s own vCard is fetched, merged and published from this machine.
    public func vCardLock(_ jid: String) -> String { locksDirectory + "/vcard-" + jid + ".lock" }
    /// The SQLite cache.
    public var cacheDatabase: String { cache + "/cache.sqlite3" }
}
