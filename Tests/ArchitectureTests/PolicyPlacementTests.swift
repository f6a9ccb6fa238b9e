import Foundation
import XCTest

/// Protocol policy stays in the protocol layers (ARCHITECTURE.md §1): the command layer
/// (XMPPTools) parses arguments, composes services and stores, and prints. It makes no stanza
/// ids and awaits no replies (pipelining is a service's), fetches no roster versions and patches
/// no cached copies (`RosterSession`, XMPPServices), runs no log-in retry or FAST token
/// exchange and decides no log-in memory (`SessionLogIn`, `FASTResume`, XMPPConnection).
final class PolicyPlacementTests: XCTestCase {
    private static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// What only a protocol layer writes, and the command-layer files allowed it (with why).
    private static let belowTheCommands: [(text: String, allowedIn: Set<String>)] = [
        ("makeID()", []),
        ("awaitReply(", []),
        ("RosterService.fetch(", []),
        ("RosterService.requestFetch(", []),
        ("PresenceSnapshot.gather(", []),
        ("StreamRetry.run(pipelined: true", []),
        ("expectedMechanism:", []),
        ("rotated.previousToken = ", []),
        ("outcome.mechanism != \"PLAIN\"", []),
        // xmpp-login's own first log-in with the password, which asks for the token it then
        // stores, and keeps the offer the new keys went with.
        ("usedSASL2", ["Login/PasswordLogin.swift"]),
        ("LoginRequest(", ["Login/PasswordLogin.swift"]),
        (".token(", ["Login/PasswordLogin.swift"]),
    ]

    func testTheCommandLayerHoldsNoProtocolPolicy() throws {
        let directory = Self.root.appendingPathComponent("Sources/XMPPTools")
        let files = FileManager.default.enumerator(atPath: directory.path)
        var checked = 0
        while let file = files?.nextObject() as? String {
            guard file.hasSuffix(".swift") else { continue }
            checked += 1
            let code = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            for (text, allowed) in Self.belowTheCommands where !allowed.contains(file) && code.contains(text) {
                XCTFail("Sources/XMPPTools/\(file) writes '\(text)': protocol policy belongs in XMPPConnection or XMPPServices")
            }
        }
        XCTAssertGreaterThan(checked, 100, "the command layer's files were not found")
    }
}
