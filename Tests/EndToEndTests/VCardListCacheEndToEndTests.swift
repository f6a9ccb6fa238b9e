import Foundation
import XCTest

/// xmpp-vcard get for many JIDs over one connection, and the cache (also with the server stopped).
final class VCardListCacheEndToEndTests: XCTestCase {
    func testStdinListIsFetchedOverOneConnectionAsJSONLines() throws {
        let (reader, _) = try VCardEndToEndTests.account("lr")
        var jids: [String] = []
        for i in 0..<3 {
            let (t, jid) = try VCardEndToEndTests.account("l\(i)")
            XCTAssertEqual(try t.run("xmpp-vcard", ["set", "--nickname", "nick \(i)", "--access", "open"]).status, 0)
            jids.append(jid)
        }
        let (_, empty) = try VCardEndToEndTests.account("le")
        let input = "# contacts\n\(jids[0])\n\n\(jids[1])\nbad user@x\n\(empty)\n\(jids[2])\n"
        let r = try reader.run("xmpp-vcard", ["get", "-", "--json", "--trace"], stdin: input)
        XCTAssertEqual(r.status, 1, "a missing card and a bad JID: mixed failures are exit 1: \(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(lines.count, 5, r.stdout)
        XCTAssertEqual(lines.map { $0?["jid"] as? String }, [jids[0], jids[1], "bad user@x", empty, jids[2]])
        XCTAssertEqual(lines.map { $0?["nickname"] as? String }, ["nick 0", "nick 1", nil, nil, "nick 2"])
        XCTAssertEqual(lines[2]?["exit_code"] as? Int, 9)
        XCTAssertEqual(lines[3]?["exit_code"] as? Int, 4)
        // One connection, and every request sent before the first answer came back.
        let trace = r.stderr.split(separator: "\n")
        XCTAssertEqual(trace.filter { $0.hasPrefix("SEND <starttls") }.count, 1)
        let sends = trace.indices.filter { trace[$0].hasPrefix("SEND <iq") && trace[$0].contains("vcard-temp") }
        let answers = trace.indices.filter { trace[$0].hasPrefix("RECV <iq") && trace[$0].contains("vcard-temp") }
        XCTAssertEqual(sends.count, 4)
        XCTAssertLessThan(try XCTUnwrap(sends.last), try XCTUnwrap(answers.first), "requests are in flight together")

        // The same list as positional arguments in text mode: JID-prefixed tab-separated lines.
        let text = try reader.run("xmpp-vcard", ["get", jids[0], jids[1], "--field", "nickname"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.stdout, "\(jids[0])\tnick 0\n\(jids[1])\tnick 1\n")
        // The fetched cards are cached: shells complete their JIDs offline.
        let completion = try reader.run("xmpp-vcard", ["__complete", "vcards"])
        XCTAssertEqual(completion.stdout, jids.sorted().map { $0 + "\n" }.joined())
    }

    func testCacheAnswersOfflineAndTheDefaultFallsBackWhenTheServerIsDown() throws {
        // A server of this test's own, so stopping it disturbs no other test.
        let server = try TestServer.startPrivate("prosody")
        defer { server.stop() }
        let alice = try ToolRunner(server: try TestServer.require()), bob = try ToolRunner(server: try TestServer.require())
        let aliceJID = try server.account(alice, "ca"), _ = try server.account(bob, "cb")
        XCTAssertEqual(try alice.run("xmpp-vcard", ["set", "--nickname", "Alice ☃", "--note", "a\nb", "--access", "open"]).status, 0)
        let none = try bob.run("xmpp-vcard", ["get", "--cached", aliceJID])
        XCTAssertEqual(none.status, 4, "nothing cached yet: \(none.stderr)")
        let online = try bob.run("xmpp-vcard", ["get", aliceJID, "--json"])
        XCTAssertEqual(online.status, 0, online.stderr)
        XCTAssertEqual(try VCardEndToEndTests.object(online)["source"] as? String, "server")

        server.stop()
        let cached = try bob.run("xmpp-vcard", ["get", "--cached", aliceJID, "--json"])
        XCTAssertEqual(cached.status, 0, cached.stderr)
        XCTAssertEqual(cached.stderr, "", "--cached does not connect, so it has nothing to say")
        let doc = try VCardEndToEndTests.object(cached)
        XCTAssertEqual(doc["source"] as? String, "cache")
        XCTAssertEqual(doc["nickname"] as? String, "Alice ☃")
        XCTAssertEqual(doc["note"] as? String, "a\nb")
        XCTAssertNotNil(doc["fetched_at"] as? String)

        let fallback = try bob.run("xmpp-vcard", ["get", aliceJID, "--field", "nickname"])
        XCTAssertEqual(fallback.status, 0, fallback.stderr)
        XCTAssertEqual(fallback.stdout, "Alice ☃\n")
        XCTAssertTrue(fallback.stderr.contains("cannot reach the server") && fallback.stderr.contains("answering from the cache"),
                      fallback.stderr)
        let refresh = try bob.run("xmpp-vcard", ["get", aliceJID, "--refresh"])
        XCTAssertEqual(refresh.status, 6, refresh.stderr)
        XCTAssertEqual(refresh.stdout, "")
        // alice's own card was cached by her read-back.
        let own = try alice.run("xmpp-vcard", ["get", "--cached", "--field", "note"])
        XCTAssertEqual(own.stdout, #"a\nb"# + "\n", "one value a line: the newline is escaped")
        let uncached = try bob.run("xmpp-vcard", ["get", "nobody@localhost"])
        XCTAssertEqual(uncached.status, 6, "not cached and unreachable: the network error stands: \(uncached.stderr)")

        try server.restart()
        let back = try bob.run("xmpp-vcard", ["get", aliceJID, "--json"])
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertEqual(try VCardEndToEndTests.object(back)["source"] as? String, "server", "back after the restart")
    }

    func testConflictingOptionsAreUsageErrors() throws {
        let (t, _) = try VCardEndToEndTests.account("co")
        XCTAssertEqual(try t.run("xmpp-vcard", ["get", "--cached", "--refresh"]).status, 2)
        XCTAssertEqual(try t.run("xmpp-vcard", ["get", "--format", "vcf", "--field", "note"]).status, 2)
        XCTAssertEqual(try t.run("xmpp-vcard", ["get", "a", "b", "--photo-out", t.home + "/p"]).status, 2)
        XCTAssertEqual(try t.run("xmpp-vcard", ["get", "--format", "xml"]).status, 2)
    }
}
