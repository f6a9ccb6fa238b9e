import Foundation
import XCTest

/// What a stranger puts in a subscription request or a presence status cannot forge lines or
/// reach the terminal through watch, pending or list text output; JSON carries it unchanged.
final class RosterHostileTextEndToEndTests: XCTestCase {
    private func raw(_ w: RosterWorld, _ account: (String, String), _ stanzas: [String]) throws -> Watcher {
        try RawStanzaClient.start(serverArgs: w.serverArgs, environment: w.tools.environment, account: account, sending: stanzas)
    }

    func testSubscriptionRequestTextIsEscapedInWatchAndPending() throws {
        try TestServer.require().require("rfc6121-roster", "the expected roster and subscription states are RFC 6121's")
        let w = try RosterWorld()
        let alice = try w.account("ha")
        let mallory = try w.accountWithPassword("hm")
        let watcher = try Watcher(argv: [Paths.binaries + "/xmpp-roster", "watch", "-a", alice], environment: w.tools.environment)
        try watcher.waitForOutput(containing: "interrupt to stop", timeout: 30)
        let request = "<presence to='\(alice)' type='subscribe'><status>\(RawStanzaClient.hostileXML)</status>"
            + "<nick xmlns='http://jabber.org/protocol/nick'>Mal&#10;lory&#8238;</nick></presence>"
        let client = try raw(w, mallory, [request])
        defer { _ = client.stop() }
        try watcher.waitForOutput(containing: "asks to see your presence")
        XCTAssertEqual(watcher.stop(SIGTERM), 0)
        let lines = watcher.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.contains("asks to see") },
                       ["\(mallory.0) asks to see your presence: \(RawStanzaClient.hostileShown)"], watcher.output)
        XCTAssertFalse(lines.contains { $0.hasPrefix("forged") }, watcher.output)
        XCTAssertFalse(watcher.output.unicodeScalars.contains { $0 == "\u{9B}" || $0 == "\u{202E}" })

        let pending = try w.roster(alice, ["pending"])
        XCTAssertEqual(pending.status, 0, pending.stderr)
        XCTAssertEqual(pending.stdout, w.redeliversPending ? "\(mallory.0)\t" + #"Mal\nloryU+202E"# + "\t\(RawStanzaClient.hostileShown)\n" : "")
        if w.redeliversPending {
            let json = try XCTUnwrap(try w.json(alice, ["pending"]) as? [[String: Any]])
            XCTAssertEqual(json.first?["status"] as? String, RawStanzaClient.hostile, "JSON keeps the text as it came")
            XCTAssertEqual(json.first?["nick"] as? String, "Mal\nlory\u{202E}")
        }
    }

    func testPresenceStatusIsEscapedInWatchAndList() throws {
        let w = try RosterWorld()
        let alice = try w.account("hl")
        let mallory = try w.accountWithPassword("hn")
        XCTAssertEqual(try w.roster(alice, ["add", mallory.0]).status, 0)
        let watcher = try Watcher(argv: [Paths.binaries + "/xmpp-roster", "watch", "-a", alice], environment: w.tools.environment)
        try watcher.waitForOutput(containing: "interrupt to stop", timeout: 30)
        // Mallory accepts alice's request and comes online with the status.
        let client = try raw(w, mallory, ["<presence to='\(alice)' type='subscribed'/>",
                                          "<presence><status>\(RawStanzaClient.hostileXML)</status></presence>"])
        defer { _ = client.stop() }
        try watcher.waitForOutput(containing: "is online")
        XCTAssertEqual(watcher.stop(SIGTERM), 0)
        let online = try XCTUnwrap(watcher.output.split(separator: "\n").first { $0.contains(" is online") })
        XCTAssertTrue(online.hasPrefix("\(mallory.0)/"), String(online))
        XCTAssertTrue(online.hasSuffix(" is online: \(RawStanzaClient.hostileShown)"), String(online))

        let list = try w.roster(alice, ["list"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertEqual(list.stdout, "\(mallory.0)\t\t\tto\tonline\t\(RawStanzaClient.hostileShown)\n")
        let json = try w.contacts(alice, [])
        XCTAssertEqual(json[mallory.0]?["status"] as? String, RawStanzaClient.hostile, "JSON keeps the text as it came")
    }

    /// Text quoted in an error (here a command-line value) is escaped the same way on stderr.
    func testErrorMessagesEscapeWhatTheyQuote() throws {
        let w = try RosterWorld()
        let r = try w.tools.run("xmpp-roster", ["list", "--subscription", "\u{1B}[31mred\nforged: line"])
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 2, "the error and its hint: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains(#"\e[31mred\nforged: line"#), r.stderr)
        XCTAssertFalse(r.stderr.contains("\u{1B}"))
    }
}
