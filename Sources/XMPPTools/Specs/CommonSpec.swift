import Arguments

/// Pieces of the command-line contract every tool shares (DESIGN.md §3).
public enum CommonSpec {
    /// The suite's version, printed by `--version`.
    public static let version = "0.1.0"

    /// The option group every subcommand of every tool accepts.
    public static let options: [OptionSpec] = [
        OptionSpec("account", short: "a", value: "JID", help: "Account to use (default: the active one).",
                   env: "XMPP_ACCOUNT", completion: .accounts),
        .flag("json", help: "Print JSON for scripts instead of text for people."),
        OptionSpec("server", value: "HOST[:PORT]", help: "Connect to this host instead of looking up SRV records."),
        .flag("direct-tls", help: "Use TLS from the first byte (XEP-0368) instead of STARTTLS."),
        OptionSpec("ca-file", value: "PATH", help: "Trust the certificates in this PEM file instead of the system store.",
                   completion: .file(extensions: ["pem", "crt"])),
        OptionSpec("pin", value: "sha256/BASE64",
                   help: "Require this SHA-256 of the server's public key; without --ca-file it is the trust decision."),
        .flag("insecure", help: "Do not verify the server certificate (dangerous; warns on every use)."),
        OptionSpec("timeout", value: "SECONDS", help: "Give up on the network after this long.", default: "15"),
        OptionSpec("resource", value: "NAME", help: "Resource to bind (default: xmpp-tools.RANDOM)."),
        .flag("trace", help: "Print the XML exchanged to stderr, with credentials redacted."),
        .flag("quiet", short: "q", help: "Print no notes or warnings."),
    ]

    /// `--password-file` and `--password-stdin`, for commands that take a password.
    public static let passwordOptions: [OptionSpec] = [
        OptionSpec("password-file", value: "FILE", help: "Read the password from the first line of FILE.",
                   completion: .anyFile),
        .flag("password-stdin", help: "Read the password from the first line of standard input."),
    ]

    /// The exit statuses, from `ExitCode`.
    public static var exitCodes: [ExitStatus] {
        ExitCode.allCases.map { ExitStatus($0.rawValue, $0.meaning) }
    }

    /// Environment variables every tool reads.
    public static let environment: [Definition] = [
        Definition("XMPP_PASSWORD", "Password, when neither --password-file nor --password-stdin is given (never put it in argv)."),
        Definition("XDG_CONFIG_HOME", "Base of the configuration directory (default ~/.config)."),
        Definition("XDG_CACHE_HOME", "Base of the cache directory (default ~/.cache)."),
        Definition("XDG_STATE_HOME", "Base of the state directory for batch journals (default ~/.local/state)."),
        Definition("NO_COLOR", "Disables colour in text output."),
    ]

    /// Files every tool uses.
    public static let files: [Definition] = [
        Definition("$XDG_CONFIG_HOME/xmpp-tools/accounts.json", "The active account and each account's connection settings."),
        Definition("$XDG_CONFIG_HOME/xmpp-tools/sessions/JID",
                   "Cached SCRAM keys of an account (mode 0600, never the password)."),
        Definition("$XDG_CACHE_HOME/xmpp-tools/cache.sqlite3", "Disposable cache of rosters, vCards and avatars."),
    ]
}
