import XCTest
import XMLTree
import XMPPStanzas

/// RFC 6121 roster items: subscription states, pending-out `ask`, pre-approval, groups.
final class RosterItemTests: XCTestCase {
    private func item(_ xml: String) throws -> RosterItem {
        try RosterItem(element: parseXMLDocument("<query xmlns='jabber:iq:roster'>\(xml)</query>").elements[0])
    }

    /// RFC 6121 §3.1.2: the push after a subscription request is sent (pending out).
    func testAskSubscribe() throws {
        let i = try item("<item ask='subscribe' jid='juliet@example.com' subscription='none'/>")
        XCTAssertEqual(i.subscription, .none)
        XCTAssertTrue(i.ask)
        XCTAssertFalse(i.approved)
        XCTAssertEqual(try RosterItem(element: i.element), i)
    }

    /// RFC 6121 §3.4.2: a pre-approved item.
    func testApproved() throws {
        let i = try item("<item approved='true' jid='romeo@example.net' subscription='none'/>")
        XCTAssertTrue(i.approved)
        XCTAssertEqual(i.element.serialized(inheritedNamespace: "jabber:iq:roster"),
                       "<item jid='romeo@example.net' subscription='none' approved='true'/>")
    }

    /// RFC 6121 §2.1.2.2: several groups; empty and repeated ones are dropped.
    func testGroups() throws {
        let i = try item("<item jid='romeo@example.net' name='Romeo'><group>Friends</group><group>Lovers</group><group/><group>Friends</group></item>")
        XCTAssertEqual(i.groups, ["Friends", "Lovers"])
        XCTAssertEqual(i.name, "Romeo")
        XCTAssertEqual(i.subscription, .none, "a missing subscription attribute means none")
    }

    func testEveryStateRoundTrips() throws {
        for state in Subscription.allCases {
            let i = try item("<item jid='a@b.c' subscription='\(state.rawValue)'/>")
            XCTAssertEqual(i.subscription, state)
            XCTAssertEqual(try RosterItem(element: i.element), i)
        }
        XCTAssertTrue(Subscription.both.receivesPresence && Subscription.to.receivesPresence)
        XCTAssertFalse(Subscription.from.receivesPresence || Subscription.none.receivesPresence)
    }

    func testNameEmptyIsNoName() throws {
        XCTAssertNil(try item("<item jid='a@b.c' name=''/>").name)
    }

    func testMalformedItemsAreRefusedWithAReason() throws {
        XCTAssertThrowsError(try item("<item name='x'/>")) {
            XCTAssertEqual($0 as? StanzaParseError, .missingAttribute(element: "item", attribute: "jid"))
        }
        XCTAssertThrowsError(try item("<item jid='a@b.c' subscription='maybe'/>")) {
            XCTAssertEqual($0 as? StanzaParseError, .invalidAttribute(element: "item", attribute: "subscription", value: "maybe"))
        }
        XCTAssertThrowsError(try item("<item jid='a@b.c' ask='unsubscribe'/>")) {
            XCTAssertEqual($0 as? StanzaParseError, .invalidAttribute(element: "item", attribute: "ask", value: "unsubscribe"))
        }
        XCTAssertThrowsError(try item("<item jid='a@b.c/res'/>")) {
            XCTAssertEqual($0 as? StanzaParseError, .invalidAttribute(element: "item", attribute: "jid", value: "a@b.c/res"))
        }
        XCTAssertThrowsError(try item("<item jid='a b@c'/>"))
        let many = (0...RosterItem.maxGroups).map { "<group>g\($0)</group>" }.joined()
        XCTAssertThrowsError(try item("<item jid='a@b.c'>\(many)</item>"))
    }
}
