import XMLTree
import XMPPStanzas

/// Where and how to connect (ARCHITECTURE.md §3 common options).
public struct ConnectionOptions: Sendable {
    /// The XMPP domain: the JID's domain, and the name the certificate must match.
    public var domain: String
    /// `--server HOST[:PORT]`: skip SRV and dial this host.
    public var serverHost: String?
    /// Port for `serverHost`; nil means 5222 (5223 with direct TLS).
    public var serverPort: Int?
    /// Further `--server` values, tried in order after `serverHost` (only with it).
    public var moreServers: [ServerAddress] = []
    /// `--direct-tls` (XEP-0368): TLS from the first byte.
    public var directTLS: Bool
    /// Timeout for connecting and for every wait on the server.
    public var timeout: Duration
    /// How long a TCP connect to one endpoint may take while others are left to try.
    public var connectTimeout: Duration = ConnectionOptions.defaultConnectTimeout
    /// Three seconds: two SYN retransmissions (Linux resends after 1 s and 3 s), far above any
    /// connect to a live server, far below the 15 s `timeout` an unreachable first target cost.
    public static let defaultConnectTimeout: Duration = .seconds(3)
    /// Parser limits for what the server sends.
    public var limits: XMLLimits
    /// The account's bare JID, for `from=` in stream headers sent under TLS; nil sends none.
    public var account: String?
    /// A session log-in to a server it has logged in to before: `<starttls/>` goes in the same
    /// write as the first stream header, and the stream header after TLS is left for `logIn`,
    /// which sends it with `<authenticate/>` when the request says what the server offered
    /// (DESIGN-NOTES "Sessions"). Such a connection must be handed to `logIn` first.
    public var pipelined = false

    /// Builds options.
    public init(domain: String, serverHost: String? = nil, serverPort: Int? = nil, moreServers: [ServerAddress] = [],
                directTLS: Bool = false, timeout: Duration = .seconds(15), limits: XMLLimits = XMLLimits(), account: String? = nil,
                pipelined: Bool = false) {
        self.moreServers = moreServers
        self.account = account
        self.pipelined = pipelined
        self.domain = domain
        self.serverHost = serverHost
        self.serverPort = serverPort
        self.directTLS = directTLS
        self.timeout = timeout
        self.limits = limits
    }

    /// The domain as DNS and certificates spell it: A-labels (`münchen.example` →
    /// `xn--mnchen-3ya.example`). SRV look-ups, SNI and the certificate check use it; the stream
    /// header keeps `domain`, since RFC 7622 §3.2.1 allows no A-label in a domainpart.
    public var dnsName: String { JID.asciiForm(ofDomain: domain) }

    /// The endpoints to try, in order (`resolveTargets`: may look up DNS).
    public func resolveEndpoints() -> [Endpoint] { resolveTargets().map(\.endpoint) }

    /// The endpoints with their priority and weight: the `--server` values in the order given
    /// (all of one priority and weight), or the domain's SRV targets in RFC 2782 order, which
    /// costs a DNS look-up each call.
    public func resolveTargets() -> [SRVTarget] {
        if let serverHost {
            return ([ServerAddress(host: serverHost, port: serverPort)] + moreServers).map {
                SRVTarget(endpoint: Endpoint(host: $0.host, port: $0.port ?? (directTLS ? 5223 : 5222), directTLS: directTLS),
                          priority: 0, weight: 1)
            }
        }
        return SRVResolver.targets(for: dnsName, directTLSOnly: directTLS)
    }
}

/// One `--server HOST[:PORT]` value.
public struct ServerAddress: Sendable, Equatable {
    /// Host name or address.
    public var host: String
    /// Port; nil means the default (5222, or 5223 with direct TLS).
    public var port: Int?

    /// Builds an address.
    public init(host: String, port: Int?) {
        self.host = host
        self.port = port
    }
}
