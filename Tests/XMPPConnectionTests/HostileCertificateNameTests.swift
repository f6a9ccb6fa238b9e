import XCTest
import XMLTree
@testable import XMPPConnection

/// The certificate must be valid for the JID's domain however that domain looks: a numeric-looking
/// DNS name is a DNS name, an IP literal is checked against IP SANs, and a partial wildcard matches
/// nothing.
final class HostileCertificateNameTests: HostilePeerTestCase {
    private func honestLogin(_ identity: PeerTLSIdentity, domain: String) -> [ScriptedPeer.Step] {
        PeerScript.login(identity, password: Self.password, boundJID: "alice@\(domain)/x")
    }

    /// The identity of `pair`, whose certificate is also the one the client trusts.
    private func trusted(_ pair: PeerCertificates.Pair) throws -> PeerTLSIdentity {
        caFile = pair.certificate
        return try PeerTLSIdentity(certificate: pair.certificate, key: pair.key)
    }

    /// The client refuses the certificate `identity` offers for `domain`, saying `reason`; the
    /// peer, for a run of the tool (nil where the client did not refuse, a failure).
    @discardableResult
    private func assertRejected(_ identity: PeerTLSIdentity, for domain: String, _ reason: String,
                                line: UInt = #line) throws -> ScriptedPeer? {
        let peer = try scriptedPeer { PeerScript.startTLS(identity) + [.stall] }
        guard let (error, _) = clientError(peer, domain: domain, line: line) else { return nil }
        guard case .certificateRejected(let why) = error else { XCTFail("\(domain): \(error)", line: line); return nil }
        XCTAssertEqual(why, reason, line: line)
        return peer
    }

    /// `127.1` and `2130706433` are not IP literals for `inet_pton`, so they are DNS names, and
    /// a certificate for localhost from a trusted CA is not valid for them.
    func testCertificateForLocalhostIsRefusedForNumericLookingDomains() throws {
        let localhost = localhost!
        for domain in ["127.1", "2130706433"] {
            guard let peer = try assertRejected(localhost, for: domain, "hostname mismatch (expected a certificate for \(domain))")
            else { continue }
            let (line, _) = try assertTool(peer, exits: 7, jid: "alice@\(domain)")
            XCTAssertEqual(line, "xmpp-login: server certificate rejected: hostname mismatch (expected a certificate for \(domain))")
        }
    }

    func testCertificateForLocalhostIsRefusedForAnIPAddress() throws {
        try assertRejected(localhost, for: "127.0.0.1", "IP address mismatch (expected a certificate for 127.0.0.1)")
    }

    /// The IP check still works: a certificate with the address as an IP SAN is accepted, also
    /// for a bracketed IPv6 literal.
    func testCertificateWithTheIPAddressIsAccepted() throws {
        for (domain, san) in [("127.0.0.1", "IP:127.0.0.1"), ("[::1]", "IP:::1")] {
            let pair = try PeerCertificates.pair(named: "ip-\(san.dropFirst(3))", subjectAltName: san)
            let identity = try trusted(pair)
            let peer = try scriptedPeer { [unowned self] in honestLogin(identity, domain: domain) }
            guard let (error, _) = runLogin(peer, domain: domain) else { continue }
            XCTAssertNil(error, domain)
        }
    }

    /// RFC 6125 §6.4.4: a certificate that names the server only in its subject's CN, with no
    /// subjectAltName, is refused, though it is for the right name and signed by a trusted CA.
    func testACertificateWithOnlyACommonNameIsRefused() throws {
        let pair = try PeerCertificates.pair(named: "cn-only-localhost", subjectAltName: nil, commonName: "localhost")
        let identity = try trusted(pair)
        try assertRejected(identity, for: "localhost", "hostname mismatch (expected a certificate for localhost)")
    }

    /// A server that binds the session to an account of another domain is refused.
    func testABoundJIDOfAnotherDomainIsRefused() throws {
        let localhost = localhost!
        let peer = try scriptedPeer { PeerScript.login(localhost, password: Self.password, boundJID: "alice@evil.example/x") }
        guard let (error, _) = clientError(peer, domain: "localhost") else { return }
        guard case .protocolViolation(let why) = error else { return XCTFail("\(error)") }
        XCTAssertTrue(why.contains("alice@evil.example/x") && why.contains("not to an account of localhost"), why)
    }

    /// `xmpp*.example.test` would match `xmpp1.example.test` by OpenSSL's default; RFC 6125 §7.2 advises against it.
    func testPartialWildcardMatchesNothing() throws {
        let pair = try PeerCertificates.pair(named: "partial-wildcard-2", subjectAltName: "DNS:xmpp*.example.test")
        let identity = try trusted(pair)
        try assertRejected(identity, for: "xmpp1.example.test", "hostname mismatch (expected a certificate for xmpp1.example.test)")
    }

    /// A U-label domain is looked up and checked as DNS and certificates spell it, by its A-labels
    /// (RFC 6125 §6.4.2, IDNA2008); the stream header names the JID's domain, which RFC 7622
    /// §3.2.1 keeps in U-labels. Before, the U-label itself went to SRV, SNI and the name check.
    func testAULabelDomainIsCheckedByItsALabels() throws {
        let options = ConnectionOptions(domain: "münchen.example")
        XCTAssertEqual(options.dnsName, "xn--mnchen-3ya.example")
        XCTAssertEqual(ConnectionOptions(domain: "example.org").dnsName, "example.org")
        XCTAssertEqual(ConnectionOptions(domain: "[::1]").dnsName, "[::1]")
        XCTAssertEqual(ConnectionOptions(domain: "münchen.example", directTLS: true).resolveEndpoints().last?.host, "xn--mnchen-3ya.example",
                       "without SRV records, the domain's A-label form is dialled")

        let pair = try PeerCertificates.pair(named: "idn-muenchen", subjectAltName: "DNS:xn--mnchen-3ya.example")
        let identity = try trusted(pair)
        let peer = try scriptedPeer { [unowned self] in honestLogin(identity, domain: "münchen.example") }
        guard let (error, _) = runLogin(peer, domain: "münchen.example") else { return }
        XCTAssertNil(error, "a certificate for the A-label form is valid for the U-label domain")
        let sent = peer.transcript(0)?.text ?? ""
        XCTAssertTrue(sent.contains("to='münchen.example'"), sent)
        XCTAssertFalse(sent.contains("xn--"), "no A-label in the stream: \(sent)")
    }

    func testReferenceNameKindIsDecidedByInetPton() {
        XCTAssertEqual(ReferenceName("127.1"), .dnsName("127.1"))
        XCTAssertEqual(ReferenceName("2130706433"), .dnsName("2130706433"))
        XCTAssertEqual(ReferenceName("1.2.3.4.5"), .dnsName("1.2.3.4.5"))
        XCTAssertEqual(ReferenceName("0x7f.1"), .dnsName("0x7f.1"))
        XCTAssertEqual(ReferenceName("example.org"), .dnsName("example.org"))
        XCTAssertEqual(ReferenceName("127.0.0.1"), .ipAddress("127.0.0.1"))
        XCTAssertEqual(ReferenceName("[::1]"), .ipAddress("::1"))
        XCTAssertEqual(ReferenceName("[2001:db8::7]"), .ipAddress("2001:db8::7"))
        XCTAssertEqual(ReferenceName("[localhost]"), .dnsName("[localhost]"))
        XCTAssertEqual(ReferenceName("["), .dnsName("["))
    }

    /// A name OpenSSL's check cannot take is fatal, not "verify the chain without a name".
    func testUnusableNameIsFatal() throws {
        let context = try TLSContext(settings: TLSSettings(caFile: caFile))
        XCTAssertThrowsError(try TLSSession(context: context, referenceName: "local\u{0}host", directTLS: false)) { error in
            guard case .referenceNameUnusable("local\u{0}host") = error as? ConnectionError else { return XCTFail("\(error)") }
        }
    }
}
