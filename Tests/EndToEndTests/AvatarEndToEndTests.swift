import Foundation
import XCTest
import XMLTree

/// xmpp-avatar set/get/info/remove against the real server, checked with a raw client.
final class AvatarEndToEndTests: XCTestCase {
    private var t: ToolRunner!
    private var alice = "", alicePassword = "", bob = "", bobPassword = ""
    private var image = ""

    override func setUpWithError() throws {
        t = try ToolRunner(server: try TestServer.require())
        (alice, alicePassword) = try t.makeAccount("av", login: true)
        (bob, bobPassword) = try t.makeAccount("bv", login: true)
        image = t.home + "/photo.png"
        try TestPNG.rgb(width: 300, height: 200).write(to: URL(fileURLWithPath: image))
    }

    /// These tests check XEP-0084 avatars in PEP; ServerCapabilityEndToEndTests check what the
    /// tools do and say on a server without PEP (jabberd2).
    private func requirePEP() throws { try t.server.require("avatar-pep", "XEP-0084 avatars in PEP") }

    private func avatar(_ args: [String], as account: String) throws -> RunResult {
        try t.run("xmpp-avatar", args + ["-a", account])
    }

    private func json(_ r: RunResult, _ file: StaticString = #filePath, _ line: UInt = #line) throws -> [String: Any] {
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return try XCTUnwrap(try ToolRunner.json(r) as? [String: Any], r.stdout, file: file, line: line)
    }

    private func file(_ name: String) -> String { t.home + "/" + name }
    private func read(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func testOtherAccountGetsIdenticalBytesViaPEPAndVCard() throws {
        try requirePEP()
        let set = try json(try avatar(["set", image, "--json"], as: alice))
        let hash = try XCTUnwrap(set["hash"] as? String)
        XCTAssertEqual(set.keys.sorted(), ["access_model", "bytes", "hash", "height", "jid", "pep", "type", "vcard", "width"])
        XCTAssertEqual(set["jid"] as? String, alice)
        XCTAssertEqual(set["width"] as? Int, 100)
        XCTAssertEqual(set["height"] as? Int, 100)
        XCTAssertEqual(set["type"] as? String, "image/png")
        XCTAssertEqual(set["pep"] as? Bool, true)
        XCTAssertEqual(set["vcard"] as? Bool, true)
        XCTAssertEqual(set["access_model"] as? String, "open")

        let viaPEP = try json(try avatar(["get", alice, "-o", file("pep.png"), "--source", "pep", "--json"], as: bob))
        XCTAssertEqual(viaPEP["source"] as? String, "pep")
        XCTAssertEqual(viaPEP["hash"] as? String, hash)
        let pepBytes = try read(file("pep.png"))
        XCTAssertEqual(try sha1Hex(pepBytes), hash)
        XCTAssertEqual(pepBytes.count, set["bytes"] as? Int)
        XCTAssertEqual(TestPNG.size(pepBytes).map { [$0.0, $0.1] }, [100, 100])

        let viaVCard = try json(try avatar(["get", alice, "-o", file("vcard.png"), "--source", "vcard", "--json"], as: bob))
        XCTAssertEqual(viaVCard["source"] as? String, "vcard")
        XCTAssertEqual(viaVCard["hash"] as? String, hash)
        XCTAssertEqual(try read(file("vcard.png")), pepBytes)

        // A bare name is on the account's domain; without -o the bytes go to the (piped) stdout.
        let user = String(alice.prefix { $0 != "@" })
        let piped = try avatar(["get", user], as: bob)
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(piped.stdoutData, pepBytes)

        // The metadata that stays on the server is ours, dimensions included (published after the vCard).
        let items = try RawXMPP.items(t.server, jid: alice, password: alicePassword, node: "urn:xmpp:avatar:metadata")
        let info = try XCTUnwrap(items.last?.child("metadata", namespace: "urn:xmpp:avatar:metadata")?.child("info"))
        XCTAssertEqual(info[attribute: "id"], hash)
        XCTAssertEqual(info[attribute: "bytes"], String(pepBytes.count))
        XCTAssertEqual(info[attribute: "width"], "100")
        XCTAssertEqual(info[attribute: "height"], "100")
        XCTAssertEqual(info[attribute: "type"], "image/png")
    }

    func testSetMergesIntoTheVCardAndRemoveClearsBoth() throws {
        try requirePEP()
        let fields = "<FN>Alice Liddell</FN><NICKNAME>ally</NICKNAME><BDAY>1852-05-04</BDAY><TITLE>Explorer</TITLE>"
            + "<URL>https://wonder.example/</URL><EMAIL><USERID>alice@wonder.example</USERID></EMAIL>"
            + "<ORG><ORGNAME>Wonderland</ORGNAME></ORG>"
        _ = try RawXMPP.iqs(t.server, jid: alice, password: alicePassword,
                            ["<iq type='set' id='raw0'><vCard xmlns='vcard-temp'>\(fields)</vCard></iq>"])
        let set = try json(try avatar(["set", image, "--json"], as: alice))
        let hash = try XCTUnwrap(set["hash"] as? String)

        let card = try RawXMPP.vCard(t.server, jid: alice, password: alicePassword)
        let expected: [(String, String)] = [("FN", "Alice Liddell"), ("NICKNAME", "ally"), ("BDAY", "1852-05-04"),
                                            ("TITLE", "Explorer"), ("URL", "https://wonder.example/")]
        for (name, value) in expected { XCTAssertEqual(card.child(name)?.text, value, name) }
        XCTAssertEqual(card.child("EMAIL")?.child("USERID")?.text, "alice@wonder.example")
        XCTAssertEqual(card.child("ORG")?.child("ORGNAME")?.text, "Wonderland")
        let photo = try XCTUnwrap(card.child("PHOTO"))
        XCTAssertEqual(photo.child("TYPE")?.text, "image/png")
        let binval = try XCTUnwrap(Data(base64Encoded: photo.child("BINVAL")?.text ?? "", options: .ignoreUnknownCharacters))
        XCTAssertEqual(try sha1Hex(binval), hash)

        let removed = try json(try avatar(["remove", "--json"], as: alice))
        XCTAssertEqual(removed["removed"] as? Bool, true)
        XCTAssertEqual(removed["previous_hash"] as? String, hash)
        let after = try RawXMPP.vCard(t.server, jid: alice, password: alicePassword)
        for (name, value) in expected { XCTAssertEqual(after.child(name)?.text, value, name) }
        XCTAssertNil(after.child("PHOTO"))
        let metadata = try RawXMPP.items(t.server, jid: alice, password: alicePassword, node: "urn:xmpp:avatar:metadata")
        let last = try XCTUnwrap(metadata.last?.child("metadata", namespace: "urn:xmpp:avatar:metadata"))
        XCTAssertTrue(last.elements.isEmpty, "XEP-0084 §4.5: empty metadata")
        XCTAssertTrue(try RawXMPP.items(t.server, jid: alice, password: alicePassword, node: "urn:xmpp:avatar:data").isEmpty)

        for source in ["auto", "pep", "vcard"] {
            let r = try avatar(["get", alice, "--source", source], as: bob)
            XCTAssertEqual(r.status, 4, "\(source): \(r.stderr)")
        }
        let again = try json(try avatar(["remove", "--json"], as: alice))
        XCTAssertEqual(again["removed"] as? Bool, false)
        XCTAssertTrue(again["previous_hash"] is NSNull)
    }

    func testSetIsIdempotentAndANewImageReplacesTheOld() throws {
        try requirePEP()
        let first = try avatar(["set", image], as: alice)
        XCTAssertEqual(first.status, 0, first.stderr)
        let hash = first.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(hash.count, 40)
        let second = try avatar(["set", image], as: alice)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.stdout, first.stdout)
        XCTAssertEqual(second.stderr, "")
        let data = try RawXMPP.items(t.server, jid: alice, password: alicePassword, node: "urn:xmpp:avatar:data")
        XCTAssertEqual(data.map { $0[attribute: "id"] }, [hash])

        let padded = try json(try avatar(["set", image, "--fit", "pad", "--size", "64", "--json"], as: alice))
        let newHash = try XCTUnwrap(padded["hash"] as? String)
        XCTAssertNotEqual(newHash, hash)
        XCTAssertEqual(padded["width"] as? Int, 64)
        let info = try json(try avatar(["info", alice, "--json"], as: bob))
        XCTAssertEqual(info["hash"] as? String, newHash)
        XCTAssertEqual(info["width"] as? Int, 64)
        let vcard = try json(try avatar(["info", alice, "--json", "--source", "vcard"], as: bob))
        XCTAssertEqual(vcard["hash"] as? String, newHash)
    }

    func testPresenceAccessHidesFromStrangersUntilSetOpenAgain() throws {
        try requirePEP()
        let closed = try json(try avatar(["set", image, "--access", "presence", "--json"], as: alice))
        XCTAssertEqual(closed["access_model"] as? String, "presence")
        let hash = try XCTUnwrap(closed["hash"] as? String)
        // PEP refuses the stranger. ejabberd says not-authorized: that is said (exit 8), not "has
        // no avatar". Prosody 0.12 says forbidden, as for a node that does not exist: exit 4, in
        // words that admit both.
        let stranger = try avatar(["get", alice, "--source", "pep", "-o", file("refused.png")], as: bob)
        assertRefusedOrHidden(stranger, alice)
        // The fallback asks the vCard. Prosody derives the vCard PHOTO from PEP with the same
        // access check (so the refusal is what is left to say), ejabberd keeps the vCard apart and public.
        let fallback = try avatar(["info", alice, "--json"], as: bob)
        if t.server.has("avatar-vcard-follows-pep") {
            assertRefusedOrHidden(fallback, alice)
        } else {
            XCTAssertEqual(try json(fallback)["source"] as? String, "vcard")
            XCTAssertEqual(try json(fallback)["hash"] as? String, hash)
        }
        let own = try avatar(["info", "--json"], as: alice)
        XCTAssertEqual(try json(own)["hash"] as? String, hash)

        // The node is "presence" now: publish-options "open" meets precondition-not-met, the node
        // is reconfigured and the publish repeated, with no warning.
        let reopened = try avatar(["set", image], as: alice)
        XCTAssertEqual(reopened.status, 0, reopened.stderr)
        XCTAssertEqual(reopened.stderr, "")
        let fetched = try json(try avatar(["get", alice, "--source", "pep", "-o", file("open.png"), "--json"], as: bob))
        XCTAssertEqual(fetched["hash"] as? String, hash)
    }

    /// A PEP refusal as the server words it: not-authorized (exit 8, named) or forbidden (exit 4,
    /// "none, or hidden").
    private func assertRefusedOrHidden(_ r: RunResult, _ jid: String, file: StaticString = #filePath, line: UInt = #line) {
        if r.status == 8 {
            XCTAssertTrue(r.stderr.contains("not allowed to read \(jid)'s PEP avatar (not-authorized"), r.stderr, file: file, line: line)
        } else {
            XCTAssertEqual(r.status, 4, r.stderr, file: file, line: line)
            XCTAssertTrue(r.stderr.contains("answers forbidden both when there is none and when it is hidden"), r.stderr,
                          file: file, line: line)
        }
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr, file: file, line: line)
    }

    func testAJPEGAvatarPublishedByAnotherClientIsFetched() throws {
        try requirePEP()
        let jpeg = TestJPEG.small
        let hash = try sha1Hex(jpeg)
        let open = "<publish-options><x xmlns='jabber:x:data' type='submit'>"
            + "<field var='FORM_TYPE' type='hidden'><value>http://jabber.org/protocol/pubsub#publish-options</value></field>"
            + "<field var='pubsub#access_model'><value>open</value></field></x></publish-options>"
        let replies = try RawXMPP.iqs(t.server, jid: alice, password: alicePassword, [
            "<iq type='set' id='raw0'><pubsub xmlns='http://jabber.org/protocol/pubsub'><publish node='urn:xmpp:avatar:data'>"
                + "<item id='\(hash)'><data xmlns='urn:xmpp:avatar:data'>\(jpeg.base64EncodedString())</data></item></publish>"
                + "\(open)</pubsub></iq>",
            "<iq type='set' id='raw1'><pubsub xmlns='http://jabber.org/protocol/pubsub'><publish node='urn:xmpp:avatar:metadata'>"
                + "<item id='\(hash)'><metadata xmlns='urn:xmpp:avatar:metadata'><info bytes='\(jpeg.count)' id='\(hash)' "
                + "type='image/jpeg' width='24' height='16'/></metadata></item></publish>\(open)</pubsub></iq>",
        ])
        XCTAssertEqual(replies.map { $0[attribute: "type"] }, ["result", "result"], "\(replies.map { $0.serialized() })")
        let got = try json(try avatar(["get", alice, "--source", "pep", "-o", file("theirs.jpg"), "--json"], as: bob))
        XCTAssertEqual(got["hash"] as? String, hash)
        XCTAssertEqual(got["type"] as? String, "image/jpeg")
        XCTAssertEqual(try read(file("theirs.jpg")), jpeg)
        let info = try json(try avatar(["info", alice, "--json", "--source", "pep"], as: bob))
        XCTAssertEqual(info["width"] as? Int, 24)
        XCTAssertEqual(info["height"] as? Int, 16)
    }

    func testAvatarOfALegacyVCardOnlyClientIsFound() throws {
        try requirePEP()
        let png = TestPNG.rgb(width: 120, height: 80, seed: 9)
        let photo = "<PHOTO><TYPE>image/png</TYPE><BINVAL>\(png.base64EncodedString(options: .lineLength76Characters))</BINVAL></PHOTO>"
        _ = try RawXMPP.iqs(t.server, jid: alice, password: alicePassword,
                            ["<iq type='set' id='raw0'><vCard xmlns='vcard-temp'><FN>Old Client</FN>\(photo)</vCard></iq>"])
        let hash = try sha1Hex(png)
        // Both test servers mirror a vCard PHOTO into PEP (Prosody vcard_legacy, ejabberd mod_avatar).
        let own = try json(try avatar(["info", "--json"], as: alice))
        XCTAssertEqual(own["source"] as? String, "pep")
        XCTAssertEqual(own["hash"] as? String, hash)
        XCTAssertEqual(own["width"] as? Int, 120, "from the image when the metadata has no dimensions")
        XCTAssertEqual(own["height"] as? Int, 80)
        // Prosody creates the mirrored nodes open; ejabberd with its default (presence), so a
        // stranger falls back to the public vCard there.
        let stranger = try json(try avatar(["info", alice, "--json"], as: bob))
        XCTAssertEqual(stranger["source"] as? String, t.server.has("avatar-vcard-follows-pep") ? "pep" : "vcard")
        XCTAssertEqual(stranger["hash"] as? String, hash)
        XCTAssertEqual(stranger["width"] as? Int, 120)
        let vcard = try json(try avatar(["get", alice, "--source", "vcard", "-o", file("legacy.png"), "--json"], as: bob))
        XCTAssertEqual(vcard["hash"] as? String, hash)
        XCTAssertEqual(try read(file("legacy.png")), png, "line-wrapped Base64 decodes to the same bytes")
        let removed = try json(try avatar(["remove", "--json"], as: alice))
        XCTAssertEqual(removed["previous_hash"] as? String, hash)
        // Gone from the vCard; ejabberd's mirrored PEP node stays presence-only, so a stranger is refused there.
        let gone = try avatar(["get", alice, "-o", file("gone.png")], as: bob)
        if t.server.has("avatar-vcard-follows-pep") {
            XCTAssertEqual(gone.status, 4, gone.stderr)
        } else {
            assertRefusedOrHidden(gone, alice)
        }
        XCTAssertEqual(try RawXMPP.vCard(t.server, jid: alice, password: alicePassword).child("FN")?.text, "Old Client")
    }

    func testNoAvatarExitsFour() throws {
        for args in [["get", alice], ["info", alice], ["get"], ["get", alice, "--source", "vcard"],
                     ["info", "nobody-\(UUID().uuidString.prefix(8).lowercased())"]] {
            let output = args[0] == "get" ? ["-o", file("none.png")] : []
            let r = try avatar(args + output, as: bob)
            XCTAssertEqual(r.status, 4, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("xmpp-avatar: ") && r.stderr.contains("has no avatar"), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file("none.png")))
    }

    func testInfoInTextAndJSON() throws {
        try requirePEP()
        let set = try json(try avatar(["set", image, "--json"], as: alice))
        let hash = try XCTUnwrap(set["hash"] as? String)
        let text = try avatar(["info", alice], as: bob)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.stdout, "jid\t\(alice)\nhash\t\(hash)\ntype\timage/png\nbytes\t\(set["bytes"] ?? "")\n"
                           + "width\t100\nheight\t100\nsource\tpep\n")
        let info = try json(try avatar(["info", alice, "--json"], as: bob))
        XCTAssertEqual(info.keys.sorted(), ["bytes", "cached", "hash", "height", "jid", "source", "type", "width"])
        XCTAssertEqual(info["bytes"] as? Int, set["bytes"] as? Int)
    }

    func testCachedImagesAreNotDownloadedAgainAndCachedWorksOffline() throws {
        try requirePEP()
        let hash = try XCTUnwrap(try json(try avatar(["set", image, "--json"], as: alice))["hash"] as? String)
        // bob on a machine of his own: alice's `set` filled this home's cache with the image already.
        let elsewhere = try ToolRunner(server: t.server)
        XCTAssertEqual(try elsewhere.login(bob, bobPassword, t.serverArgs).status, 0)
        let bobAvatar = { (args: [String]) in try elsewhere.run("xmpp-avatar", args) }
        let first = try bobAvatar(["get", alice, "-o", file("1.png"), "--json", "--trace"])
        XCTAssertEqual(try json(first)["cached"] as? Bool, false)
        XCTAssertTrue(first.stderr.contains("<items node='urn:xmpp:avatar:data'>"), "the data is fetched once")
        let second = try bobAvatar(["get", alice, "-o", file("2.png"), "--json", "--trace"])
        XCTAssertEqual(try json(second)["cached"] as? Bool, true)
        XCTAssertTrue(second.stderr.contains("urn:xmpp:avatar:metadata"), "the metadata is still read")
        XCTAssertFalse(second.stderr.contains("<items node='urn:xmpp:avatar:data'>"), "XEP-0084 §4.4: no second download")
        XCTAssertEqual(try read(file("2.png")), try read(file("1.png")))

        // --cached never connects: a server address where nothing listens does not matter.
        let offline = try bobAvatar(["get", alice, "--cached", "--server", "127.0.0.1:1", "-o", file("3.png")])
        XCTAssertEqual(offline.status, 0, offline.stderr)
        XCTAssertEqual(offline.stdout, hash + "\n")
        XCTAssertEqual(try sha1Hex(try read(file("3.png"))), hash)
        XCTAssertEqual(try bobAvatar(["info", alice, "--cached", "--source", "vcard"]).status, 4)
        XCTAssertEqual(try bobAvatar(["get", "carol", "--cached", "-o", file("4.png")]).status, 4)
        // In the shared home, bob's first fetch of alice's avatar reuses the image alice's `set` stored.
        XCTAssertEqual(try json(try avatar(["info", alice, "--json"], as: bob))["cached"] as? Bool, true)
        let own = try json(try avatar(["info", "--cached", "--json"], as: alice))
        XCTAssertEqual(own["hash"] as? String, hash, "set caches the account's own avatar")
    }
}
