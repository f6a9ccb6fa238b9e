import XCTest
import XMPPStanzas

/// JIDs as `xmpp:` URIs for vCard's IMPP (RFC 5122, RFC 3986): what is percent-encoded, and
/// that reading gives the JID back.
final class XMPPURITests: XCTestCase {
    func testEncodesWhatAURICannotCarryAndReadsItBack() {
        let encoded: [(jid: String, uri: String)] = [
            ("juliet@example.org", "xmpp:juliet@example.org"), ("o'brien&co@example.org", "xmpp:o%27brien%26co@example.org"),
            ("jürgen@例え.jp", "xmpp:j%C3%BCrgen@%E4%BE%8B%E3%81%88.jp"), ("a%41?b#c@x/res ource", "xmpp:a%2541%3Fb%23c@x/res%20ource"),
            ("x\r\nEND:VCARD@y", "xmpp:x%0D%0AEND%3AVCARD@y"),
            // A leading `//` would be read as an authority (RFC 5122 §2.3) and the JID lost.
            ("//x//EN", "xmpp:%2F/x//EN"),
        ]
        for (jid, uri) in encoded { XCTAssertEqual(XMPPURI.string(jid), uri, jid) }
        for jid in encoded.map(\.jid) + ["x\r\n\\@y"] {
            XCTAssertEqual(XMPPURI.jid(XMPPURI.string(jid)), jid)
        }
        XCTAssertEqual(XMPPURI.jid("XMPP:romeo@example.net?message;subject=hi"), "romeo@example.net")
        XCTAssertEqual(XMPPURI.jid("xmpp://guest@example.com/support@example.com?message"), "support@example.com")
        XCTAssertEqual(XMPPURI.jid("xmpp:100%zz@x"), "100%zz@x", "a % that escapes nothing is kept")
        XCTAssertEqual(XMPPURI.jid("xmpp:%FF@x"), "%FF@x", "octets that are not UTF-8 are kept as written")
        XCTAssertNil(XMPPURI.jid("mailto:a@b"))
    }
}
