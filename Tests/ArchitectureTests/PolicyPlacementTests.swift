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

    /// What blocks until the server answers: a connection opened, logged in or bound in one
    /// call, a reply or stanza awaited, an account's lock waited for.
    private static let blockingCalls = [
        "Connection.open(", "connection.logIn(", "connection.authenticate(", "connection.bind(", ".authenticate(link",
        "(Connection) throws", ".awaitReply(", ".nextStanza(",
        "withTokenInUse", "withSessionLock", "FASTResume.resume(",
    ]

    /// No blocking call runs inside the batch's poll loop (issue 37): every stream, the
    /// administrator's `--admin` streams too, is opened and logged in as steps the loop drives
    /// (`PolledSetup`, with a `LoginPolicy` for a cached session), and per-row work runs as
    /// conversations replayed on what arrived (`ReplayChannel`), so one stalled server holds up
    /// no other stream.
    func testTheBatchMakesNoBlockingCall() throws {
        let directory = Self.root.appendingPathComponent("Sources/XMPPBatch")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }
        XCTAssertGreaterThan(files.count, 30, "the batch's files were not found")
        for file in files {
            let code = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            for call in Self.blockingCalls where code.contains(call) {
                XCTFail("Sources/XMPPBatch/\(file) writes '\(call)': the poll loop drives steps (PolledSetup, LoginPolicy, ReplayChannel), it never waits")
            }
        }
    }
}
