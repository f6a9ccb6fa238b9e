import XMPPConnection

/// The option group every tool accepts (DESIGN.md §3), already parsed.
public struct CommonOptions: Sendable {
    /// `-a/--account JID` or `XMPP_ACCOUNT`.
    public var account: String?
    /// `--json`.
    public var json = false
    /// `--server HOST[:PORT]`, split.
    public var serverHost: String?
    /// Port part of `--server`.
    public var serverPort: Int?
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

    /// Checks `--pin` syntax.
    public static func validatePin(_ pin: String) throws(ToolFailure) {
        guard pin.hasPrefix("sha256/"), let raw = Base64.decode(pin.dropFirst(7)), raw.count == 32 else {
            throw ToolFailure(.usage, "invalid --pin '\(pin)': expected sha256/BASE64 of the server's public key (32 bytes)")
        }
    }
}
