import Arguments

/// Pieces of the command-line contract every tool shares (DESIGN.md §3).
public enum CommonSpec {
    /// The suite's version, printed by `--version`.
    public static let version = "0.1.0"

    /// The option group every subcommand of every tool accepts.
    public static let options: [OptionSpec] = [
        OptionSpec("account", short: "a", value: "JID", help: "Act as this account instead of the active one.",
                   env: "XMPP_ACCOUNT", completion: .accounts),
        .flag("json", help: "Print one JSON document for scripts instead of text for people."),
        OptionSpec("server", value: "HOST[:PORT]", help: "Connect to this host and port instead of looking up the domain's SRV records."),
        .flag("direct-tls", help: "Start TLS with the first byte (XEP-0368) instead of STARTTLS."),
        OptionSpec("ca-file", value: "PATH", help: "Trust the certificate authorities in this PEM file instead of the system's.",
                   completion: .file(extensions: ["pem", "crt"])),
        OptionSpec("pin", value: "sha256/BASE64",
                   help: "Accept only a server whose public key has this SHA-256; without --ca-file, the pin replaces certificate verification."),
        .flag("insecure", help: "Do not verify the server's certificate: anyone on the network path can read the session. Warns on every use, even with -q; never remembered, and not allowed with --pin or --ca-file."),
        OptionSpec("timeout", value: "SECONDS", help: "Give up on a network step (connect, TLS, a request) that takes longer than this many seconds.", default: "15"),
        OptionSpec("resource", value: "NAME", help: "Bind this resource instead of xmpp-tools.RANDOM."),
        .flag("trace", help: "Print the XML exchanged with the server on standard error, credentials redacted."),
        .flag("quiet", short: "q", help: "Print no notes and no warnings, only data and errors."),
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
        Definition("XMPP_PASSWORD", "The password, when neither --password-file nor --password-stdin is given."),
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
                   "The cached SCRAM keys of an account (mode 0600); never the password."),
        Definition("$XDG_CONFIG_HOME/xmpp-tools/locks/",
                   "Lock files, held while accounts.json or an account's own vCard is read, changed and written."),
        Definition("$XDG_CACHE_HOME/xmpp-tools/cache.sqlite3",
                   "The disposable cache of rosters, vCards and avatars; safe to delete."),
    ]
}
