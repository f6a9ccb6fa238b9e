import CryptoPrimitives
import Foundation
import XCTest
import XMLTree
@testable import XMPPConnection

/// Pieces of server-side XMPP for scripted peers, and the harness that drives the real client
/// (library and, where built, the `xmpp-login` binary) against them with an overall deadline.
enum PeerScript {
    /// The end of the client's stream header: the peer's cue that a (re)started stream is open.
    static let clientHeaderEnd = "xml:lang='en'>"
    static let serverHeader = "<?xml version='1.0'?><stream:stream xmlns='jabber:client' "
        + "xmlns:stream='http://etherx.jabber.org/streams' id='s-1' from='localhost' version='1.0' xml:lang='en'>"
    static let tlsFeatures = "<stream:features><starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'><required/></starttls></stream:features>"
    static let bindFeatures = "<stream:features><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></stream:features>"
    static let proceed = "<proceed xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>"
    static let starttlsEnd = "xmpp-tls'/>"

    static func saslFeatures(_ mechanisms: [String]) -> String {
        "<stream:features><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'>"
            + mechanisms.map { "<mechanism>\($0)</mechanism>" }.joined() + "</mechanisms></stream:features>"
    }

    static func streamError(_ condition: String, text: String? = nil) -> String {
        "<stream:error><\(condition) xmlns='urn:ietf:params:xml:ns:xmpp-streams'/>"
            + (text.map { "<text xmlns='urn:ietf:params:xml:ns:xmpp-streams'>\($0)</text>" } ?? "")
            + "</stream:error></stream:stream>"
    }

    /// Waits for a client stream header and answers with a header and `features`.
    static func open(_ features: String) -> [ScriptedPeer.Step] {
        [.expect(clientHeaderEnd), .send(serverHeader + features)]
    }

    /// The first stream, up to the server's `<proceed/>` to STARTTLS.
    static func proceedToTLS() -> [ScriptedPeer.Step] {
        open(tlsFeatures) + [.expect(starttlsEnd), .send(proceed)]
    }

    /// The first stream, STARTTLS and the TLS handshake.
    static func startTLS(_ identity: PeerTLSIdentity) -> [ScriptedPeer.Step] {
        proceedToTLS() + [.startTLS(identity)]
    }

    /// An honest server's whole log-in: STARTTLS with `identity`, SCRAM for `password`, and the
    /// bind answered with `boundJID`.
    static func login(_ identity: PeerTLSIdentity, password: String, boundJID: String) -> [ScriptedPeer.Step] {
        startTLS(identity) + scram(password: password) + bind { id in
            "<iq type='result' id='\(id)'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><jid>\(boundJID)</jid></bind></iq>"
        }
    }

    /// A SCRAM-SHA-1 exchange checked by `TestSCRAMServer`; `serverFinal` may tamper with the
    /// genuine server-final-message (nil: send it as it is, in `<success/>`).
    static func scram(password: String, serverFinal: ((String) -> String)? = nil) -> [ScriptedPeer.Step] {
        let server = SCRAMServerBox(password: password)
        return open(saslFeatures(["SCRAM-SHA-1"])) + [
            .reply(to: "</auth>") { text in
                let first = (try? server.scram.respond(toClientFirst: Base64.decode(payload(of: "auth", in: text)) ?? [])) ?? []
                return "<challenge xmlns='urn:ietf:params:xml:ns:xmpp-sasl'>\(Base64.encode(first))</challenge>"
            },
            .reply(to: "</response>") { text in
                let final = (try? server.scram.respond(toClientFinal: Base64.decode(payload(of: "response", in: text)) ?? [])) ?? []
                let genuine = String(decoding: final, as: UTF8.self)
                if let serverFinal { return serverFinal(genuine) }
                return "<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'>\(Base64.encode(final))</success>"
            },
        ]
    }

    /// The stream restart after SASL and the bind request, answered by `answer(iqID)`.
    static func bind(_ answer: @escaping (String) -> String) -> [ScriptedPeer.Step] {
        open(bindFeatures) + [.reply(to: "</iq>") { answer(attribute("id", in: $0) ?? "") }]
    }

    /// The text content of the last `<name …>…</name>` in `text`.
    static func payload(of name: String, in text: String) -> String {
        guard let close = text.range(of: "</\(name)>", options: .backwards),
              let open = text.range(of: "<\(name)", options: .backwards, range: text.startIndex..<close.lowerBound),
              let gt = text.range(of: ">", range: open.upperBound..<close.lowerBound)
        else { return "" }
        return String(text[gt.upperBound..<close.lowerBound])
    }

    /// The value of the last `name='…'` attribute in `text`.
    static func attribute(_ name: String, in text: String) -> String? {
        guard let start = text.range(of: " \(name)='", options: .backwards),
              let end = text.range(of: "'", range: start.upperBound..<text.endIndex) else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }
}

/// A `TestSCRAMServer` the peer thread can mutate from script closures.
final class SCRAMServerBox: @unchecked Sendable {
    var scram: TestSCRAMServer
    init(password: String) {
        scram = TestSCRAMServer(hash: .sha1, password: password, salt: Array("hostile-salt".utf8), iterations: 4096)
    }
}

/// Self-signed certificates (CA:TRUE, one DNS name) made by the `openssl` CLI, once per process.
enum PeerCertificates {
    struct Pair { var certificate: String; var key: String }

    private static let directory: String = {
        let dir = NSTemporaryDirectory() + "xt-hostile-certs-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }()
    nonisolated(unsafe) private static var made: [String: Pair] = [:]
    private static let lock = NSLock()

    /// A certificate for `dns` and its key; use the certificate as the client's `caFile` too.
    static func pair(for dns: String) throws -> Pair { try pair(named: dns, subjectAltName: "DNS:\(dns)") }

    /// A certificate with this subjectAltName (e.g. `IP:127.0.0.1`), files named after `name`;
    /// with nil, one that names its host only in the subject's CN, as certificates did before RFC 6125.
    static func pair(named name: String, subjectAltName: String?, commonName: String? = nil) throws -> Pair {
        lock.lock()
        defer { lock.unlock() }
        if let pair = made[name] { return pair }
        let pair = Pair(certificate: "\(directory)/\(name).crt", key: "\(directory)/\(name).key")
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                             "-nodes", "-keyout", pair.key, "-out", pair.certificate, "-days", "2", "-subj", "/CN=\(commonName ?? name)",
                             "-addext", "basicConstraints=critical,CA:TRUE"]
            + (subjectAltName.map { ["-addext", "subjectAltName=\($0)"] } ?? [])
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else { throw PeerError.setup("openssl req exited \(openssl.terminationStatus)") }
        made[name] = pair
        return pair
    }
}
