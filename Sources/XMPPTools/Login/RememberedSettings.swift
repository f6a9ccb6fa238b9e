import TextFormats
import XMPPStorage

/// How `xmpp-login status`, `list` and `forget-settings` show an account's remembered
/// connection settings: as the options that would give them, and as JSON with stable keys.
enum RememberedSettings {
    /// `HOST[:PORT]` as `--server` takes it (IPv6 in brackets); nil without a server.
    static func server(_ s: AccountSettings?) -> String? {
        guard let host = s?.server else { return nil }
        let shown = host.contains(":") ? "[\(host)]" : host
        return s?.port.map { "\(shown):\($0)" } ?? shown
    }

    /// The options, e.g. `["--server", "h:5222", "--ca-file", "/ca.pem"]`; empty when none.
    static func options(_ s: AccountSettings?) -> [String] {
        var out: [String] = []
        if let server = server(s) { out += ["--server", server] }
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

    /// `{"server", "direct_tls", "ca_file", "pin"}`, absent values as null.
    static func json(_ s: AccountSettings?) -> JSONValue {
        .object([
            ("server", .optional(server(s))),
            ("direct_tls", .bool(s?.directTLS ?? false)),
            ("ca_file", .optional(s?.caFile)),
            ("pin", .optional(s?.pin)),
        ])
    }
}
