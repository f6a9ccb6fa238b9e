import CryptoPrimitives
import XCTest
@testable import XMPPConnection

/// FAST's HT-* mechanisms (XEP-0484 §2, draft-schmaus-kitten-sasl-ht) and SSDP (XEP-0474).
final class FASTAndSSDPTests: XCTestCase {
    func testMechanismNames() {
        for name in ["HT-SHA-256-NONE", "HT-SHA-256-UNIQ", "HT-SHA-256-ENDP", "HT-SHA-256-EXPR", "HT-SHA-512-EXPR"] {
            XCTAssertEqual(FASTMechanism(name: name)?.name, name)
        }
        XCTAssertEqual(FASTMechanism(name: "HT-SHA-256-EXPR")?.binding, .tlsExporter)
        for name in ["HT-SHA-1-NONE", "HT-SHA3-256-NONE", "HT-SHA-256", "SCRAM-SHA-256", "HT-SHA-256-PLUS", ""] {
            XCTAssertNil(FASTMechanism(name: name), name)
        }
    }

    /// The initiator message is the username, NUL and HMAC(token, "Initiator" || cb-data),
    /// checked against an HMAC computed here from the primitives.
    func testInitiatorAndResponder() {
        let mechanism = FASTMechanism(hash: .sha256, binding: .tlsExporter)
        let binding: [UInt8] = Array(repeating: 0xAB, count: 32)
        let token = "WXZzciBwYmFmdmZnZiBqdmd1IGp2eXFhcmZm"
        let message = mechanism.initialResponse(username: "juliet", token: token, channelBindingData: binding)
        XCTAssertEqual(Array(message.prefix(7)), Array("juliet".utf8) + [0])
        XCTAssertEqual(Array(message.dropFirst(7)), Crypto.hmac(.sha256, key: Array(token.utf8), data: Array("Initiator".utf8) + binding))
        XCTAssertEqual(mechanism.expectedResponse(token: token, channelBindingData: binding),
                       Crypto.hmac(.sha256, key: Array(token.utf8), data: Array("Responder".utf8) + binding))
        XCTAssertNotEqual(mechanism.expectedResponse(token: token, channelBindingData: []),
                          mechanism.expectedResponse(token: token, channelBindingData: binding))
    }

    /// The channel-bound mechanism is chosen by the rules SCRAM -PLUS uses: XEP-0440's list when
    /// the server gives one, else tls-unique on TLS 1.2 only.
    func testBestMechanismHonoursChannelBindingTypes() {
        let offered = ["HT-SHA-256-NONE", "HT-SHA-256-UNIQ", "HT-SHA-256-ENDP", "HT-SHA-256-EXPR"]
        let tls13 = TLSBindingInfo(version: .tls13, tlsExporter: Array(repeating: 1, count: 32))
        let tls12 = TLSBindingInfo(version: .tls12, tlsUnique: Array(repeating: 2, count: 12))
        XCTAssertEqual(FASTMechanism.best(offered: offered, tls: tls13, serverCBTypes: [.tlsExporter])?.name, "HT-SHA-256-EXPR")
        XCTAssertEqual(FASTMechanism.best(offered: offered, tls: tls13, serverCBTypes: nil)?.name, "HT-SHA-256-NONE")
        XCTAssertEqual(FASTMechanism.best(offered: offered, tls: tls13, serverCBTypes: [.tlsServerEndPoint])?.name, "HT-SHA-256-NONE")
        XCTAssertEqual(FASTMechanism.best(offered: offered, tls: tls12, serverCBTypes: nil)?.name, "HT-SHA-256-UNIQ")
        XCTAssertEqual(FASTMechanism.best(offered: ["HT-SHA-256-EXPR"], tls: tls13, serverCBTypes: nil)?.name, nil)
        XCTAssertNil(FASTMechanism.best(offered: ["HT-SHA3-256-NONE"], tls: tls13, serverCBTypes: nil))
    }

    /// XEP-0474 §3: sorted mechanisms joined by 0x1E, then 0x1F and the sorted channel-binding types.
    func testSSDPHashInput() {
        XCTAssertEqual(String(decoding: SSDP.hashInput(mechanisms: ["SCRAM-SHA-1-PLUS", "PLAIN", "SCRAM-SHA-1"],
                                                       channelBindingTypes: ["tls-unique", "tls-exporter"]), as: UTF8.self),
                       "PLAIN\u{1E}SCRAM-SHA-1\u{1E}SCRAM-SHA-1-PLUS\u{1F}tls-exporter\u{1E}tls-unique")
        XCTAssertEqual(String(decoding: SSDP.hashInput(mechanisms: ["SCRAM-SHA-256", "SCRAM-SHA-1"], channelBindingTypes: nil), as: UTF8.self),
                       "SCRAM-SHA-1\u{1E}SCRAM-SHA-256")
    }

    func testSSDPVerification() throws {
        let mechanisms = ["SCRAM-SHA-1", "SCRAM-SHA-1-PLUS", "PLAIN"]
        let types = ["tls-exporter"]
        let h = Base64.encode(Crypto.hash(.sha1, SSDP.hashInput(mechanisms: mechanisms, channelBindingTypes: types)))
        let first = Array("r=abcdef,s=c2FsdA==,i=4096,h=\(h)".utf8)
        XCTAssertTrue(try SSDP.verify(serverFirst: first, hash: .sha1, mechanisms: mechanisms, channelBindingTypes: types))
        XCTAssertFalse(try SSDP.verify(serverFirst: Array("r=abcdef,s=c2FsdA==,i=4096".utf8), hash: .sha1,
                                       mechanisms: ["PLAIN"], channelBindingTypes: nil))
        assertSASLError(.downgradeDetected) { () throws(SASLError) in
            try SSDP.verify(serverFirst: first, hash: .sha1, mechanisms: ["SCRAM-SHA-1", "PLAIN"], channelBindingTypes: types)
        }
        assertSASLError(.downgradeDetected) { () throws(SASLError) in
            try SSDP.verify(serverFirst: first, hash: .sha1, mechanisms: mechanisms, channelBindingTypes: nil)
        }
    }
}
