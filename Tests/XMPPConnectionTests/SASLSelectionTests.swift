import CryptoPrimitives
import XCTest
@testable import XMPPConnection

/// Table-driven tests of mechanism selection (ARCHITECTURE.md §4) and the gs2 flag (RFC 5802 §6).
final class SASLSelectionTests: XCTestCase {
    private static let unique: [UInt8] = [0xAA, 0xBB]
    private static let exporter: [UInt8] = Array(repeating: 0xEE, count: 32)
    private static let endPoint: [UInt8] = Array(repeating: 0x5E, count: 32)
    private let tls12 = TLSBindingInfo(version: .tls12, tlsUnique: unique)
    private let tls13 = TLSBindingInfo(version: .tls13, tlsExporter: exporter)
    private let ejabberd = [
        "SCRAM-SHA-1", "SCRAM-SHA-1-PLUS", "SCRAM-SHA-256", "SCRAM-SHA-256-PLUS", "SCRAM-SHA-512", "SCRAM-SHA-512-PLUS",
        "PLAIN", "X-OAUTH2",
    ]

    private struct Row {
        var name: String
        var offered: [String]
        var tls: TLSBindingInfo?
        var cached: HashFunction? = nil
        var usedSCRAM = false
        var allowPlain = true
        var requireSCRAM = false
        var cbTypes: [ChannelBindingType]? = nil
        var expected: Result<MechanismChoice, SASLError>
    }

    private func scram(_ name: String, _ binding: ChannelBinding) -> Result<MechanismChoice, SASLError> {
        guard let mechanism = SCRAMMechanism(name: name) else { preconditionFailure(name) }
        var type: ChannelBindingType?
        if case .bound(let bound, _) = binding { type = bound }
        return .success(MechanismChoice(mechanism: .scram(mechanism, type), channelBinding: binding))
    }

    private var rows: [Row] {
        [
            Row(name: "Prosody on TLS 1.3: no -PLUS, we could bind → y",
                offered: ["SCRAM-SHA-1", "PLAIN"], tls: tls13, expected: scram("SCRAM-SHA-1", .supportedButNotUsed)),
            Row(name: "Prosody on TLS 1.2: -PLUS with tls-unique",
                offered: ["SCRAM-SHA-1", "SCRAM-SHA-1-PLUS", "PLAIN"], tls: tls12,
                expected: scram("SCRAM-SHA-1-PLUS", .bound(.tlsUnique, Self.unique))),
            Row(name: "no TLS → n", offered: ["SCRAM-SHA-1", "PLAIN"], tls: nil,
                expected: scram("SCRAM-SHA-1", .unsupported)),
            Row(name: "SHA-256 password hash on Prosody", offered: ["SCRAM-SHA-256", "PLAIN"], tls: tls13,
                expected: scram("SCRAM-SHA-256", .supportedButNotUsed)),
            Row(name: "ejabberd on TLS 1.2: strongest hash, -PLUS tls-unique", offered: ejabberd, tls: tls12,
                expected: scram("SCRAM-SHA-512-PLUS", .bound(.tlsUnique, Self.unique))),
            Row(name: "ejabberd 23.01 on TLS 1.3, no XEP-0440: -PLUS offered but not guessed → n",
                offered: ejabberd, tls: tls13, expected: scram("SCRAM-SHA-512", .unsupported)),
            Row(name: "ejabberd on TLS 1.3 advertising tls-unique only → n", offered: ejabberd, tls: tls13,
                cbTypes: [.tlsUnique], expected: scram("SCRAM-SHA-512", .unsupported)),
            Row(name: "XEP-0440 server on TLS 1.3 → tls-exporter", offered: ejabberd, tls: tls13,
                cbTypes: [.tlsServerEndPoint, .tlsExporter],
                expected: scram("SCRAM-SHA-512-PLUS", .bound(.tlsExporter, Self.exporter))),
            Row(name: "XEP-0440 server, tls-server-end-point only", offered: ["SCRAM-SHA-256", "SCRAM-SHA-256-PLUS"],
                tls: TLSBindingInfo(version: .tls13, tlsExporter: Self.exporter, tlsServerEndPoint: Self.endPoint),
                cbTypes: [.tlsServerEndPoint],
                expected: scram("SCRAM-SHA-256-PLUS", .bound(.tlsServerEndPoint, Self.endPoint))),
            Row(name: "XEP-0440 on TLS 1.2 listing tls-exporter, TLS layer has it", offered: ["SCRAM-SHA-1-PLUS"],
                tls: TLSBindingInfo(version: .tls12, tlsExporter: Self.exporter), cbTypes: [.tlsExporter],
                expected: scram("SCRAM-SHA-1-PLUS", .bound(.tlsExporter, Self.exporter))),
            Row(name: "XEP-0440 on TLS 1.2 prefers tls-unique", offered: ["SCRAM-SHA-1-PLUS"],
                tls: TLSBindingInfo(version: .tls12, tlsUnique: Self.unique, tlsExporter: Self.exporter),
                cbTypes: [.tlsExporter, .tlsUnique],
                expected: scram("SCRAM-SHA-1-PLUS", .bound(.tlsUnique, Self.unique))),
            Row(name: "tls-unique is never used on TLS 1.3", offered: ["SCRAM-SHA-1", "SCRAM-SHA-1-PLUS"],
                tls: TLSBindingInfo(version: .tls13, tlsUnique: Self.unique), cbTypes: [.tlsUnique],
                expected: scram("SCRAM-SHA-1", .unsupported)),
            Row(name: "TLS without binding data, no -PLUS offered → n", offered: ["SCRAM-SHA-1"],
                tls: TLSBindingInfo(version: .tls12), expected: scram("SCRAM-SHA-1", .unsupported)),
            Row(name: "hash before -PLUS: SHA-256 beats SHA-1-PLUS, n since -PLUS is offered",
                offered: ["SCRAM-SHA-1-PLUS", "SCRAM-SHA-256"], tls: tls12, expected: scram("SCRAM-SHA-256", .unsupported)),
            Row(name: "names are trimmed", offered: ["  SCRAM-SHA-256\n", "\tPLAIN"], tls: tls13,
                expected: scram("SCRAM-SHA-256", .supportedButNotUsed)),
            Row(name: "cached SHA-1 keys pick SHA-1 even when SHA-512 is offered", offered: ejabberd, tls: tls12,
                cached: .sha1, expected: scram("SCRAM-SHA-1-PLUS", .bound(.tlsUnique, Self.unique))),
            Row(name: "cached SHA-1 keys, server now offers only SHA-256",
                offered: ["SCRAM-SHA-256", "SCRAM-SHA-256-PLUS", "PLAIN"], tls: tls12, cached: .sha1,
                expected: .failure(.cachedKeysUnusable(.sha1, offered: ["SCRAM-SHA-256", "SCRAM-SHA-256-PLUS", "PLAIN"]))),
            Row(name: "used SCRAM before, only PLAIN → downgrade refused", offered: ["PLAIN"], tls: tls13, usedSCRAM: true,
                expected: .failure(.plainRefusedAfterSCRAM)),
            Row(name: "PLAIN without TLS", offered: ["PLAIN"], tls: nil, expected: .failure(.plainRequiresTLS)),
            Row(name: "PLAIN over TLS", offered: ["PLAIN", "X-OAUTH2"], tls: tls13,
                expected: .success(MechanismChoice(mechanism: .plain, channelBinding: .unsupported))),
            Row(name: "PLAIN not allowed", offered: ["PLAIN"], tls: tls13, allowPlain: false,
                expected: .failure(.noAcceptableMechanism(offered: ["PLAIN"]))),
            Row(name: "SCRAM required, only PLAIN offered", offered: ["PLAIN"], tls: tls13, requireSCRAM: true,
                expected: .failure(.scramRequired(offered: ["PLAIN"]))),
            Row(name: "SCRAM required and offered", offered: ["PLAIN", "SCRAM-SHA-1"], tls: tls13, requireSCRAM: true,
                expected: scram("SCRAM-SHA-1", .supportedButNotUsed)),
            Row(name: "nothing usable", offered: ["DIGEST-MD5", "scram-sha-1"], tls: tls12,
                expected: .failure(.noAcceptableMechanism(offered: ["DIGEST-MD5", "scram-sha-1"]))),
            Row(name: "nothing offered", offered: [], tls: nil, expected: .failure(.noAcceptableMechanism(offered: []))),
        ]
    }

    func testSelectionTable() {
        for row in rows {
            let result = Result { () throws(SASLError) in
                try SASLSelection.choice(
                    offered: row.offered, tls: row.tls, cachedKeysHash: row.cached, usedSCRAMBefore: row.usedSCRAM,
                    allowPlain: row.allowPlain, requireSCRAM: row.requireSCRAM, serverCBTypes: row.cbTypes)
            }
            XCTAssertEqual(result, row.expected, row.name)
            let chosen = Result { () throws(SASLError) in
                try SASLSelection.choose(
                    offered: row.offered, tls: row.tls, cachedKeysHash: row.cached, usedSCRAMBefore: row.usedSCRAM,
                    allowPlain: row.allowPlain, requireSCRAM: row.requireSCRAM, serverCBTypes: row.cbTypes)
            }
            XCTAssertEqual(chosen, row.expected.map(\.mechanism), row.name)
        }
    }

    /// A choice plugs straight into SCRAMClient with the gs2 header it implies.
    func testChoiceDrivesTheClient() throws {
        let choice = try SASLSelection.choice(
            offered: ["SCRAM-SHA-1", "PLAIN"], tls: tls13, cachedKeysHash: nil, usedSCRAMBefore: false, allowPlain: true)
        guard case .scram(let mechanism, nil) = choice.mechanism else { return XCTFail("\(choice)") }
        XCTAssertEqual(choice.mechanism.name, "SCRAM-SHA-1")
        var scram = try SCRAMClient(
            mechanism: mechanism, username: "u", credential: .password("p"), channelBinding: choice.channelBinding,
            clientNonce: "N")
        XCTAssertEqual(scram.clientFirstMessage(), bytes("y,,n=u,r=N"))
        XCTAssertEqual(SelectedMechanism.plain.name, "PLAIN")
    }
}
