import CryptoPrimitives
import Arguments
import XMPPConnection
import XMPPStanzas

/// The option group every tool accepts: declared here once (help, man pages and completions
/// come from these declarations) and read back through them.
public struct CommonOptions: Sendable {
    static let accountOption = Option<String>(
        "account", short: "a", value: "JID", help: "Act as this account instead of the active one.",
        env: "XMPP_ACCOUNT", completion: .accounts)
    static let jsonFlag = Flag("json", help: "Print one JSON document for scripts instead of text for people.")
    static let serverOption = Option<String>(
        "server", value: "HOST[:PORT]",
        help: "Connect to this host and port instead of looking up the domain's SRV records; given more than once, try them in order (a batch spreads its streams over all of them).",
        repeatable: true)
    static let directTLSFlag = Flag("direct-tls", help: "Start TLS with the first byte (XEP-0368) instead of STARTTLS.")
    static let caFileOption = Option<String>(
        "ca-file", value: "PATH", help: "Trust the certificate authorities in this PEM file instead of the system's.",
        completion: .file(extensions: ["pem", "crt"]))
    static let pinOption = Option<String>(
        "pin", value: "sha256/BASE64",
        help: "Accept only a server whose public key has this SHA-256; without --ca-file, the pin replaces certificate verification.")
    static let insecureFlag = Flag(
        "insecure",
        help: "Do not verify the server's certificate: anyone on the network path can read the session. Warns on every use, even with -q; never remembered, and not allowed with --pin or --ca-file.")
    static let timeoutOption = Option<Int>.integer(
        "timeout", value: "SECONDS",
        help: "Give up on a network step (connect, TLS, a request) that takes longer than this many seconds.",
        in: 1...3600, default: 15)
    static let resourceOption = Option<String>("resource", value: "NAME", help: "Bind this resource instead of xmpp-tools.RANDOM; checked as a JID's resource is (exit status 9).")
    static let traceFlag = Flag("trace", help: "Print the XML exchanged with the server on standard error, credentials redacted.")
    static let quietFlag = Flag("quiet", short: "q", help: "Print no notes and no warnings, only data and errors.")

    /// The declarations, in the order help lists them.
    static let declarations: [any DeclaredOption] = [
        accountOption, jsonFlag, serverOption, directTLSFlag, caFileOption, pinOption, insecureFlag, timeoutOption,
        resourceOption, traceFlag, quietFlag,
    ]

    /// `-a/--account JID` or `XMPP_ACCOUNT`.
    public var account: String?
    /// `--json`.
    public var json = false
    /// `--server HOST[:PORT]`, split.
    public var serverHost: String?
    /// Port part of `--server`.
    public var serverPort: Int?
    /// Further `--server` values, after the first.
    public var moreServers: [ServerAddress] = []
    /// `--direct-tls`.
    public var directTLS = false
    /// `--ca-file PATH`.
    public var caFile: String?
    /// `--pin sha256/BASE64`.
    public var pin: String?
    /// `--insecure`.
    public var insecure = false
    /// `--timeout SECONDS`.
    public var timeout: Int = 15
    /// `--trace`.
    public var trace = false
    /// `-q/--quiet`.
    public var quiet = false
    /// `--resource NAME`.
    public var resource: String?

    /// Defaults.
    public init() {}

    /// The common options of `command`, read through their declarations and checked.
    init(_ command: ParsedCommand) throws(ToolFailure) {
        do {
            account = try command.value(Self.accountOption).flatMap { $0.isEmpty ? nil : $0 }
            json = command[Self.jsonFlag]
            for text in try command.values(Self.serverOption) {
                let (host, port) = try Self.parseServer(text)
                if serverHost == nil {
                    (serverHost, serverPort) = (host, port)
                } else {
                    moreServers.append(ServerAddress(host: host, port: port))
                }
            }
            directTLS = command[Self.directTLSFlag]
            caFile = try command.value(Self.caFileOption)
            pin = try command.value(Self.pinOption)
            if let pin { try Self.validatePin(pin) }
            insecure = command[Self.insecureFlag]
            try checkTrustOptions()
            timeout = try command.value(Self.timeoutOption) ?? 15
            trace = command[Self.traceFlag]
            quiet = command[Self.quietFlag]
            resource = try command.value(Self.resourceOption).map(Self.validResource)
        } catch let error as ArgumentError {
            throw ToolFailure(.usage, error.reason.description)
        } catch let error as ToolFailure {
            throw error
        } catch {
            throw ToolFailure(.usage, "\(error)")
        }
    }

    /// Splits `HOST[:PORT]` (IPv6 as `[addr]:port`); names the bad input on failure.
    public static func parseServer(_ text: String) throws(ToolFailure) -> (host: String, port: Int?) {
        var host = Substring(text)
        var port: Int?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw ToolFailure(.usage, "invalid --server '\(text)'") }
            let after = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let p = Int(after.dropFirst()) else {
                    throw ToolFailure(.usage, "invalid --server '\(text)'")
                }
                port = p
            }
        } else if let colon = host.lastIndex(of: ":"), host.firstIndex(of: ":") == colon {
            guard let p = Int(host[host.index(after: colon)...]) else {
                throw ToolFailure(.usage, "invalid port in --server '\(text)'")
            }
            port = p
            host = host[..<colon]
        }
        if let port, !(1...65535).contains(port) { throw ToolFailure(.usage, "invalid port in --server '\(text)'") }
        guard !host.isEmpty else { throw ToolFailure(.usage, "invalid --server '\(text)'") }
        return (String(host), port)
    }

    /// `--insecure` switches off the very check `--pin` and `--ca-file` ask for: together they are
    /// a contradiction, not a combination.
    public func checkTrustOptions() throws(ToolFailure) {
        guard insecure else { return }
        let other = [pin.map { _ in "--pin" }, caFile.map { _ in "--ca-file" }].compactMap { $0 }
        guard !other.isEmpty else { return }
        throw ToolFailure(.usage, "--insecure cannot be combined with \(other.joined(separator: " and ")): "
                          + "it would switch off the check \(other.count == 1 ? "that option asks" : "they ask") for")
    }

    /// `--resource NAME` in its canonical form: RFC 7622's resourcepart (PRECIS OpaqueString), so
    /// what a server would refuse or replace is refused here, naming the character, as in a JID.
    static func validResource(_ name: String) throws(ToolFailure) -> String {
        do {
            return try JID.resourcepart(name)
        } catch .emptyResource {
            throw ToolFailure(.badInput, "invalid --resource '': a resource cannot be empty; leave --resource out for xmpp-tools.RANDOM")
        } catch {
            throw ToolFailure(.badInput, "invalid --resource '\(JID.printable(name))': \(error)")
        }
    }

    /// Checks `--pin` syntax.
    public static func validatePin(_ pin: String) throws(ToolFailure) {
        guard pin.hasPrefix("sha256/"), let raw = Base64.decode(pin.dropFirst(7)), raw.count == 32 else {
            throw ToolFailure(.usage, "invalid --pin '\(pin)': expected sha256/BASE64 of the server's public key (32 bytes)")
        }
    }
}
