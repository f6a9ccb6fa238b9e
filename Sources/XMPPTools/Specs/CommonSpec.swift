import Arguments

/// Pieces of the command-line contract every tool shares.
public enum CommonSpec {
    /// The suite's version, printed by `--version`.
    public static let version = "0.1.0"

    /// The option group every subcommand of every tool accepts: `CommonOptions`' declarations.
    public static var options: [OptionSpec] { CommonOptions.declarations.map(\.spec) }

    /// The exit statuses, from `ExitCode`.
    public static var exitCodes: [ExitStatus] {
        ExitCode.allCases.map { ExitStatus($0.rawValue, $0.meaning) }
    }

    /// Environment variables every tool reads.
    public static let environment: [Definition] = [
        Definition("XMPP_PASSWORD", "The password, when neither --password-file nor --password-stdin is given. "
                   + "A password command does not see it."),
        Definition("XDG_CONFIG_HOME", "Base of the configuration directory (default ~/.config)."),
        Definition("XDG_CACHE_HOME", "Base of the cache directory (default ~/.cache)."),
        Definition("XDG_STATE_HOME", "Base of the state directory for batch journals (default ~/.local/state)."),
        Definition("NO_COLOR", "When set, text output has no colour."),
    ]

    /// Files every tool uses.
    public static let files: [Definition] = [
        Definition("$XDG_CONFIG_HOME/xmpp-tools/accounts.json",
                   "The active account and each account's connection settings (mode 0600)."),
        Definition("$XDG_CONFIG_HOME/xmpp-tools/sessions/JID",
                   "The cached SCRAM keys of an account, or its password command (mode 0600); never the password."),
        Definition("$XDG_CONFIG_HOME/xmpp-tools/locks/",
                   "Lock files, held while accounts.json or an account's own vCard is read, changed and written."),
        Definition("$XDG_CACHE_HOME/xmpp-tools/cache.sqlite3",
                   "The disposable cache of rosters, vCards and avatars; safe to delete."),
    ]
}
