import TextFormats
import XMPPStorage

/// How `xmpp-login status`, `list` and `forget-settings` show an account's remembered
/// connection settings: as the options that would give them, and as JSON with stable keys.
enum RememberedSettings {
    /// `HOST[:PORT]` as `--server` takes it (IPv6 in brackets); nil without a server.
    static func server(_ s: AccountSettings?) -> String? {
        guard let host = s?.server else { return nil }
        return address(host, s?.port)
    }

    /// Every `--server` remembered, the first one first.
    static func servers(_ s: AccountSettings?) -> [String] {
        guard let first = server(s) else { return [] }
        return [first] + (s?.fallbackServers ?? []).map { address($0.host, $0.port) }
    }

    private static func address(_ host: String, _ port: Int?) -> String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return port.map { "\(shown):\($0)" } ?? shown
    }

    /// The options, e.g. `["--server", "h:5222", "--ca-file", "/ca.pem"]`; empty when none.
    static func options(_ s: AccountSettings?) -> [String] {
        var out: [String] = []
        for server in servers(s) { out += ["--server", server] }
        if s?.directTLS == true { out.append("--direct-tls") }
        if let ca = s?.caFile { out += ["--ca-file", ca] }
        if let pin = s?.pin { out += ["--pin", pin] }
        return out
    }

    /// One line for people.
    static func text(_ s: AccountSettings?) -> String {
        let options = options(s)
        return options.isEmpty ? "none (SRV lookup, system trust store)" : options.joined(separator: " ")
    }

    /// `{"server", "servers", "direct_tls", "ca_file", "pin"}`, absent values as null; `servers`
    /// lists every `--server` in the order they are tried (empty without one).
    static func json(_ s: AccountSettings?) -> JSONValue {
        .object([
            ("server", .optional(server(s))),
            ("servers", .array(servers(s).map(JSONValue.string))),
            ("direct_tls", .bool(s?.directTLS ?? false)),
            ("ca_file", .optional(s?.caFile)),
            ("pin", .optional(s?.pin)),
        ])
    }
}
