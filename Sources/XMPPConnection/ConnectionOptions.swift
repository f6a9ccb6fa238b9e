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
    /// `--direct-tls` (XEP-0368): TLS from the first byte.
    public var directTLS: Bool
    /// Timeout for connecting and for every wait on the server.
    public var timeout: Duration
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
    public init(domain: String, serverHost: String? = nil, serverPort: Int? = nil, directTLS: Bool = false,
                timeout: Duration = .seconds(15), limits: XMLLimits = XMLLimits(), account: String? = nil,
                pipelined: Bool = false) {
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

    /// The endpoints to try, in order.
    public var endpoints: [Endpoint] {
        if let serverHost {
            return [Endpoint(host: serverHost, port: serverPort ?? (directTLS ? 5223 : 5222), directTLS: directTLS)]
        }
        return SRVResolver.endpoints(for: dnsName, directTLSOnly: directTLS)
    }
}
