import XCTest
import XMLTree
import XMPPConnection
@testable import XMPPServices
import XMPPStanzas

/// Merging vcard-temp, vCard4 and the nickname node into one profile.
final class ProfileMergeTests: XCTestCase {
    func testPrecedenceSourcesAndANicknameConflict() {
        var temp = VCard()
        temp.nickname = "old"
        temp.fullName = "Alice"
        temp.photo = VCard.Photo(type: "image/png", base64: "AAAA")
        temp.emails = [VCard.Email(address: "a@example.org", types: ["internet", "work", "pref"])]
        var four = VCard()
        four.nickname = "Ally"
        four.note = "from Gajim"
        four.emails = [VCard.Email(address: "a@example.org", types: ["work"])]
        let merged = MergedProfile(StoredProfile(vcardTemp: temp, vcard4: VCard4(fields: four), nick: UserNickname("Ally")))
        XCTAssertEqual(merged.card.nickname, "Ally")
        XCTAssertEqual(merged.card.note, "from Gajim", "a field only vCard4 holds is shown")
        XCTAssertEqual(merged.card.fullName, "Alice")
        XCTAssertEqual(merged.card.photo?.base64, "AAAA")
        XCTAssertEqual(merged.card.emails.first?.types, ["internet", "work", "pref"], "the same addresses keep vcard-temp's flags")
        XCTAssertEqual(merged.sources[.nickname], .nick)
        XCTAssertEqual(merged.sources[.note], .vcard4)
        XCTAssertEqual(merged.sources[.fullname], .vcardTemp)
        XCTAssertEqual(merged.sources[.email], .vcard4)
        XCTAssertEqual(merged.conflicts.map(\.field), [.nickname])
        XCTAssertEqual(merged.conflicts.first?.values.map(\.store), [.nick, .vcard4, .vcardTemp])
        XCTAssertEqual(merged.conflicts.first?.values.map(\.value), ["Ally", "Ally", "old"])
        XCTAssertEqual(merged.stores, [.vcardTemp, .vcard4, .nick])
    }

    func testAVCard4OnlyProfileIsShown() {
        var four = VCard()
        four.fullName = "Gajim User"
        let merged = MergedProfile(StoredProfile(vcard4: VCard4(fields: four)))
        XCTAssertEqual(merged.card.fullName, "Gajim User")
        XCTAssertEqual(merged.sources[.fullname], .vcard4)
        XCTAssertEqual(merged.conflicts, [])
    }
}

/// ProfileWriter against a server that converts vcard-temp into vCard4 (Prosody's vcard_legacy)
/// and one that does not.
final class ProfileWriterTests: XCTestCase {
    static let empty = "<iq xmlns='jabber:client' id='{id}' type='result'/>"
    static let noItems = "<iq xmlns='jabber:client' id='{id}' type='error'><error type='cancel'><item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>"
    static func vcard4Items(_ inner: String) -> String {
        "<iq xmlns='jabber:client' id='{id}' type='result'><pubsub xmlns='http://jabber.org/protocol/pubsub'><items node='urn:xmpp:vcard4'>"
            + "<item id='current'><vcard xmlns='urn:ietf:params:xml:ns:vcard-4.0'>\(inner)</vcard></item></items></pubsub></iq>"
    }
    static func vcardTemp(_ inner: String) -> String {
        "<iq xmlns='jabber:client' id='{id}' type='result'><vCard xmlns='vcard-temp'>\(inner)</vCard></iq>"
    }

    static let nickItem = "<iq xmlns='jabber:client' id='{id}' type='result'><pubsub xmlns='http://jabber.org/protocol/pubsub'>"
        + "<items node='http://jabber.org/protocol/nick'><item id='current'><nick xmlns='http://jabber.org/protocol/nick'>Ally</nick>"
        + "</item></items></pubsub></iq>"

    /// On a server that makes vCard4 from vcard-temp (Prosody's vcard_legacy), the vCard4 the
    /// server made lacks a property we do not map (GENDER): vCard4 is published after it, with
    /// the property, and vcard-temp read back as the server now makes it.
    func testAConvertingServerKeepsAnUnmappedVCard4Property() throws {
        let channel = try FakeChannel(replies: [
            Self.vcardTemp(""), Self.vcard4Items("<gender><sex>F</sex></gender>"), Self.noItems,
            Self.empty, Self.vcardTemp("<NICKNAME>Ally</NICKNAME>"),              // publish and read back vcard-temp
            Self.vcard4Items("<nickname><text>Ally</text></nickname>"),           // what the server made: no gender
            Self.empty,                                                           // publish vcard4
            Self.vcard4Items("<nickname><text>Ally</text></nickname><gender><sex>F</sex></gender>"),
            Self.vcardTemp("<NICKNAME>Ally</NICKNAME>"),                          // vcard-temp as the server makes it
            Self.empty, Self.nickItem,                                            // publish and read back nick
        ])
        let result = try ProfileWriter.write(on: channel, stores: Set(ProfileStore.allCases), access: "presence") { card in
            var c = card
            c.nickname = "Ally"
            return c
        }
        XCTAssertEqual(result.writes.map(\.status), [.updated, .updated, .updated])
        XCTAssertEqual(result.after.vcard4?.extras.map(\.name), ["gender"])
        XCTAssertEqual(result.after.vcardTemp?.nickname, "Ally")
        XCTAssertEqual(channel.requests.count, 11)
        let published = channel.requests[6].serialized()
        XCTAssertTrue(published.contains("gender") && published.contains("pubsub#access_model"), published)
    }

    /// Where the vCard4 the server made from vcard-temp is the one wanted, it is not published
    /// again: only its access model is configured.
    func testAServerMadeVCard4IsNotPublishedTwice() throws {
        let channel = try FakeChannel(replies: [
            Self.vcardTemp(""), Self.noItems, Self.noItems,
            Self.empty, Self.vcardTemp("<FN>Alice</FN><PHOTO><TYPE>image/png</TYPE><BINVAL>AAAA</BINVAL></PHOTO>"),
            Self.vcard4Items("<fn><text>Alice</text></fn><n><surname/><given/></n>"),
            Self.empty,                                                           // configure access
        ])
        let result = try ProfileWriter.write(on: channel, stores: [.vcardTemp, .vcard4], access: "presence") { card in
            var c = card
            c.fullName = "Alice"
            c.photo = VCard.Photo(type: "image/png", base64: "AAAA")
            return c
        }
        XCTAssertEqual(result.writes.map(\.status), [.updated, .updated])
        XCTAssertEqual(result.writes.last?.madeByServer, true)
        XCTAssertEqual(channel.requests.count, 7)
        XCTAssertTrue(channel.requests[6].serialized().contains("configure"))
    }

    /// A nickname publish answered item-not-found failed (a PEP service makes the node on
    /// publish; ejabberd says it to a brand-new account now and then), with the condition for a
    /// retry; feature-not-implemented means no PEP at all (jabberd2 2.7).
    func testANicknamePublishRefusalIsAFailureUnlessThereIsNoPEP() throws {
        func error(_ condition: String) -> String {
            "<iq xmlns='jabber:client' id='{id}' type='error'><error type='cancel'><\(condition) xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></iq>"
        }
        for (condition, status, expected) in [("item-not-found", ProfileStoreWrite.Status.failed, StanzaError.Condition.itemNotFound),
                                              ("feature-not-implemented", .unavailable, .featureNotImplemented)] {
            let channel = try FakeChannel(replies: [Self.vcardTemp(""), Self.noItems, Self.noItems, error(condition)])
            let result = try ProfileWriter.write(on: channel, stores: [.nick], access: nil) { card in
                var c = card
                c.nickname = "Ally"
                return c
            }
            XCTAssertEqual(result.writes.map(\.status), [status], condition)
            XCTAssertEqual(result.writes.first?.condition, expected, condition)
        }
    }

    /// A server that keeps the stores apart (ejabberd) gets each one published.
    func testASeparateStoreServerGetsEachStore() throws {
        let channel = try FakeChannel(replies: [
            Self.vcardTemp(""), Self.noItems, Self.noItems,
            Self.empty, Self.vcardTemp("<NICKNAME>Ally</NICKNAME>"),
            Self.noItems,                                                         // vcard4 after the vcard-temp set: none
            Self.empty, Self.vcard4Items("<nickname><text>Ally</text></nickname>"),
            Self.empty, Self.nickItem,
        ])
        let result = try ProfileWriter.write(on: channel, stores: Set(ProfileStore.allCases), access: nil) { card in
            var c = card
            c.nickname = "Ally"
            return c
        }
        XCTAssertEqual(result.writes.map(\.status), [.updated, .updated, .updated])
        XCTAssertEqual(result.writes.map(\.madeByServer), [false, false, false])
        XCTAssertEqual(result.after.nick?.nickname, "Ally")
        XCTAssertEqual(channel.requests.count, 10, "no vcard-temp read after vCard4: the server keeps them apart")
    }

    /// A set that changes nothing in the merged profile sends nothing, though vcard-temp lacks
    /// the org unit vCard4 holds (Prosody's conversion drops it): re-sending it would only make
    /// the server convert again.
    func testANoOpSetSendsNothingWhereVCardTempCannotHoldEverything() throws {
        let channel = try FakeChannel(replies: [
            Self.vcardTemp("<NICKNAME>Ally</NICKNAME><ORG><ORGNAME>Org</ORGNAME></ORG>"),
            Self.vcard4Items("<nickname><text>Ally</text></nickname><org><text>Org</text><text>Research</text></org>"),
            Self.nickItem,
        ])
        let result = try ProfileWriter.write(on: channel, stores: Set(ProfileStore.allCases), access: "presence") { card in
            var c = card
            c.nickname = "Ally"
            return c
        }
        XCTAssertEqual(result.writes.map(\.status), [.unchanged, .unchanged, .unchanged])
        XCTAssertEqual(channel.requests.count, 3, "only the three reads")
    }
}
