import XCTest
import XMLTree
import XMPPStanzas

/// RFC 6121 §3–§4 presence: availability and subscription stanzas, from the RFC's examples.
final class RosterPresenceTests: XCTestCase {
    private func presence(_ xml: String) throws -> Presence {
        try Presence(element: parseXMLDocument(xml))
    }

    /// RFC 6121 §4.7.1 (show, several status, priority).
    func testAvailableWithShowStatusPriority() throws {
        let p = try presence("""
            <presence xmlns='jabber:client' from='romeo@example.net/orchard' xml:lang='en'>
              <show>dnd</show>
              <status>Wooing Juliet</status>
              <status xml:lang='cs'>Dvo&#x0159;&#x00ED;m se Julii</status>
              <priority>1</priority>
            </presence>
            """)
        XCTAssertNil(p.type)
        XCTAssertTrue(p.isAvailable)
        XCTAssertEqual(p.from?.description, "romeo@example.net/orchard")
        XCTAssertEqual(p.show, .dnd)
        XCTAssertEqual(p.status, "Wooing Juliet")
        XCTAssertEqual(p.priority, 1)
        XCTAssertEqual(try Presence(element: p.element), p)
    }

    /// RFC 6121 §3.1.1: a subscription request, with a XEP-0172 nick.
    func testSubscribeRequestWithNick() throws {
        let p = try presence("""
            <presence xmlns='jabber:client' id='xk3h1v69' to='juliet@example.com' type='subscribe'>
            <nick xmlns='http://jabber.org/protocol/nick'>Romeo</nick></presence>
            """)
        XCTAssertEqual(p.type, .subscribe)
        XCTAssertEqual(p.id, "xk3h1v69")
        XCTAssertEqual(p.to?.description, "juliet@example.com")
        XCTAssertEqual(p.nick, "Romeo")
        XCTAssertEqual(p.element.serialized(inheritedNamespace: "jabber:client"),
                       "<presence id='xk3h1v69' type='subscribe' to='juliet@example.com'>"
                       + "<nick xmlns='http://jabber.org/protocol/nick'>Romeo</nick></presence>")
    }

    /// RFC 6121 §3.1.4 / §3.2 / §3.3: approve, deny, cancel.
    func testSubscriptionAnswers() throws {
        for kind in [Presence.Kind.subscribed, .unsubscribed, .unsubscribe] {
            let p = try presence("<presence xmlns='jabber:client' id='h4v1c4kj' to='romeo@example.net' type='\(kind.rawValue)'/>")
            XCTAssertEqual(p.type, kind)
            XCTAssertEqual(try Presence(element: p.element), p)
        }
    }

    /// RFC 6121 §4.5.2: unavailable with status; §4.6: extensions are kept.
    func testUnavailableKeepsExtensions() throws {
        let p = try presence("""
            <presence xmlns='jabber:client' from='juliet@example.com/balcony' type='unavailable'><status>Gone home</status>\
            <delay xmlns='urn:xmpp:delay' from='example.com' stamp='2002-09-10T23:41:07Z'/></presence>
            """)
        XCTAssertEqual(p.type, .unavailable)
        XCTAssertEqual(p.status, "Gone home")
        XCTAssertEqual(p.extensions.map(\.name), ["delay"])
        XCTAssertEqual(try Presence(element: p.element), p)
    }

    /// Initial presence of a short-lived client: negative priority (ARCHITECTURE.md §5).
    func testNegativePriorityIsWritten() {
        XCTAssertEqual(Presence(priority: -1).element.serialized(inheritedNamespace: "jabber:client"),
                       "<presence><priority>-1</priority></presence>")
    }

    func testErrorPresence() throws {
        let p = try presence("""
            <presence xmlns='jabber:client' from='nobody@example.org' type='error'><error type='cancel'>\
            <remote-server-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></error></presence>
            """)
        XCTAssertEqual(p.type, .error)
        XCTAssertEqual(p.error?.condition, .remoteServerNotFound)
    }

    func testMalformedPresenceIsRefusedWithAReason() throws {
        XCTAssertThrowsError(try presence("<presence xmlns='jabber:client' type='online'/>")) {
            XCTAssertEqual($0 as? StanzaParseError, .invalidAttribute(element: "presence", attribute: "type", value: "online"))
        }
        XCTAssertThrowsError(try presence("<presence xmlns='jabber:client'><show>sleeping</show></presence>"))
        XCTAssertThrowsError(try presence("<presence xmlns='jabber:client'><priority>300</priority></presence>"))
        XCTAssertThrowsError(try presence("<presence xmlns='jabber:client' from='@x'/>"))
    }
}
